// Status semantics: the one place that decides an object's health. The collector stores the part that
// depends only on the object (health at collection time); pages add what depends on the clock and on
// the cluster (stale, unclaimed, unknown) when they read.

/**
 * Health from the object alone. "new": created, but its controller has written nothing yet (the CRD's
 * default `status: {observedGeneration: -1}`, no conditions).
 */
export const STORED_HEALTHS = ["ready", "failing", "progressing", "suspended", "stalled", "new"] as const;
export type StoredHealth = (typeof STORED_HEALTHS)[number];
/**
 * Plus what depends on the clock or the cluster: "stale" (no reconcile for 2 × interval + margin),
 * "unclaimed" (still new UNCLAIMED_AFTER_SECONDS after creation: no controller picked it up) and
 * "unknown" (cluster unreachable: the last known state is shown beside it).
 */
export const HEALTHS = [...STORED_HEALTHS, "stale", "unclaimed", "unknown"] as const;
export type Health = (typeof HEALTHS)[number];

/**
 * Why an object reads differently from its health alone: "static" (an OCI HelmRepository, which
 * source-controller no longer reconciles: `status: {}` forever), "drifted" (Ready, but helm-controller found
 * the cluster differing from the release: Drifted=True), "reconciling" (a Kustomization's routine reconcile
 * of the revision it applied is running: see routineReconcile; still ready) or "retrying" (a failing
 * Kustomization's retry of the revision that failed is running: see retryReconcile; still failing).
 */
export const HEALTH_DETAILS = ["static", "drifted", "reconciling", "retrying"] as const;
export type HealthDetail = (typeof HEALTH_DETAILS)[number];

/** A health read back as text: a value this version does not know reads as "unknown", never as a guess. */
export function parseHealth(value: string | null | undefined): Health {
  return HEALTHS.find((h) => h === value) ?? "unknown";
}

export function parseHealthDetail(value: string | null | undefined): HealthDetail | null {
  return HEALTH_DETAILS.find((d) => d === value) ?? null;
}

