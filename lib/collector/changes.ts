// Change detection, pure: given what we stored for a cluster and what a poll found, decide which rows to
// write. Nothing is written for an object whose content hash did not change; history gets a row only when
// something changed that a person would call a change (see isChange).
import { keptObject } from "../db/kept-object";
import type { KnownObject, ObjectPlan } from "../db/types";
import { normaliseMessage } from "../fleet/normalise";
import { effectiveHealth, reconcileInProgress } from "../fleet/status";
import { caredFields, contentHash, objectKey, type CaredFields } from "../kube/flux";
import type { CollectedKind, FluxObjectRecord } from "../kube/types";

/** Live objects per kind and stored health: what the fleet overview shows per cluster. */
export function healthCounts(known: Map<string, KnownObject>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const k of known.values()) {
    if (k.deleted) continue;
    const byHealth = (out[k.kind] ??= {});
    byHealth[k.cared.health] = (byHealth[k.cared.health] ?? 0) + 1;
  }
  return out;
}

const FAILING = new Set(["failing", "stalled"]);

/**
 * Names of the cared-about fields that differ, grouped the way history shows them. Messages are compared
 * through the failure grouping's normaliser: a retry whose message differs only in a temporary directory
 * number, a duration or a pod hash is the same message.
 */
export function changedFields(before: CaredFields, after: CaredFields): string[] {
  const out: string[] = [];
  if (before.health !== after.health) out.push("health");
  // A routine reconcile flips Ready to Unknown and back while the object stays ready: not a new status.
  const routine =
    before.health === "ready" &&
    after.health === "ready" &&
    (before.healthDetail === "reconciling" || after.healthDetail === "reconciling");
  if (before.readyStatus !== after.readyStatus && !routine) out.push("status");
  if (before.readyReason !== after.readyReason) out.push("reason");
  if (before.readyMessage !== after.readyMessage && normaliseMessage(before.readyMessage) !== normaliseMessage(after.readyMessage)) {
    out.push("message");
  }
  if (before.attemptedRevision !== after.attemptedRevision || before.appliedRevision !== after.appliedRevision) out.push("revision");
  if (before.chartVersion !== after.chartVersion || before.appVersion !== after.appVersion) out.push("chart");
  if (before.suspended !== after.suspended) out.push("suspend");
  if ((before.healthDetail === "drifted") !== (after.healthDetail === "drifted")) out.push("drift");
  return out;
}

/**
 * Whether changed fields make a history entry: a new health, a new revision or chart, suspend and
 * resume, drift found or gone. A new reason or message counts only while the object is in trouble (a
 * different error is news); a healthy object rewording its Ready message ("Helm upgrade succeeded for
 * release …v5") is not a change anyone would look for.
 */
export function isChange(fields: string[], after: CaredFields): boolean {
  if (fields.some((f) => f === "health" || f === "status" || f === "revision" || f === "chart" || f === "suspend" || f === "drift")) {
    return true;
  }
  return after.health !== "ready" && after.health !== "suspended" && (fields.includes("reason") || fields.includes("message"));
}

/**
 * When a change happened, from the object's own timestamps where they are exact: a Ready status flip
 * carries its lastTransitionTime; a new reconcile result carries the reconcile time. Otherwise the poll time.
 */
export function transitionTime(fields: string[], record: FluxObjectRecord, previousReconcileAt: string | null, pollTime: string): string {
  if (fields.includes("status")) {
    const ready = record.conditions.find((c) => c.type === "Ready");
    const t = ready?.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : NaN;
    if (!Number.isNaN(t)) return new Date(t).toISOString();
  }
  if (!fields.includes("suspend") && record.lastReconcileAt && (!previousReconcileAt || record.lastReconcileAt > previousReconcileAt)) {
    return record.lastReconcileAt;
  }
  return pollTime;
}

/**
 * Plans the writes for one poll of one cluster. `listedKinds` are the kinds whose LIST succeeded: objects
 * of other kinds are never marked deleted (a failed LIST is not an empty one).
 */
