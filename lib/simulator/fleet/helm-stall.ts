// The helm-upgrade-stall scenario as helm-controller v1.6 really leaves it. The HelmRelease has
// `upgrade.remediation.retries: 2` (rollback, the default strategy) and `remediateLastFailure: false`, so:
// attempt 1 fails → the history is truncated to the failed release and the last successful one, and a
// rollback to the old chart becomes a new `deployed` release (Remediated=True RollbackSucceeded, which Ready
// mirrors as False); attempt 2 fails and is rolled back the same way; attempt 3 fails and is left for
// debugging: Stalled=True RetriesExceeded. Sources: helm-controller v1.6.3 internal/reconcile/atomic_release.go
// (actionForState, summarize), api/v2/snapshot_types.go (Truncate), docs/spec/v2/helmreleases.md §History.
import { condition, event, HR_API, meta, type Condition, type HelmSnapshot, type ObjectIdentity } from "./flux";
import { goDuration, hex } from "./random";
import { SECOND, TIMELINE, helmAttempt } from "./timeline";
import type { KubeObject } from "../contract";

/** A rollback remediation runs this long after the failure it remedies. */
export const HELM_ROLLBACK_DELAY = 5 * SECOND;
/** Events are gone this long after their last occurrence (kube-apiserver --event-ttl). */
const EVENT_TTL = 60 * 60 * SECOND;

export interface StallInput {
  id: ObjectIdentity;
  epoch: number;
  /** t - epoch */
  rel: number;
  namespace: string;
  name: string;
  chart: string;
  /** The deployed release before the upgrade (newest first: deployed, then the one it superseded). */
  deployed: HelmSnapshot;
  superseded: HelmSnapshot;
  /** The chart version the upgrade tries. */
  target: { version: string; appVersion: string };
  gen: number;
  baseGen: number;
  okMessage: string;
  installedAt: number;
}

export interface StallState {
  conditions: Condition[];
  history: HelmSnapshot[];
  failures: number;
  events: KubeObject[];
}

/** Every instant (relative to t0) the stall changes the object or its Events. */
export function helmStallChangeTimes(): number[] {
  const times: number[] = [TIMELINE.helmUpgradeStart - 5 * SECOND];
  for (let k = 1; k <= TIMELINE.helmMaxAttempts; k++) {
    const a = helmAttempt(k);
    times.push(a.start, a.fail);
    if (k < TIMELINE.helmMaxAttempts) times.push(a.fail + HELM_ROLLBACK_DELAY, a.fail + HELM_ROLLBACK_DELAY + EVENT_TTL + 1);
  }
  times.push(helmAttempt(TIMELINE.helmMaxAttempts).fail + EVENT_TTL + 1);
  return times;
}

/** Ready as helm-controller's summarize composes it: Remediated (forcing False) before Released. */
function ready(remediated: Condition | null, released: Condition): Condition {
  const from = remediated ?? released;
  return { ...from, type: "Ready", status: remediated ? "False" : from.status };
}