export interface ConditionLike {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface ObjectStatusInput {
  kind?: string;
  suspended: boolean;
  conditions: ConditionLike[];
  generation?: number | null;
  observedGeneration?: number | null;
  /**
   * The keys of `status` that hold a value (an empty list for `status: {}`); null when the object has
   * no status at all. Needed to tell "never reconciled" from "reconciled, nothing to say".
   */
  statusKeys?: readonly string[] | null;
  /** spec.type of a HelmRepository ("oci" or "default"). */
  sourceType?: string | null;
  /** A Kustomization's status.lastAppliedRevision and status.lastAttemptedRevision. */
  appliedRevision?: string | null;
  attemptedRevision?: string | null;
  /** A Kustomization's last finished reconcile (status.history[0]): its result and the revision it was of. */
  lastResult?: { status: string | null; revision: string | null } | null;
}

export interface ObjectVerdict {
  health: StoredHealth;
  detail: HealthDetail | null;
}

const find = (conditions: ConditionLike[], type: string) => conditions.find((c) => c.type === type);

/** The revision a kustomize-controller reconcile is working on, from its Reconciling message. */
const ATTEMPTED_REVISION =
  /^(?:Fetching manifests|Building manifests|Detecting drift|Running health checks) for revision (\S+) with a timeout of /;

/**
 * Whether a Kustomization's Ready=Unknown is its routine reconcile: kustomize-controller marks Ready
 * Unknown ("Reconciliation in progress") at the start of every reconcile, every spec.interval, and Ready
 * True again at its end. When that reconcile is of the revision already applied, for the generation
 * already observed, and the last one of that revision succeeded, nothing a person cares about changed:
 * the object still runs what it ran. A new revision, a new spec or a retry after a failure is not routine.
 */
export function routineReconcile(input: ObjectStatusInput): boolean {
  const revision = reconcileInProgress(input);
  if (!revision || revision !== input.appliedRevision) return false;
  if (input.lastResult?.status !== "ReconciliationSucceeded" || input.lastResult.revision !== revision) return false;
  const { generation, observedGeneration } = input;
  return generation == null || observedGeneration === generation;
}

/** Results kustomize-controller records in status.history when a reconcile of a revision fails. */
const FAILED_RESULTS = new Set(["ReconciliationFailed", "HealthCheckFailed", "PruneFailed"]);

/**
 * Whether a Kustomization's Ready=Unknown is its retry of the revision that just failed (every
 * retryInterval, the same flip as a routine reconcile): the last result of that revision stands, a failure,
 * until the retry ends. A new revision (the fix, perhaps) is not a retry.
 */
export function retryReconcile(input: ObjectStatusInput): boolean {
  const revision = reconcileInProgress(input);
  if (!revision || revision !== input.attemptedRevision) return false;
  return FAILED_RESULTS.has(input.lastResult?.status ?? "") && input.lastResult?.revision === revision;
}

/** The revision a Kustomization's reconcile in progress is of (Ready Unknown, Reconciling True); null otherwise. */
export function reconcileInProgress(input: Pick<ObjectStatusInput, "kind" | "conditions">): string | null {
  if (input.kind !== "Kustomization") return null;
  const ready = find(input.conditions, "Ready");
  if (ready?.status !== "Unknown" || ready.reason !== "Progressing") return null;
  const reconciling = find(input.conditions, "Reconciling");
  if (reconciling?.status !== "True") return null;
  return ATTEMPTED_REVISION.exec(reconciling.message ?? "")?.[1] ?? null;
}

/** Whether the controller has written nothing: the CRD default (observedGeneration -1) or an empty status. */
function neverReconciled(input: ObjectStatusInput): boolean {
  if (input.conditions.length) return false;
  const keys = input.statusKeys ?? [];
  if (keys.some((k) => k !== "observedGeneration")) return false;
  const og = input.observedGeneration;
  return og == null || og <= 0;
}

/**
 * The verdict on one object, from what its controller wrote (kstatus-like), for Flux objects as the
 * controllers really leave them: an OCI HelmRepository ends at `status: {}` and is healthy; an object no
 * controller has touched reads `status: {observedGeneration: -1}` and is new, never "progressing".
 */
export function objectVerdict(input: ObjectStatusInput): ObjectVerdict {
  if (input.suspended) return { health: "suspended", detail: null };
  const stalled = find(input.conditions, "Stalled");
  if (stalled?.status === "True") return { health: "stalled", detail: null };
  const ready = find(input.conditions, "Ready");
  if (ready?.status === "False") return { health: "failing", detail: null };
  if (ready?.status === "True") {
    // A spec change the controller has not seen yet: the Ready verdict is about the old spec.
    const { generation, observedGeneration } = input;
    if (generation != null && observedGeneration != null && observedGeneration > 0 && observedGeneration < generation) {
      return { health: "progressing", detail: null };
    }
    const drifted = find(input.conditions, "Drifted")?.status === "True";
    return { health: "ready", detail: drifted ? "drifted" : null };
  }
  if (!ready) {
    const isStatic =
      input.kind === "HelmRepository" &&
      input.sourceType === "oci" &&
      input.conditions.length === 0 &&
      input.statusKeys != null &&
      input.statusKeys.length === 0;
    if (isStatic) return { health: "ready", detail: "static" };
    if (neverReconciled(input)) return { health: "new", detail: null };
  }
  if (routineReconcile(input)) return { health: "ready", detail: "reconciling" };
  if (retryReconcile(input)) return { health: "failing", detail: "retrying" };
  return { health: "progressing", detail: null };
}

/** Extra time beyond two intervals before an object counts as stale (controller restarts, jitter). */
export const STALE_MARGIN_SECONDS = 300;

/**
 * Kinds whose status says when they were last reconciled: a Kustomization's status.history records
 * every reconciliation (lastReconciled). HelmReleases and sources only move their condition times when
 * something changes, so a quiet healthy one would look stale; they are never called stale.
 */
export const STALE_KINDS: readonly string[] = ["Kustomization"];

/**
 * How long a new object may wait for its controller before it counts as a problem ("unclaimed": not
 * picked up by its controller). A running controller writes its first conditions within seconds; ten
 * minutes leaves room for a controller restart or a long work queue. Documented in README (health).
 */
export const UNCLAIMED_AFTER_SECONDS = 600;

export interface EffectiveHealthInput {
  stored: StoredHealth;
  /** spec.interval in seconds, when known. */
  intervalSeconds?: number | null;
  /** When the controller last reconciled the object, when known. */
  lastReconcileAt?: Date | string | null;
  /** The object's kind: only STALE_KINDS can be stale (when given). */
  kind?: string;
  /** metadata.creationTimestamp (our first-seen time when unknown): how long a new object has waited. */
  createdAt?: Date | string | null;
  /** False when the last poll of the cluster failed: what we show is the last known state. */
  clusterReachable: boolean;
  now: Date;
}

/** Health as a page shows it now. */
export function effectiveHealth(input: EffectiveHealthInput): Health {
  if (!input.clusterReachable) return "unknown";
  if (input.stored === "new") {
    const waited = unclaimedForSeconds("new", input.createdAt, input.now);
    return waited != null && waited > UNCLAIMED_AFTER_SECONDS ? "unclaimed" : "new";
  }
  if (input.stored !== "ready" && input.stored !== "progressing") return input.stored;
  if (input.intervalSeconds && input.lastReconcileAt && (!input.kind || STALE_KINDS.includes(input.kind))) {
    const last = new Date(input.lastReconcileAt).getTime();
    const limitMs = (2 * input.intervalSeconds + STALE_MARGIN_SECONDS) * 1000;
    if (input.now.getTime() - last > limitMs) return "stale";
  }
  return input.stored;
}

/** Seconds a new (or unclaimed) object has been waiting for its controller; null for any other health. */
export function unclaimedForSeconds(health: Health, createdAt: Date | string | null | undefined, now: Date): number | null {
  if ((health !== "new" && health !== "unclaimed") || !createdAt) return null;
  const t = new Date(createdAt).getTime();
  return Number.isNaN(t) ? null : Math.max(0, Math.floor((now.getTime() - t) / 1000));
}

/** The problems a page counts: what a person must act on (drift, new and static objects are not). */
export const PROBLEM_HEALTHS: readonly Health[] = ["stalled", "failing", "unclaimed", "stale"];

/** Parses Go durations as Flux writes them ("10m", "1h30m", "45s", "2.5s") into seconds. */
export function parseGoDuration(text: string | null | undefined): number | null {
  if (!text) return null;
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g;
  let total = 0;
  let consumed = 0;
  for (const m of text.matchAll(re)) {
    const n = Number(m[1]);
    const unit = m[2];
    total += unit === "h" ? n * 3600 : unit === "m" ? n * 60 : unit === "s" ? n : unit === "ms" ? n / 1000 : n / 1e6;
    consumed += m[0].length;
  }
  return consumed === text.length && consumed > 0 ? total : null;
}

/** Worst first: the order health is sorted and summarised in. */
export const HEALTH_ORDER: readonly Health[] = [
  "stalled",
  "failing",
  "unclaimed",
  "stale",
  "unknown",
  "progressing",
  "new",
  "suspended",
  "ready",
];

export function healthRank(health: Health): number {
  return HEALTH_ORDER.indexOf(health);
}

export type Reachability = "reachable" | "unreachable" | "pending" | "provisioning" | "gone";

export interface ReachabilityInput {
  lifecycle?: string | null;
  lastSuccessAt?: Date | string | null;
  lastErrorAt?: Date | string | null;
  /** Crossplane is creating the cluster (or failed to), so there is no kubeconfig to reach it with yet. */
  provisioning?: string | null;
}

/**
 * Whether the last poll of a cluster worked. "pending" is a cluster discovered but not yet polled;
 * "provisioning" one Crossplane is still creating (nothing to reach yet: neither up nor down);
 * "gone" one that discovery no longer finds (its history stays).
 */
export function clusterReachability(c: ReachabilityInput): Reachability {
  if (c.lifecycle === "gone") return "gone";
  if (c.provisioning) return "provisioning";
  const ok = c.lastSuccessAt ? new Date(c.lastSuccessAt).getTime() : null;
  const err = c.lastErrorAt ? new Date(c.lastErrorAt).getTime() : null;
  if (ok == null) return err == null ? "pending" : "unreachable";
  if (err != null && err > ok) return "unreachable";
  return "reachable";
}

/** Pages treat a pending cluster as reachable (nothing is known yet, nothing is stale). */
export function isReachable(r: Reachability): boolean {
  return r === "reachable" || r === "pending";
}

/** Seconds an object has been failing, or null when it is not failing or the start is unknown. */
export function failingForSeconds(health: Health, firstFailedAt: Date | string | null | undefined, now: Date): number | null {
  if (!firstFailedAt || (health !== "failing" && health !== "stalled" && health !== "unknown")) return null;
  return Math.max(0, Math.floor((now.getTime() - new Date(firstFailedAt).getTime()) / 1000));
}