export function planObjectWrites(
  known: ReadonlyMap<string, KnownObject>,
  current: FluxObjectRecord[],
  listedKinds: ReadonlySet<CollectedKind>,
  pollTime: string,
  /** The cluster's first poll (nothing stored for it yet): what it holds existed before we looked. */
  firstPoll = known.size === 0,
): ObjectPlan {
  const plan: ObjectPlan = { upserts: [], transitions: [], deletions: [] };
  const seen = new Set<string>();
  for (const listed of current) {
    const key = objectKey(listed);
    if (seen.has(key)) continue;
    seen.add(key);
    const before = known.get(key);
    const record = withSettledReady(listed, before);
    // The JSON is made once: hashed here, and sent as the row when the object is written.
    const json = JSON.stringify(record);
    const hash = contentHash(json);
    if (before && !before.deleted && before.hash === hash) continue;
    const cared = caredFields(record);
    const isReady = record.health === "ready";
    if (!before || before.deleted) {
      const at = pollTime;
      plan.upserts.push({
        key,
        record,
        json,
        hash,
        firstFailedAt: FAILING.has(record.health) ? (failingSince(record) ?? at) : null,
        lastReadyAt: isReady ? at : (before?.lastReadyAt ?? null),
        lastGoodRevision: isReady && record.appliedRevision ? record.appliedRevision : (before?.lastGoodRevision ?? null),
      });
      // The first poll of a cluster meets objects that existed long before: "first seen", not "created".
      const created = !firstPoll || before?.deleted === true;
      plan.transitions.push({
        key,
        // A creation between two polls happened when the object says it did.
        at: created ? creationTime(record, pollTime) : at,
        change: created ? "created" : "first-seen",
        fields: [created ? "created" : "first-seen"],
        previousHealth: before ? before.cared.health : null,
        cared,
      });
      continue;
    }
    const fields = changedFields(before.cared, cared);
    const at = fields.length ? transitionTime(fields, record, before.lastReconcileAt, pollTime) : pollTime;
    const wasReady = before.cared.health === "ready";
    let firstFailedAt = before.firstFailedAt;
    if (FAILING.has(record.health)) firstFailedAt ??= at;
    else if (isReady) firstFailedAt = null;
    const lastReadyAt = fields.includes("health") && (isReady || wasReady) ? at : before.lastReadyAt;
    plan.upserts.push({
      key,
      record,
      json,
      hash,
      firstFailedAt,
      lastReadyAt,
      lastGoodRevision: isReady && record.appliedRevision ? record.appliedRevision : before.lastGoodRevision,
    });
    if (isChange(fields, cared)) plan.transitions.push({ key, at, change: "changed", fields, previousHealth: before.cared.health, cared });
  }
  for (const [key, before] of known) {
    if (before.deleted || seen.has(key) || !listedKinds.has(before.kind as CollectedKind)) continue;
    plan.deletions.push(key);
    plan.transitions.push({
      key,
      at: pollTime,
      change: "deleted",
      fields: ["deleted"],
      previousHealth: before.cared.health,
      cared: before.cared,
    });
  }
  return plan;
}

/**
 * A Kustomization's reconcile in progress of the revision it was last seen settled on keeps that verdict.
 * A failing one's retry ("failing · retrying") keeps the Ready status, reason and message of the failure it
 * retries: Ready reads "Reconciliation in progress" until the retry ends, and the failure is what a person
 * needs meanwhile (and what the retry's result is compared with). Where status.history cannot say how the
 * last reconcile of that revision ended, what was stored before says it: ready stays ready ("reconciling"),
 * failing stays failing ("retrying"). History is silent before kustomize-controller v1.5 (it keeps none),
 * and about a revision whose build failed (history is keyed by the built manifests' digest). The
 * conditions stay as listed.
 */
export function withSettledReady(record: FluxObjectRecord, before: KnownObject | undefined): FluxObjectRecord {
  if (!before || before.deleted || before.cared.attemptedRevision !== record.attemptedRevision) return record;
  const settled = before.cared.health;
  if (record.health === "progressing" && before.cared.appliedRevision === record.appliedRevision) {
    const revision = reconcileInProgress(record);
    if (!revision || revision !== record.attemptedRevision || historySpeaksFor(record, revision)) return record;
    const observed = record.generation == null || record.observedGeneration === record.generation;
    if (settled === "ready" && revision === record.appliedRevision && observed)
      return { ...record, health: "ready", healthDetail: "reconciling" };
    if (settled !== "failing") return record;
    record = { ...record, health: "failing", healthDetail: "retrying" };
  }
  if (record.healthDetail !== "retrying" || settled !== "failing") return record;
  const { readyStatus, readyReason, readyMessage } = before.cared;
  return { ...record, readyStatus, readyReason, readyMessage };
}

