// Scenarios of Flux objects as the controllers really leave them (issue 12), added to a spoke after its
// usual objects (one hook at the end of spokeObjects). Each shape is cited where it is built:
// - static OCI HelmRepositories (`status: {}`, no finalizer, no conditions: source-controller ≥ v1.2.0);
// - a HelmRelease added while its helm-controller is not running: it keeps the CRD default
//   `status: {observedGeneration: -1}` forever, and one picked up normally (new → progressing → ready);
// - a HelmRelease in drift warn mode that drifts: Ready stays True, Drifted=True, DriftDetected Warnings;
// - a HelmRelease removed during the run, whose Events (uninstall, chart deleted) outlive it;
// - a HelmRepository that cannot fetch its index while the HelmChart and HelmRelease it feeds stay Ready;
// - a Kustomization caught in its routine reconcile (Ready Unknown for its health checks, then True again).
// Spokes by index (never the roles of spokes 1, 7, 9 and 10): see SEMANTICS and docs/simulator-scenarios.md.
import type { KubeObject } from "../contract";
import { FLUX_NS, SOURCE_API, condition, event, helmChart, helmRelease, meta, type Condition, type ObjectIdentity } from "./flux";
import { hex, iso } from "./random";
import { applyRoutineMark, routinePass, routineSteps, type RoutineMark } from "./reconcile-pass";
import type { SpokePlan } from "./spoke";
import { DAY, HOUR, MINUTE, SECOND } from "./timeline";

/** Which spoke (by index) plays which scenario, and when (relative to t0). */
export const SEMANTICS = {
  /** Spokes holding the OCI HelmRepository `flux-system/podinfo-oci` (static). */
  staticOci: [0, 2, 4, 6, 8] as readonly number[],
  /** ingress-nginx runs with `driftDetection.mode: warn` on these spokes. */
  driftWarnMode: [0, 2, 3, 4, 5, 6, 8] as readonly number[],
  /** ...and drifts on these, from this time on (someone scaled the controller by hand). */
  drift: new Map<number, number>([
    [3, -40 * MINUTE],
    [8, 7 * MINUTE],
  ]),
  /** aws-node-termination-handler is removed from this spoke (Karpenter handles interruptions now). */
  removed: { spoke: 0, at: 60 * SECOND },
  /** aws-node-termination-handler is added here while helm-controller is not running: never reconciled. */
  unclaimed: { spoke: 6, createdAt: -25 * MINUTE },
  /** ...and added here normally: picked up after 20 s, installed after 55 s. */
  added: { spoke: 5, createdAt: 8 * MINUTE, pickedUpAfter: 20 * SECOND, installedAfter: 55 * SECOND },
  /** prometheus-community's index cannot be fetched here (429) since this time; what it fed stays Ready. */
  failingRepository: { spoke: 5, name: "prometheus-community", since: -35 * MINUTE, retryEvery: 15 * MINUTE },
  /** infra-configs reconciles its applied revision here, slowly (health checks), over this window. */
  routineReconcile: { spoke: 2, name: "infra-configs", from: 75 * SECOND, until: 100 * SECOND },
} as const;

const EVENT_TTL = HOUR;
/** ingress-nginx's HelmRelease interval: drift is found (and its Event repeated) once per reconcile. */
const INGRESS_INTERVAL = 30 * MINUTE;
const NTH = {
  name: "aws-node-termination-handler",
  namespace: "kube-system",
  chart: "aws-node-termination-handler",
  version: "0.27.2",
  appVersion: "1.25.2",
  repository: "eks-charts",
};