export function helmStall(input: StallInput): StallState {
  const { id, epoch, rel, namespace, name, chart, gen } = input;
  const at = (r: number) => epoch + r;
  const releaseRef = (v: number) => `${namespace}/${name}.v${v}`;
  const error =
    `cannot patch "kube-prometheus-stack-grafana" with kind Deployment: Deployment.apps "kube-prometheus-stack-grafana" is invalid: ` +
    `spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app.kubernetes.io/instance":"kube-prometheus-stack", ` +
    `"app.kubernetes.io/name":"grafana"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable`;
  const failMessage = `Helm upgrade failed for release ${namespace}/${name} with chart ${chart}@${input.target.version}: ${error}`;

  let history: HelmSnapshot[] = [input.deployed, input.superseded];
  let version = input.deployed.version;
  let deployed = input.deployed;
  let failures = 0;
  let released = condition("Released", "True", "UpgradeSucceeded", input.okMessage, input.installedAt, input.baseGen);
  let remediated: Condition | null = null;
  let running: number | undefined;
  let lastFail = 0;
  const rollbacks: Array<{ at: number; message: string }> = [];

  for (let k = 1; k <= TIMELINE.helmMaxAttempts; k++) {
    const { start, fail } = helmAttempt(k);
    if (rel < start) break;
    version += 1;
    const upgrade: HelmSnapshot = {
      version,
      status: rel >= fail ? "failed" : "pending-upgrade",
      chartName: chart,
      chartVersion: input.target.version,
      appVersion: input.target.appVersion,
      firstDeployed: at(start),
      lastDeployed: at(start),
      action: "upgrade",
    };
    history = [upgrade, ...history];
    if (rel < fail) {
      running = start;
      break;
    }
    failures = k;
    lastFail = fail;
    released = condition("Released", "False", "UpgradeFailed", failMessage, at(fail), gen);
    const rollbackAt = fail + HELM_ROLLBACK_DELAY;
    if (k === TIMELINE.helmMaxAttempts || rel < rollbackAt) continue;
    // Remediation: truncate to the failure and the last successful release, then roll back to it.
    const target = deployed;
    version += 1;
    const rollback: HelmSnapshot = {
      ...target,
      version,
      status: "deployed",
      firstDeployed: at(rollbackAt),
      lastDeployed: at(rollbackAt),
      action: undefined,
    };
    history = [rollback, upgrade, { ...target, status: "superseded" }];
    deployed = rollback;
    const message = `Helm rollback to previous release ${releaseRef(target.version)} with chart ${chart}@${target.chartVersion} succeeded`;
    remediated = condition("Remediated", "True", "RollbackSucceeded", message, at(rollbackAt), gen);
    rollbacks.push({ at: at(rollbackAt), message });
  }

  let conditions: Condition[];
  if (running !== undefined) {
    conditions = [
      condition("Reconciling", "True", "Progressing", "Running 'upgrade' action with timeout of 5m0s", at(running), gen),
      condition("Ready", "Unknown", "Progressing", "reconciliation in progress", at(running), gen),
      released,
      ...(remediated ? [remediated] : []),
    ];
  } else if (failures >= TIMELINE.helmMaxAttempts) {
    conditions = [
      condition("Stalled", "True", "RetriesExceeded", `Failed to upgrade after ${failures} attempt(s)`, at(lastFail), gen),
      ready(remediated, released),
      released,
      ...(remediated ? [remediated] : []),
    ];
  } else if (failures > 0) {
    conditions = [
      condition(
        "Reconciling",
        "True",
        "ProgressingWithRetry",
        `retrying after ${goDuration(TIMELINE.helmRetryBackoff)}`,
        at(lastFail),
        gen,
      ),
      ready(remediated, released),
      released,
      ...(remediated ? [remediated] : []),
    ];
  } else {
    conditions = [ready(null, released), released];
  }

  const events: KubeObject[] = [];
  const involved = { apiVersion: HR_API, kind: "HelmRelease", metadata: meta(id, "HelmRelease", namespace, name) };
  const token = `sha256:${hex(`values:${id.seed}:${id.cluster}:${name}:${gen}`, 64)}`;
  if (failures > 0 && rel - lastFail <= EVENT_TTL) {
    // One Event, its count moved by the recorder's correlator on every identical failure.
    events.push(
      event({
        id,
        involved,
        reason: "UpgradeFailed",
        message: failMessage,
        type: "Warning",
        controller: "helm-controller",
        first: at(helmAttempt(1).fail),
        last: at(lastFail),
        count: failures,
        revision: input.target.version,
        token,
      }),
    );
  }
  // Each rollback is its own Event: their messages name different releases, so the correlator keeps them apart.
  for (const r of rollbacks) {
    if (epoch + rel - r.at > EVENT_TTL) continue;
    events.push(
      event({
        id,
        involved,
        reason: "RollbackSucceeded",
        message: r.message,
        type: "Normal",
        controller: "helm-controller",
        first: r.at,
        last: r.at,
        count: 1,
        revision: input.deployed.chartVersion,
        token,
      }),
    );
  }
  return { conditions, history, failures, events };
}