/** Whether status.history[0] records a reconcile of `revision` (then the object alone decided its health). */
function historySpeaksFor(record: FluxObjectRecord, revision: string): boolean {
  const first = record.history?.[0] as { metadata?: { revision?: unknown } } | undefined;
  return first?.metadata?.revision === revision;
}

/**
 * Whether a plan changes what the fleet's pages show — a history row, an object added or gone, a new health,
 * drift found or gone, a stale object reconciled again — or only rewrites objects the way a routine
 * reconcile does (its last reconcile time, its conditions, "reconciling" beside "ready"). Only the former
 * is worth telling every open page about: in a real fleet every cluster rewrites an object every few
 * seconds. Call it before applyPlan (it compares with what was stored).
 */
export function changesWhatPagesShow(plan: ObjectPlan, known: ReadonlyMap<string, KnownObject>, now: Date): boolean {
  if (plan.transitions.length || plan.deletions.length) return true;
  return plan.upserts.some(({ key, record }) => showsOnPages(record, known.get(key), now));
}

/** Whether writing `record` over what was stored (`before`) changes what pages list (see changesWhatPagesShow). */
export function showsOnPages(record: FluxObjectRecord, before: KnownObject | undefined, now: Date): boolean {
  if (!before || before.deleted || before.cared.health !== record.health) return true;
  if ((before.cared.healthDetail === "drifted") !== (record.healthDetail === "drifted")) return true;
  const cared = caredFields(record);
  if (isChange(changedFields(before.cared, cared), cared)) return true;
  const wasStale =
    effectiveHealth({
      stored: record.health,
      kind: record.kind,
      intervalSeconds: record.intervalSeconds,
      lastReconcileAt: before.lastReconcileAt,
      clusterReachable: true,
      now,
    }) === "stale";
  return wasStale && record.lastReconcileAt !== before.lastReconcileAt;
}

/** metadata.creationTimestamp when it is a sane time not after the poll; the poll time otherwise. */
function creationTime(record: FluxObjectRecord, pollTime: string): string {
  return record.creationTimestamp && record.creationTimestamp <= pollTime ? record.creationTimestamp : pollTime;
}

/** For an object first seen failing: when its Ready condition went False, if it says. */
function failingSince(record: FluxObjectRecord): string | null {
  const ready = record.conditions.find((c) => c.type === "Ready" && c.status === "False");
  const t = ready?.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : NaN;
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** The in-memory view after a plan was written (ids of new rows come from the database). */
export function applyPlan(known: Map<string, KnownObject>, plan: ObjectPlan, ids: ReadonlyMap<string, string>): void {
  for (const u of plan.upserts) {
    const id = ids.get(u.key) ?? known.get(u.key)?.id;
    if (!id) continue;
    known.set(u.key, keptObject(id, u.record.kind, u.hash, caredFields(u.record), { ...u, lastReconcileAt: u.record.lastReconcileAt }));
  }
  for (const key of plan.deletions) {
    const k = known.get(key);
    if (k) known.set(key, { ...k, deleted: true });
  }
}

/**
 * Plans the writes for what a watch delivered since the last flush: the latest state of each object that
 * changed (bursts on one object were coalesced to the last one) and the keys deleted. Objects not named
 * are left alone, and an event that changes nothing stored (a replay after a resume, a status heartbeat)
 * plans nothing: the content hash decides, as for a poll.
 */
export function planWatchedChanges(
  known: ReadonlyMap<string, KnownObject>,
  changed: FluxObjectRecord[],
  deletedKeys: readonly string[],
  at: string,
  firstPoll = false,
): ObjectPlan {
  const plan = planObjectWrites(known, changed, new Set(), at, firstPoll);
  const present = new Set(changed.map(objectKey));
  for (const key of deletedKeys) {
    const before = known.get(key);
    if (!before || before.deleted || present.has(key)) continue;
    plan.deletions.push(key);
    plan.transitions.push({ key, at, change: "deleted", fields: ["deleted"], previousHealth: before.cared.health, cared: before.cared });
  }
  return plan;
}