/** Every instant (relative to t0) at which these scenarios change a spoke's objects or Events. */
export function objectSemanticsChangeTimes(index: number): number[] {
  const times: number[] = [];
  const drift = SEMANTICS.drift.get(index);
  if (drift !== undefined) for (let k = 0; k <= 48; k++) times.push(drift + k * INGRESS_INTERVAL);
  if (index === SEMANTICS.removed.spoke)
    times.push(SEMANTICS.removed.at - 2 * SECOND, SEMANTICS.removed.at, SEMANTICS.removed.at + EVENT_TTL);
  if (index === SEMANTICS.added.spoke) {
    const a = SEMANTICS.added;
    times.push(a.createdAt, a.createdAt + a.pickedUpAfter, a.createdAt + a.installedAfter, a.createdAt + a.installedAfter + EVENT_TTL + 1);
  }
  if (index === SEMANTICS.routineReconcile.spoke) times.push(SEMANTICS.routineReconcile.from, SEMANTICS.routineReconcile.until);
  if (index === SEMANTICS.failingRepository.spoke) {
    const f = SEMANTICS.failingRepository;
    for (let k = 0; k <= 96; k++) times.push(f.since + k * f.retryEvery, f.since + k * f.retryEvery + EVENT_TTL + 1);
  }
  return times;
}

type Status = Record<string, unknown>;
const statusOf = (o: KubeObject) => (o.status ?? {}) as Status;
const find = (out: KubeObject[], kind: string, namespace: string, name: string) =>
  out.find((o) => o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === name);

/** Adds and reshapes this spoke's scenario objects in place. */
export function applyObjectSemantics(plan: SpokePlan, t: number, out: KubeObject[], events: KubeObject[]): void {
  const index = plan.spec.index;
  const rel = t - plan.epoch;
  const id: ObjectIdentity = { seed: plan.seed, cluster: plan.spec.name, createdAt: plan.createdAt };
  if (SEMANTICS.staticOci.includes(index)) out.push(staticOciRepository(id, plan.createdAt + 3 * DAY));
  if (SEMANTICS.driftWarnMode.includes(index)) driftWarnMode(plan, id, rel, out, events);
  const hasEksCharts = plan.helmRepositories.includes(NTH.repository);
  if (hasEksCharts && index === SEMANTICS.removed.spoke) removedRelease(plan, id, rel, out, events);
  if (hasEksCharts && index === SEMANTICS.unclaimed.spoke) out.push(unclaimedRelease(plan, id));
  if (hasEksCharts && index === SEMANTICS.added.spoke) addedRelease(plan, id, rel, out, events);
  if (index === SEMANTICS.failingRepository.spoke) failingRepository(plan, id, rel, out, events);
  if (index === SEMANTICS.routineReconcile.spoke) routineReconcile(plan, rel, out);
}

/**
 * kustomize-controller's routine reconcile of the revision already applied (see reconcile-pass.ts): Ready
 * Unknown "Reconciliation in progress" while it runs (here its last step, the health checks, for 25 s), Ready
 * True again with a new transition time at its end, history[0] moved on.
 */
function routineReconcile(plan: SpokePlan, rel: number, out: KubeObject[]) {
  const r = SEMANTICS.routineReconcile;
  const ks = find(out, "Kustomization", FLUX_NS, r.name);
  const pass = ks && rel >= r.from ? routinePass(ks) : null;
  if (!ks || !pass || pass.failed) return;
  const { steps } = routineSteps(ks);
  const startedAt = plan.epoch + r.from;
  const [lastStep, lastStepAt] = steps[steps.length - 1];
  const mark: RoutineMark =
    rel < r.until
      ? { step: lastStep, revision: pass.revision, startedAt, stepAt: startedAt + lastStepAt, passes: 0, finishedAt: null }
      : { step: null, revision: pass.revision, startedAt, stepAt: startedAt, passes: 1, finishedAt: plan.epoch + r.until };
  ks.status = applyRoutineMark(ks, mark);
}

/**
 * source-controller v1.9 `helmrepository_controller.go` (migrationToStatic): an OCI HelmRepository ends with
 * no finalizer and `status: {}`; `kubectl get helmrepository` shows empty READY and STATUS. The CRD defaults
 * `spec.provider: generic`.
 */
