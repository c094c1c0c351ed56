// Status semantics: the one place that decides an object's health. The collector stores the part that
// depends only on the object (health at collection time); pages add what depends on the clock and on
// the cluster (stale, unknown) when they read.

export const STORED_HEALTHS = ["ready", "failing", "progressing", "suspended", "stalled"] as const;
export type StoredHealth = (typeof STORED_HEALTHS)[number];
export const HEALTHS = [...STORED_HEALTHS, "stale", "unknown"] as const;
export type Health = (typeof HEALTHS)[number];

/** A health read back as text: a value this version does not know reads as "unknown", never as a guess. */
export function parseHealth(value: string | null | undefined): Health {
  return HEALTHS.find((h) => h === value) ?? "unknown";
}

export interface ConditionLike {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface ObjectStatusInput {
  suspended: boolean;
  conditions: ConditionLike[];
  generation?: number | null;
  observedGeneration?: number | null;
}

const find = (conditions: ConditionLike[], type: string) => conditions.find((c) => c.type === type);

/** Health from the object alone, as Flux's conditions describe it (kstatus-like). */
export function healthFromConditions(input: ObjectStatusInput): StoredHealth {
  if (input.suspended) return "suspended";
  const stalled = find(input.conditions, "Stalled");
  if (stalled?.status === "True") return "stalled";
  const ready = find(input.conditions, "Ready");
  if (ready?.status === "False") return "failing";
  if (ready?.status === "True") {
    // A spec change the controller has not seen yet: the Ready verdict is about the old spec.
    const { generation, observedGeneration } = input;
    if (generation != null && observedGeneration != null && observedGeneration < generation) return "progressing";
    return "ready";
  }
  return "progressing";
}

/** Extra time beyond two intervals before an object counts as stale (controller restarts, jitter). */
export const STALE_MARGIN_SECONDS = 300;

/**
 * Kinds whose status says when they were last reconciled: a Kustomization's status.history records
 * every reconciliation (lastReconciled). HelmReleases and sources only move their condition times when
 * something changes, so a quiet healthy one would look stale; they are never called stale.
 */
export const STALE_KINDS: readonly string[] = ["Kustomization"];

export interface EffectiveHealthInput {
  stored: StoredHealth;
  /** spec.interval in seconds, when known. */
  intervalSeconds?: number | null;
  /** When the controller last reconciled the object, when known. */
  lastReconcileAt?: Date | string | null;
  /** The object's kind: only STALE_KINDS can be stale (when given). */
  kind?: string;
  /** False when the last poll of the cluster failed: what we show is the last known state. */
  clusterReachable: boolean;
  now: Date;
}

/** Health as a page shows it now. */
export function effectiveHealth(input: EffectiveHealthInput): Health {
  if (!input.clusterReachable) return "unknown";
  if (input.stored !== "ready" && input.stored !== "progressing") return input.stored;
  if (input.intervalSeconds && input.lastReconcileAt && (!input.kind || STALE_KINDS.includes(input.kind))) {
    const last = new Date(input.lastReconcileAt).getTime();
    const limitMs = (2 * input.intervalSeconds + STALE_MARGIN_SECONDS) * 1000;
    if (input.now.getTime() - last > limitMs) return "stale";
  }
  return input.stored;
}

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
export const HEALTH_ORDER: readonly Health[] = ["stalled", "failing", "stale", "unknown", "progressing", "suspended", "ready"];

export function healthRank(health: Health): number {
  return HEALTH_ORDER.indexOf(health);
}

export type Reachability = "reachable" | "unreachable" | "pending" | "gone";

export interface ReachabilityInput {
  lifecycle?: string | null;
  lastSuccessAt?: Date | string | null;
  lastErrorAt?: Date | string | null;
}

/**
 * Whether the last poll of a cluster worked. "pending" is a cluster discovered but not yet polled;
 * "gone" one that discovery no longer finds (its history stays).
 */
export function clusterReachability(c: ReachabilityInput): Reachability {
  if (c.lifecycle === "gone") return "gone";
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
