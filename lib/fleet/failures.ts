// Failures across the fleet, grouped by cause: kind + health + reason + normalised message, so "the same
// error in 37 clusters" is one row. Objects no controller picked up ("unclaimed") are problems too; drift
// is grouped the same way when asked for, and never counts as a failure. A failure that only waits on another object (DependencyNotReady, a
// source that is not ready) points to the object at the end of that chain, its root cause; groups whose
// members all wait on another group are nested under it as followers.
import { isFluxKind } from "./kinds";
import { normaliseMessage } from "./normalise";
import { failingForSeconds, unclaimedForSeconds, type Health, type HealthDetail, type StoredHealth } from "./status";
import { clusterPath, objectPath } from "./urls";

export interface ObjectRef {
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
}

export interface ProblemObjectInput extends ObjectRef {
  /** Health as shown now (effectiveHealth). */
  health: Health;
  /** Health at the last successful poll. */
  storedHealth: StoredHealth;
  healthDetail?: HealthDetail | null;
  /** metadata.creationTimestamp (or first seen): the start of an unclaimed object's wait. */
  createdAt?: string | null;
  /** The Drifted condition's message, for drifted objects. */
  driftMessage?: string | null;
  readyReason: string | null;
  readyMessage: string | null;
  stalledReason?: string | null;
  stalledMessage?: string | null;
  /** A HelmRelease's Released condition when it is False: the cause behind a remediation's Ready message. */
  releasedReason?: string | null;
  releasedMessage?: string | null;
  firstFailedAt: string | null;
  lastReconcileAt?: string | null;
  dependsOn?: Array<{ namespace?: string | null; name: string }>;
  source?: { kind: string; namespace: string; name: string } | null;
  /** The cluster a hub object applies to (spec.kubeConfig), when it is another one. */
  appliesTo?: string | null;
}

/**
 * A Crossplane resource that failed (lib/fleet/provisioning.ts): Synced False, Ready False for another
 * reason than Creating, or a failed async operation. `createFailed`: the cluster it provisions never came up.
 */
export interface CrossplaneProblemInput {
  /** The cluster the resource provisions. */
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
  reason: string | null;
  message: string | null;
  since: string | null;
  createFailed: boolean;
}

export interface UnreachableClusterInput {
  cluster: string;
  lastError: string | null;
  lastErrorKind: string | null;
  lastErrorAt: string | null;
  lastSuccessAt: string | null;
  /** When it was first seen: the start of trouble for a cluster never reached. */
  firstSeenAt?: string | null;
}

/**
 * "create-failed": Crossplane failed to create the cluster; "crossplane": a Crossplane resource of a cluster that exists failing;
 * "unclaimed": no controller picked the object up; "drifted": a ready object whose live state drifted (not a failure).
 */
export type ProblemKind = "failing" | "stalled" | "stale" | "unclaimed" | "drifted" | "unreachable" | "create-failed" | "crossplane";
type ObjectProblem = Exclude<ProblemKind, "unreachable" | "create-failed" | "crossplane">;

export interface FailureMember extends ObjectRef {
  url: string;
  /** Health shown now ("unknown" when the cluster is unreachable). */
  health: Health;
  /** What the failure is about: the last known problem. */
  problem: ProblemKind;
  reason: string;
  message: string;
  firstFailedAt: string | null;
  failingForSeconds: number | null;
  rootCause: (ObjectRef & { url: string; health: Health }) | null;
  /** The cluster a hub object applies to (spec.kubeConfig, an Application's destination), when another one. */
  appliesTo?: string | null;
}

export interface GroupFailuresExtra {
  /** Failed Crossplane resources, one problem each. */
  crossplane?: CrossplaneProblemInput[];
  /** Crossplane problems left out by a filter still serve as root causes; they just form no group. */
  includeCrossplane?: (c: CrossplaneProblemInput) => boolean;
  /** Clusters Crossplane is creating: objects that apply to them wait on them. */
  provisioning?: Map<string, "creating" | "failed">;
}