function staticOciRepository(id: ObjectIdentity, createdAt: number): KubeObject {
  return {
    apiVersion: SOURCE_API,
    kind: "HelmRepository",
    metadata: meta({ ...id, createdAt }, "HelmRepository", FLUX_NS, "podinfo-oci", {
      generation: 1,
      labels: { "kustomize.toolkit.fluxcd.io/name": "infra-controllers", "kustomize.toolkit.fluxcd.io/namespace": FLUX_NS },
    }),
    spec: { interval: "5m0s", provider: "generic", type: "oci", url: "oci://ghcr.io/stefanprodan/charts" },
    status: {},
  };
}

/**
 * helm-controller v1.6 (atomic_release.go, docs §Drift detection): in warn mode every in-sync reconcile sets
 * Drifted (False NoDriftDetected, or True DriftDetected with a summary per object) and Ready keeps its
 * UpgradeSucceeded verdict; drift found emits a Warning DriftDetected Event with the same message and no
 * revision annotation.
 */
function driftWarnMode(plan: SpokePlan, id: ObjectIdentity, rel: number, out: KubeObject[], events: KubeObject[]) {
  const hr = find(out, "HelmRelease", "ingress-nginx", "ingress-nginx");
  if (!hr) return;
  (hr.spec as Status).driftDetection = { mode: "warn" };
  const status = statusOf(hr);
  const conditions = status.conditions as Condition[];
  const ready = conditions.find((c) => c.type === "Ready");
  if (ready?.status !== "True") return;
  const release = (status.history as Array<{ version: number }>)[0]?.version;
  const gen = (hr.metadata as { generation?: number }).generation ?? 1;
  const driftStart = SEMANTICS.drift.get(plan.spec.index);
  if (driftStart === undefined || rel < driftStart) {
    conditions.push(
      condition(
        "Drifted",
        "False",
        "NoDriftDetected",
        "No drift detected against the cluster state",
        Date.parse(ready.lastTransitionTime),
        gen,
      ),
    );
    return;
  }
  const message =
    `Cluster state of release ingress-nginx/ingress-nginx.v${release} has drifted from the desired state:\n` +
    `Deployment/ingress-nginx/ingress-nginx-controller changed (0 additions, 1 changes, 0 removals)`;
  const found = plan.epoch + driftStart;
  conditions.push(condition("Drifted", "True", "DriftDetected", message, found, gen));
  const repeats = Math.floor((rel - driftStart) / INGRESS_INTERVAL);
  events.push(
    event({
      id,
      involved: hr,
      reason: "DriftDetected",
      message,
      type: "Warning",
      controller: "helm-controller",
      // Repeated every reconcile, well within the Event TTL: one Event whose count grows.
      first: found,
      last: found + repeats * INGRESS_INTERVAL,
      count: 1 + repeats,
    }),
  );
}

function nthRelease(plan: SpokePlan, id: ObjectIdentity, createdAt: number): KubeObject {
  return helmRelease({
    id: { ...id, createdAt },
    name: NTH.name,
    namespace: NTH.namespace,
    chart: NTH.chart,
    version: NTH.version,
    source: { kind: "HelmRepository", name: NTH.repository },
    interval: "30m0s",
    generation: 1,
    labels: { "kustomize.toolkit.fluxcd.io/name": "infra-controllers", "kustomize.toolkit.fluxcd.io/namespace": FLUX_NS },
    conditions: [],
    history: [],
    lastAttemptedRevision: NTH.version,
    lastAttemptedReleaseAction: "install",
    lastAttemptedGeneration: 1,
  });
}

const nthOk = (release: number) =>
  `Helm install succeeded for release ${NTH.namespace}/${NTH.name}.v${release} with chart ${NTH.chart}@${NTH.version}`;

