// The huge-message scenario: a `tenants` Kustomization whose health check waits for hundreds of tenant
// Deployments that never become ready (their node group has no room). kustomize-controller lists every
// resource it waited for in one error (fluxcd/pkg ssa WaitForSet: `timeout waiting for: [<Kind>/<ns>/<name>
// status: '<status>', …]`, wrapped as `health check failed after <duration>: …`). The Ready and Healthy
// conditions carry that text trimmed to 32,768 bytes ending in "..." (fluxcd/pkg runtime/conditions);
// the Warning Event carries it untrimmed (core/v1 Events without eventTime have no length limit). The
// list comes from a Go map, so its order differs from one attempt to the next.
import type { KubeObject } from "../contract";
import { FLUX_NS, appliedBy, condition, event, kustomization, type ObjectIdentity } from "./flux";
import { goDuration, unit } from "./random";
import { HOUR, MINUTE, SECOND, TIMELINE } from "./timeline";

/** Tenants, each with a `web` and a `worker` Deployment the health check waits for. */
const TENANT_COUNT = 380;
/** Bytes Flux keeps of a condition message (the last three are "..."). */
const CONDITION_MESSAGE_LIMIT = 32_768;
const HEALTH_TIMEOUT = 10 * MINUTE;
const RETRY_INTERVAL = 5 * MINUTE;
/** An attempt waits for the timeout, fails, and the next starts a retry interval later. */
const ATTEMPT_PERIOD = HEALTH_TIMEOUT + RETRY_INTERVAL;
const EVENT_TTL = HOUR;

const tenant = (i: number) => `tenant-${String(i + 1).padStart(3, "0")}`;

function tenantsInventory(): { id: string; v: string }[] {
  const entries: { id: string; v: string }[] = [];
  for (let i = 0; i < TENANT_COUNT; i++) {
    const ns = tenant(i);
    entries.push({ id: `_${ns}__Namespace`, v: "v1" });
    entries.push({ id: `${ns}_web__Service`, v: "v1" });
    entries.push({ id: `${ns}_web_apps_Deployment`, v: "v1" });
    entries.push({ id: `${ns}_worker_apps_Deployment`, v: "v1" });
  }
  return entries;
}

/** Failure k (0-based) of the health check, relative to t0. */
const failureAt = (k: number) => TIMELINE.tenantsFailingSince + k * ATTEMPT_PERIOD;

function attemptAt(rel: number): number {
  return Math.floor((rel - TIMELINE.tenantsFailingSince) / ATTEMPT_PERIOD);
}

const errorCache = new Map<string, string>();

/** The untrimmed error of attempt k: every waited-for Deployment, in this attempt's (map) order. */
function healthCheckError(cluster: string, k: number): string {
  const key = `${cluster}:${k}`;
  const cached = errorCache.get(key);
  if (cached !== undefined) return cached;
  const entries: { order: number; text: string }[] = [];
  for (let i = 0; i < TENANT_COUNT; i++) {
    for (const name of ["web", "worker"]) {
      const text = `Deployment/${tenant(i)}/${name} status: 'InProgress'`;
      entries.push({ order: unit(`tenants-order:${cluster}:${k}:${text}`), text });
    }
  }
  entries.sort((a, b) => a.order - b.order);
  const took = HEALTH_TIMEOUT + 20 + Math.floor(unit(`tenants-took:${cluster}:${k}`) * 60);
  const message = `health check failed after ${goDuration(took)}: timeout waiting for: [${entries.map((e) => e.text).join(", ")}]`;
  if (errorCache.size > 64) errorCache.clear();
  errorCache.set(key, message);
  return message;
}

/** What Flux stores in a condition: at most 32,768 bytes, the last three "..." (ASCII here: bytes = characters). */
function trimConditionMessage(message: string): string {
  return message.length <= CONDITION_MESSAGE_LIMIT ? message : `${message.slice(0, CONDITION_MESSAGE_LIMIT - 3)}...`;
}

interface TenantsInput {
  id: ObjectIdentity;
  epoch: number;
  t: number;
  /** fleet-infra revision the Kustomization applied (its source is the flux-system GitRepository) */
  revision: string;
}

/** The `tenants` Kustomization at time t (absolute ms) and the Warning Events of its attempts still kept. */
export function tenantsObjects({ id, epoch, t, revision }: TenantsInput): KubeObject[] {
  const rel = t - epoch;
  const since = epoch + failureAt(0);
  const generation = 7;
  const common = {
    id,
    name: "tenants",
    path: "./tenants",
    interval: "30m0s",
    retryInterval: "5m0s",
    timeout: "10m0s",
    wait: true,
    sourceRef: { kind: "GitRepository" as const, name: "flux-system" },
    dependsOn: ["infra-configs"],
    generation,
    lastAppliedRevision: revision,
    lastAttemptedRevision: revision,
    inventory: tenantsInventory(),
    labels: appliedBy(FLUX_NS),
  };
  if (rel < failureAt(0)) {
    // Healthy until the node group ran out of room (the tenants were applied an hour earlier).
    const appliedAt = since - HOUR;
    return [
      kustomization({
        ...common,
        conditions: [
          condition("Ready", "True", "ReconciliationSucceeded", `Applied revision: ${revision}`, appliedAt, generation),
          condition("Healthy", "True", "Succeeded", "Health check passed in 1m12.4s", appliedAt, generation),
        ],
        history: [{ revision, status: "ReconciliationSucceeded", first: appliedAt, last: appliedAt, total: 1, durationMs: 72_400 }],
      }),
    ];
  }
  const k = attemptAt(rel);
  const lastFailure = epoch + failureAt(k);
  const message = trimConditionMessage(healthCheckError(id.cluster, k));
  const ks = kustomization({
    ...common,
    conditions: [
      condition(
        "Reconciling",
        "True",
        "ProgressingWithRetry",
        `Running health checks for revision ${revision} with a timeout of 10m0s`,
        since,
        generation,
      ),
      condition("Ready", "False", "HealthCheckFailed", message, since, generation),
      condition("Healthy", "False", "HealthCheckFailed", message, since, generation),
    ],
    history: [
      {
        revision,
        status: "HealthCheckFailed",
        first: since,
        last: lastFailure,
        total: k + 1,
        durationMs: HEALTH_TIMEOUT + 900,
      },
    ],
  });
  // Each attempt's text differs (the order), so each is an Event of its own; the cluster forgets them after an hour.
  const events: KubeObject[] = [];
  for (let j = k; j >= 0 && t - (epoch + failureAt(j)) <= EVENT_TTL; j--) {
    const at = epoch + failureAt(j);
    events.push(
      event({
        id,
        involved: ks,
        reason: "HealthCheckFailed",
        message: healthCheckError(id.cluster, j),
        type: "Warning",
        controller: "kustomize-controller",
        first: at,
        last: at,
        count: 1,
        revision,
      }),
    );
  }
  return [ks, ...events];
}

/** Instants (relative to t0, within `horizon`) at which the scenario's objects or Events change. */
export function tenantsChangeTimes(horizon = 2 * 24 * HOUR): number[] {
  const times: number[] = [];
  for (let k = 0; failureAt(k) <= horizon; k++) times.push(failureAt(k), failureAt(k) + EVENT_TTL + SECOND);
  return times.sort((a, b) => a - b);
}