export interface FailureGroup {
  id: string;
  kind: string;
  problem: ProblemKind;
  reason: string;
  /** The message with revisions, durations, numbers... replaced by placeholders. */
  pattern: string;
  /** One real message (from the longest-failing member). */
  message: string;
  clusterCount: number;
  objectCount: number;
  firstFailedAt: string | null;
  longestFailingSeconds: number | null;
  members: FailureMember[];
  /** Ids of the groups holding the root causes of this group's members. */
  causedBy: string[];
  followers: FailureGroup[];
}

const STALE_MESSAGE = "No reconcile for more than twice the interval";
const UNCLAIMED_REASON = "NotReconciled";

const refKey = (r: { cluster: string; kind: string; namespace: string; name: string }) =>
  `${r.cluster}\u0000${r.kind.toLowerCase()}\u0000${r.namespace}\u0000${r.name}`;

/** FNV-1a: a short stable id for a group key, the same in the server and the browser. */
export function stableId(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/**
 * Which problem, if any, an object shows. Objects in unreachable clusters count by their last known state.
 * "drifted" is a ready object whose live state differs from its release: listed when asked for, not a failure.
 */
export function problemOf(o: Pick<ProblemObjectInput, "health" | "storedHealth" | "healthDetail">): ObjectProblem | null {
  if (o.health === "failing" || o.health === "stalled" || o.health === "stale" || o.health === "unclaimed") return o.health;
  if (o.health === "unknown" && (o.storedHealth === "failing" || o.storedHealth === "stalled")) return o.storedHealth;
  if (o.health === "ready" && o.healthDetail === "drifted") return "drifted";
  return null;
}

/**
 * What an unclaimed object's failure group says; how long each one has waited is beside it (a message that
 * changed every minute would make every open /failures page reload every minute).
 */
export const UNCLAIMED_MESSAGE = "Not picked up by its controller: no status written since it was created";

const DEPENDENCY_RE = /dependency '([^'/]+)\/([^']+)'/;
const SOURCE_RE = /\b([A-Z][A-Za-z]+) '([^'/]+)\/([^']+)' is not ready/;

/** The object a failure says it waits for, when it says so. Pure text + spec, no lookups. */
export function waitsOn(o: ProblemObjectInput): ObjectRef | null {
  const reason = o.readyReason ?? "";
  const message = o.readyMessage ?? "";
  if (reason === "DependencyNotReady") {
    const m = DEPENDENCY_RE.exec(message);
    if (m) return { cluster: o.cluster, kind: o.kind, namespace: m[1], name: m[2] };
    const dep = o.dependsOn?.[0];
    if (dep) return { cluster: o.cluster, kind: o.kind, namespace: dep.namespace || o.namespace, name: dep.name };
    return null;
  }
  const sourceNamed = SOURCE_RE.exec(message);
  if (sourceNamed && isFluxKind(sourceNamed[1])) {
    return { cluster: o.cluster, kind: sourceNamed[1], namespace: sourceNamed[2], name: sourceNamed[3] };
  }
  const sourceProblem =
    reason === "SourceNotReady" || (reason === "ArtifactFailed" && /source (?:is )?not ready|artifact not found/i.test(message));
  if (sourceProblem && o.source) return { cluster: o.cluster, ...o.source };
  return null;
}

/**
 * Follows "waits on" links to the object at the end of the chain. Returns null when the object is its
 * own root cause: nothing named, the named object is not known, or it is not in trouble itself.
 */
export function findRootCause(o: ProblemObjectInput, byKey: Map<string, ProblemObjectInput>): ProblemObjectInput | null {
  let current = o;
  let root: ProblemObjectInput | null = null;
  const seen = new Set([refKey(o)]);
  for (let depth = 0; depth < 20; depth++) {
    const next = waitsOn(current);
    if (!next) break;
    const target = byKey.get(refKey(next));
    if (!target || target.health === "ready" || target.health === "suspended" || seen.has(refKey(target))) break;
    seen.add(refKey(target));
    root = target;
    current = target;
  }
  return root;
}

/**
 * Ready reasons helm-controller writes after a remediation worked: Ready says the rollback (or uninstall)
 * succeeded, while the failure a person must fix is in Released (UpgradeFailed, InstallFailed).
 */
const REMEDIATION_REASONS: readonly string[] = ["RollbackSucceeded", "UninstallSucceeded"];

/** The reason and message that explain a failing object: Released's for a remediated HelmRelease, else Ready's. */
function failureCause(o: ProblemObjectInput): { reason: string | null; message: string | null } {
  if (o.readyReason && REMEDIATION_REASONS.includes(o.readyReason) && o.releasedMessage) {
    return { reason: o.releasedReason || o.readyReason, message: o.releasedMessage };
  }
  return { reason: o.readyReason, message: o.readyMessage };
}

function describe(o: ProblemObjectInput, problem: ObjectProblem): { reason: string; message: string } {
  if (problem === "stale") return { reason: "Stale", message: STALE_MESSAGE };
  if (problem === "unclaimed") return { reason: UNCLAIMED_REASON, message: UNCLAIMED_MESSAGE };
  if (problem === "drifted") return { reason: "DriftDetected", message: o.driftMessage || "Drifted from the desired state" };
  if (problem === "stalled") {
    // Stalled objects explain themselves in Ready; the Stalled condition names the terminal reason.
    return {
      reason: o.stalledReason || o.readyReason || "Stalled",
      message: failureCause(o).message || o.stalledMessage || "",
    };
  }
  const cause = failureCause(o);
  return { reason: cause.reason || "Failed", message: cause.message || "" };
}

function refOut(o: ProblemObjectInput) {
  return { cluster: o.cluster, kind: o.kind, namespace: o.namespace, name: o.name, url: objectPath(o), health: o.health };
}

/** Plain code-point order: names are DNS labels, and ICU collation is slow on thousands of rows. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const earliest = (a: string | null, b: string | null) => (!a ? b : !b ? a : a < b ? a : b);

/** Groups every problem object (and unreachable cluster) by cause, root causes first with followers nested. */
export function groupFailures(
  objects: ProblemObjectInput[],
  now: Date,
  unreachable: UnreachableClusterInput[] = [],
  /** Objects left out by a filter still serve as root causes; they just form no group. */
  include: (o: ProblemObjectInput) => boolean = () => true,
  extra: GroupFailuresExtra = {},
): FailureGroup[] {
  const byKey = new Map(objects.map((o) => [refKey(o), o]));
  const groups = new Map<string, FailureGroup>();
  const memberGroup = new Map<string, string>();
  const rootOf = new Map<FailureMember, string>();

  const add = (
    key: string,
    head: Omit<
      FailureGroup,
      "id" | "members" | "clusterCount" | "objectCount" | "firstFailedAt" | "longestFailingSeconds" | "causedBy" | "followers" | "message"
    >,
    member: FailureMember,
  ) => {
    let g = groups.get(key);
    if (!g) {
      g = {
        id: stableId(key),
        ...head,
        message: member.message,
        clusterCount: 0,
        objectCount: 0,
        firstFailedAt: null,
        longestFailingSeconds: null,
        members: [],
        causedBy: [],
        followers: [],
      };
      groups.set(key, g);
    }
    g.members.push(member);
    return g;
  };

  // The same message often repeats across clusters: normalise each distinct text once.
  const patterns = new Map<string, string>();
  const normalised = (message: string) => {
    let p = patterns.get(message);
    if (p === undefined) patterns.set(message, (p = normaliseMessage(message)));
    return p;
  };

  // Failed Crossplane resources first: objects applying to their cluster point at them.
  const crossplaneOf = new Map<string, FailureMember>();
  for (const c of extra.crossplane ?? []) {
    const problem: ProblemKind = c.createFailed ? "create-failed" : "crossplane";
    const reason = c.reason || "ReconcileError";
    const message = c.message || "";
    const pattern = normalised(message);
    const member: FailureMember = {
      cluster: c.cluster,
      kind: c.kind,
      namespace: c.namespace,
      name: c.name,
      url: `${clusterPath(c.cluster)}#provisioning`,
      health: "failing",
      problem,
      reason,
      message,
      firstFailedAt: c.since,
      failingForSeconds: c.since ? Math.max(0, Math.floor((now.getTime() - new Date(c.since).getTime()) / 1000)) : null,
      rootCause: null,
    };
    if (!crossplaneOf.has(c.cluster)) crossplaneOf.set(c.cluster, member);
    if (extra.includeCrossplane && !extra.includeCrossplane(c)) continue;
    const g = add(["Crossplane", c.kind, problem, reason, pattern].join("\u0001"), { kind: c.kind, problem, reason, pattern }, member);
    memberGroup.set(refKey(member), g.id);
  }

  for (const o of objects) {
    const problem = problemOf(o);
    if (!problem || !include(o)) continue;
    const { reason, message } = describe(o, problem);
    const pattern = normalised(message);
    const key = [o.kind, problem, reason, pattern].join("\u0001");
    // Stale, unclaimed and drifted objects wait on nothing: they are their own cause.
    const ownCause = problem === "stale" || problem === "unclaimed" || problem === "drifted";
    const root = ownCause ? null : findRootCause(o, byKey);
    // A hub object applying to a cluster Crossplane has not finished: that cluster is why it fails.
    const target = !root && !ownCause && o.appliesTo ? o.appliesTo : null;
    const crossplaneRoot = target ? crossplaneOf.get(target) : undefined;
    const provisioningRoot =
      target && !crossplaneRoot && extra.provisioning?.has(target)
        ? { cluster: target, kind: "Cluster", namespace: "", name: target, url: clusterPath(target), health: "progressing" as Health }
        : null;
    const member: FailureMember = {
      ...refOut(o),
      ...(o.appliesTo ? { appliesTo: o.appliesTo } : {}),
      problem,
      reason,
      message,
      firstFailedAt: problem === "unclaimed" ? (o.createdAt ?? null) : problem === "drifted" ? null : o.firstFailedAt,
      failingForSeconds:
        problem === "unclaimed"
          ? unclaimedForSeconds(o.health, o.createdAt, now)
          : problem === "stale" || problem === "drifted"
            ? null
            : failingForSeconds(o.storedHealth, o.firstFailedAt, now),
      rootCause: root
        ? refOut(root)
        : crossplaneRoot
          ? {
              cluster: crossplaneRoot.cluster,
              kind: crossplaneRoot.kind,
              namespace: crossplaneRoot.namespace,
              name: crossplaneRoot.name,
              url: crossplaneRoot.url,
              health: "failing",
            }
          : provisioningRoot,
    };
    const g = add(key, { kind: o.kind, problem, reason, pattern }, member);
    memberGroup.set(refKey(o), g.id);
    if (root) rootOf.set(member, refKey(root));
    else if (crossplaneRoot) rootOf.set(member, refKey(crossplaneRoot));
  }

  for (const c of unreachable) {
    const reason = c.lastErrorKind || "Unreachable";
    const message = c.lastError || "cluster unreachable";
    const pattern = normaliseMessage(message);
    const key = ["Cluster", "unreachable", reason, pattern].join("\u0001");
    // Unreachable since the last poll that worked (every failed poll moves lastErrorAt).
    const since = c.lastSuccessAt ?? c.firstSeenAt ?? c.lastErrorAt;
    add(
      key,
      { kind: "Cluster", problem: "unreachable", reason, pattern },
      {
        cluster: c.cluster,
        kind: "Cluster",
        namespace: "",
        name: c.cluster,
        url: clusterPath(c.cluster),
        health: "unknown",
        problem: "unreachable",
        reason,
        message,
        firstFailedAt: since,
        failingForSeconds: since ? Math.max(0, Math.floor((now.getTime() - new Date(since).getTime()) / 1000)) : null,
        rootCause: null,
      },
    );
  }

  const byId = new Map([...groups.values()].map((g) => [g.id, g]));
  for (const g of groups.values()) {
    g.members.sort((a, b) => (b.failingForSeconds ?? -1) - (a.failingForSeconds ?? -1) || cmp(a.cluster, b.cluster) || cmp(a.name, b.name));
    // The clusters a failure hurts: where each object applies (a hub Application's destination), else where it lives.
    g.clusterCount = new Set(g.members.map((m) => m.appliesTo ?? m.cluster)).size;
    g.objectCount = g.members.length;
    g.firstFailedAt = g.members.reduce<string | null>((acc, m) => earliest(acc, m.firstFailedAt), null);
    g.longestFailingSeconds = g.members.reduce<number | null>(
      (acc, m) => (m.failingForSeconds != null && (acc == null || m.failingForSeconds > acc) ? m.failingForSeconds : acc),
      null,
    );
    g.message = g.members[0].message;
    const causes = new Map<string, number>();
    for (const m of g.members) {
      const rootKey = rootOf.get(m);
      const causeGroup = rootKey ? memberGroup.get(rootKey) : undefined;
      if (causeGroup && causeGroup !== g.id) causes.set(causeGroup, (causes.get(causeGroup) ?? 0) + 1);
    }
    g.causedBy = [...causes.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
  }

  // A group is a follower when every member waits on a root cause in another group.
  const top: FailureGroup[] = [];
  for (const g of groups.values()) {
    const allFollow = g.members.every((m) => {
      const rootKey = rootOf.get(m);
      const cg = rootKey ? memberGroup.get(rootKey) : undefined;
      return cg !== undefined && cg !== g.id;
    });
    const parent = allFollow ? byId.get(g.causedBy[0]) : undefined;
    if (parent) parent.followers.push(g);
    else top.push(g);
  }
  for (const g of groups.values()) g.followers.sort(compareImpact);
  return top.sort(compareImpact);
}

/** Everything a group takes down: its own objects plus its followers'. */
export function impactOf(g: FailureGroup): number {
  return g.objectCount + g.followers.reduce((n, f) => n + impactOf(f), 0);
}

function compareImpact(a: FailureGroup, b: FailureGroup): number {
  return (
    b.followers.length - a.followers.length ||
    b.clusterCount - a.clusterCount ||
    impactOf(b) - impactOf(a) ||
    cmp(a.firstFailedAt ?? "\uffff", b.firstFailedAt ?? "\uffff") ||
    cmp(a.id, b.id)
  );
}

export const FAILURE_SORTS = ["impact", "clusters", "objects", "first-failed", "newest", "kind"] as const;
export type FailureSort = (typeof FAILURE_SORTS)[number];

/** Re-sorts top-level groups (followers stay under their root cause, sorted the same way). */
export function sortFailureGroups(groups: FailureGroup[], sort: FailureSort): FailureGroup[] {
  const order: (a: FailureGroup, b: FailureGroup) => number =
    sort === "clusters"
      ? (a, b) => b.clusterCount - a.clusterCount || compareImpact(a, b)
      : sort === "objects"
        ? (a, b) => impactOf(b) - impactOf(a) || compareImpact(a, b)
        : sort === "first-failed"
          ? (a, b) => cmp(a.firstFailedAt ?? "\uffff", b.firstFailedAt ?? "\uffff") || compareImpact(a, b)
          : sort === "newest"
            ? (a, b) => cmp(b.firstFailedAt ?? "", a.firstFailedAt ?? "") || compareImpact(a, b)
            : sort === "kind"
              ? (a, b) => cmp(a.kind, b.kind) || compareImpact(a, b)
              : compareImpact;
  const visit = (list: FailureGroup[]): FailureGroup[] => [...list].sort(order).map((g) => ({ ...g, followers: visit(g.followers) }));
  return visit(groups);
}

/** Totals over groups and their followers. */
export function failureTotals(groups: FailureGroup[]): { groups: number; objects: number; clusters: number } {
  const clusters = new Set<string>();
  let objects = 0;
  let count = 0;
  const visit = (list: FailureGroup[]) => {
    for (const g of list) {
      count++;
      objects += g.objectCount;
      for (const m of g.members) clusters.add(m.cluster);
      visit(g.followers);
    }
  };
  visit(groups);
  return { groups: count, objects, clusters: clusters.size };
}

/** Groups with at most `limit` members each (followers too); counts are left as they were. */
export function limitMembers(groups: FailureGroup[], limit: number): FailureGroup[] {
  return groups.map((g) => ({ ...g, members: g.members.slice(0, limit), followers: limitMembers(g.followers, limit) }));
}