/** An installed, healthy release: history [v1 deployed install], Ready True InstallSucceeded, its HelmChart. */
function installedNth(plan: SpokePlan, id: ObjectIdentity, createdAt: number, installedAt: number): KubeObject[] {
  const hr = nthRelease(plan, id, createdAt);
  const status = statusOf(hr);
  status.conditions = [
    condition("Ready", "True", "InstallSucceeded", nthOk(1), installedAt, 1),
    condition("Released", "True", "InstallSucceeded", nthOk(1), installedAt, 1),
  ];
  status.history = [
    {
      action: "install",
      appVersion: NTH.appVersion,
      chartName: NTH.chart,
      chartVersion: NTH.version,
      configDigest: status.lastAttemptedConfigDigest,
      digest: `sha256:${hex(`release:${id.cluster}:${NTH.name}:1`, 64)}`,
      firstDeployed: iso(installedAt),
      lastDeployed: iso(installedAt),
      name: NTH.name,
      namespace: NTH.namespace,
      status: "deployed",
      version: 1,
    },
  ];
  status.inventory = {
    entries: [
      { id: `${NTH.namespace}_${NTH.name}_apps_DaemonSet`, v: "v1" },
      { id: `${NTH.namespace}_${NTH.name}__ServiceAccount`, v: "v1" },
      { id: `_${NTH.name}_rbac.authorization.k8s.io_ClusterRole`, v: "v1" },
    ],
  };
  const chart = helmChart({
    id: { ...id, createdAt: createdAt + 2 * SECOND },
    releaseNamespace: NTH.namespace,
    releaseName: NTH.name,
    chart: NTH.chart,
    version: NTH.version,
    repository: NTH.repository,
    interval: "12h0m0s",
    pulledAt: createdAt + 5 * SECOND,
    generation: 1,
  });
  return [hr, chart];
}

/**
 * Removed at SEMANTICS.removed.at: helm-controller's finaliser uninstalls the release (Normal
 * UninstallSucceeded, with the revision and token annotations) and deletes the HelmChart (trace event
 * HelmChartDeleted, recorded as Normal), then the object is gone; its Events stay for an hour.
 */
function removedRelease(plan: SpokePlan, id: ObjectIdentity, rel: number, out: KubeObject[], events: KubeObject[]) {
  const createdAt = plan.epoch - 30 * DAY;
  const [hr, chart] = installedNth(plan, id, createdAt, createdAt + 40 * SECOND);
  const removing = plan.epoch + SEMANTICS.removed.at - 2 * SECOND;
  if (rel < SEMANTICS.removed.at) out.push(hr, chart);
  if (rel < SEMANTICS.removed.at - 2 * SECOND || rel > SEMANTICS.removed.at + EVENT_TTL) return;
  const token = statusOf(hr).lastAttemptedConfigDigest as string;
  events.push(
    event({
      id,
      involved: hr,
      reason: "UninstallSucceeded",
      message: `Helm uninstall succeeded for release ${NTH.namespace}/${NTH.name}.v1 with chart ${NTH.chart}@${NTH.version}`,
      type: "Normal",
      controller: "helm-controller",
      first: removing,
      last: removing,
      count: 1,
      revision: NTH.version,
      token,
    }),
    event({
      id,
      involved: hr,
      reason: "HelmChartDeleted",
      message: `deleted HelmChart '${FLUX_NS}/${NTH.namespace}-${NTH.name}'`,
      type: "Normal",
      controller: "helm-controller",
      first: removing + SECOND,
      last: removing + SECOND,
      count: 1,
    }),
  );
}

/**
 * Created while helm-controller is not running: the apiserver returns the CRD default
 * `status: {observedGeneration: -1}` and nothing ever changes it (no HelmChart, no Events).
 */
function unclaimedRelease(plan: SpokePlan, id: ObjectIdentity): KubeObject {
  const hr = nthRelease(plan, id, plan.epoch + SEMANTICS.unclaimed.createdAt);
  return { ...hr, status: { observedGeneration: -1 } };
}

/**
 * Created at SEMANTICS.added.createdAt and picked up normally: `status: {observedGeneration: -1}` until the
 * controller's first status patch, which keeps the -1 next to its conditions (a merge patch on the
 * defaulted object, lab §F.1); installed 55 s after creation.
 */
function addedRelease(plan: SpokePlan, id: ObjectIdentity, rel: number, out: KubeObject[], events: KubeObject[]) {
  const a = SEMANTICS.added;
  if (rel < a.createdAt) return;
  const createdAt = plan.epoch + a.createdAt;
  if (rel < a.createdAt + a.pickedUpAfter) {
    out.push({ ...nthRelease(plan, id, createdAt), status: { observedGeneration: -1 } });
    return;
  }
  const [hr, chart] = installedNth(plan, id, createdAt, createdAt + a.installedAfter);
  if (rel < a.createdAt + a.installedAfter) {
    const pickedUp = createdAt + a.pickedUpAfter;
    const msg = "Running 'install' action with timeout of 5m0s";
    out.push(
      {
        ...hr,
        status: {
          conditions: [
            condition("Reconciling", "True", "Progressing", msg, pickedUp, 1),
            condition("Ready", "Unknown", "Progressing", "reconciliation in progress", pickedUp, 1),
          ],
          helmChart: `${FLUX_NS}/${NTH.namespace}-${NTH.name}`,
          lastAttemptedGeneration: 1,
          lastAttemptedReleaseAction: "install",
          lastAttemptedRevision: NTH.version,
          observedGeneration: -1,
          storageNamespace: NTH.namespace,
        },
      },
      chart,
    );
    return;
  }
  out.push(hr, chart);
  const installed = createdAt + a.installedAfter;
  if (rel - a.installedAfter - a.createdAt > EVENT_TTL) return;
  events.push(
    event({
      id,
      involved: hr,
      reason: "InstallSucceeded",
      message: nthOk(1),
      type: "Normal",
      controller: "helm-controller",
      first: installed,
      last: installed,
      count: 1,
      revision: NTH.version,
      token: statusOf(hr).lastAttemptedConfigDigest as string,
    }),
  );
}

/**
 * source-controller v1.9 `helmrepository_controller.go` (reconcileSource): a failed index fetch is
 * FetchFailed=True reason Failed "failed to fetch Helm repository index: …", Ready=False with the same, the
 * stored artifact kept; a Warning Event per failed attempt (counted by the correlator). The HelmChart keeps
 * its artifact and stays Ready, so does the HelmRelease: a ready consumer of a failing source.
 */
function failingRepository(plan: SpokePlan, id: ObjectIdentity, rel: number, out: KubeObject[], events: KubeObject[]) {
  const f = SEMANTICS.failingRepository;
  const repo = find(out, "HelmRepository", FLUX_NS, f.name);
  if (!repo) return;
  const url = (repo.spec as { url: string }).url.replace(/\/$/, "");
  const message = `failed to fetch Helm repository index: failed to cache index to temporary file: failed to fetch ${url}/index.yaml : 429 Too Many Requests`;
  const since = plan.epoch + f.since;
  const status = statusOf(repo);
  const stored = `stored artifact: revision '${(status.artifact as { revision: string }).revision}'`;
  const attempts = 1 + Math.floor((rel - f.since) / f.retryEvery);
  const last = since + (attempts - 1) * f.retryEvery;
  status.conditions = [
    condition("Reconciling", "True", "ProgressingWithRetry", "building artifact", since, 1),
    condition("Ready", "False", "Failed", message, since, 1),
    condition("FetchFailed", "True", "Failed", message, since, 1),
    condition(
      "ArtifactInStorage",
      "True",
      "Succeeded",
      stored,
      Date.parse((status.artifact as { lastUpdateTime: string }).lastUpdateTime),
      1,
    ),
  ];
  events.push(
    event({
      id,
      involved: repo,
      reason: "Failed",
      message,
      type: "Warning",
      controller: "source-controller",
      first: since,
      last,
      count: attempts,
    }),
  );
}
