// Every failing, stalled, stale and unclaimed object fleet-wide (and every unreachable cluster, and every
// failed Crossplane resource), grouped by cause. Progressing objects are read too: they can be the root cause
// a dependency failure waits on. Clusters Crossplane is still creating are not unreachable. With
// `problem=drifted`, the ready objects whose live state drifted too (never counted as failures).
import {
  failureTotals,
  groupFailures,
  limitMembers,
  sortFailureGroups,
  type FailureGroup,
  type CrossplaneProblemInput,
  type ProblemObjectInput,
  type UnreachableClusterInput,
} from "../../fleet/failures";
import { parseProvisioning, type ClusterProvisioning } from "../../fleet/provisioning";
import type { FailureFilters } from "../../fleet/filters";
import { isReachable, parseHealthDetail, type StoredHealth } from "../../fleet/status";
import { getPool } from "../client";
import { healthOf, iso, parseDependsOn, reachabilityOf, staleSql, unclaimedSql } from "./shared";

export interface Failures {
  generatedAt: string;
  filters: FailureFilters;
  totals: { groups: number; objects: number; clusters: number };
  groups: FailureGroup[];
}

interface Row {
  cluster: string;
  env: string | null;
  team: string | null;
  lifecycle: string;
  lastSuccessAt: Date | null;
  lastErrorAt: Date | null;
  provisioning: string | null;
  /** The cluster a hub object applies to (spec.kubeConfig). */
  targetCluster: string | null;
  kind: string;
  namespace: string;
  name: string;
  health: string;
  healthDetail: string | null;
  driftMessage: string | null;
  readyReason: string | null;
  readyMessage: string | null;
  stalledReason: string | null;
  stalledMessage: string | null;
  releasedReason: string | null;
  releasedMessage: string | null;
  firstFailedAt: Date | null;
  lastReconcileAt: Date | null;
  intervalSeconds: number | null;
  creationTimestamp: Date | null;
  firstSeenAt: Date | null;
  dependsOn: unknown;
  sourceKind: string | null;
  sourceNamespace: string | null;
  sourceName: string | null;
}

interface ClusterRow {
  name: string;
  env: string | null;
  team: string | null;
  lifecycle: string;
  lastSuccessAt: Date | null;
  lastErrorAt: Date | null;
  provisioning: string | null;
  lastError: string | null;
  lastErrorKind: string | null;
  firstSeenAt: Date;
}

interface CrossplaneRow {
  cluster: string;
  env: string | null;
  team: string | null;
  provisioning: string | null;
  kind: string;
  namespace: string;
  name: string;
  stateReason: string | null;
  stateMessage: string | null;
  stateSince: Date | null;
}

const ROW_COLUMNS = `c.name AS cluster, c.env, c.team, c.lifecycle, c."lastSuccessAt", c."lastErrorAt", c.provisioning, t.name AS "targetCluster",
  o.kind, o.namespace, o.name, o.health, o."healthDetail", o."readyReason", o."readyMessage", o."stalledReason", o."stalledMessage",
  o."firstFailedAt", o."lastReconcileAt", o."intervalSeconds", o."creationTimestamp", o."firstSeenAt", o."dependsOn", o."sourceKind",
  o."sourceNamespace", o."sourceName",
  r.released->>'reason' AS "releasedReason", r.released->>'message' AS "releasedMessage"`;
// A HelmRelease's Released condition when False: after a remediation, the cause Ready no longer names.
const ROW_FROM = `flux_object o JOIN cluster c ON c.id = o."clusterId" LEFT JOIN cluster t ON t.id = o."targetClusterId"
  LEFT JOIN LATERAL (SELECT x AS released FROM jsonb_array_elements(CASE WHEN o.kind = 'HelmRelease' THEN o.conditions ELSE '[]'::jsonb END) x
    WHERE x->>'type' = 'Released' AND x->>'status' = 'False' LIMIT 1) r ON true`;

/** The Drifted condition's message, read only for drifted objects. */
const DRIFT_MESSAGE = `(SELECT c->>'message' FROM jsonb_array_elements(o.conditions) c WHERE c->>'type' = 'Drifted' LIMIT 1)`;

/**
 * `memberLimit` keeps at most that many members per group (longest failing first); counts, cluster
 * counts and first-failed times still cover every member.
 */
export async function listFailures(
  filters: FailureFilters = {} as FailureFilters,
  now = new Date(),
  options: { memberLimit?: number } = {},
): Promise<Failures> {
  const pool = getPool();
  const clusterText = filters.cluster?.toLowerCase();
  // The cluster filter is applied in SQL as well: every root cause an object can have is in its own
  // cluster (dependsOn, its source), so the other clusters' objects are never needed — and a page
  // filtered to one cluster (where alerts link) reads that cluster's rows, not the fleet's failures.
  const clusterMatch = `($2::text IS NULL OR strpos(lower(c.name), $2) > 0)`;
  const [objects, clusters, crossplane, provisioningRows] = await Promise.all([
    // Arms that each use an index: problems by health (new ones that waited too long are unclaimed), ready
    // objects gone stale, and, when asked for, drifted ones.
    pool.query<Row>(
      `SELECT ${ROW_COLUMNS}, NULL::text AS "driftMessage" FROM ${ROW_FROM}
       WHERE o."deletedAt" IS NULL AND c.lifecycle = 'active' AND o.health IN ('failing', 'stalled', 'progressing') AND ${clusterMatch}
       UNION ALL
       SELECT ${ROW_COLUMNS}, NULL::text FROM ${ROW_FROM}
       WHERE c.lifecycle = 'active' AND ${unclaimedSql("$1")} AND ${clusterMatch}
       UNION ALL
       SELECT ${ROW_COLUMNS}, NULL::text FROM ${ROW_FROM}
       WHERE o."deletedAt" IS NULL AND c.lifecycle = 'active' AND o.health = 'ready' AND ${staleSql("$1")} AND ${clusterMatch}
       ${
         filters.problem === "drifted"
           ? `UNION ALL
       SELECT ${ROW_COLUMNS}, ${DRIFT_MESSAGE} FROM ${ROW_FROM}
       WHERE o."deletedAt" IS NULL AND c.lifecycle = 'active' AND o."healthDetail" = 'drifted' AND o.health = 'ready' AND ${clusterMatch}`
           : ""
       }`,
      [now, clusterText || null],
    ),
    pool.query<ClusterRow>(
      `SELECT name, env, team, lifecycle, "lastSuccessAt", "lastErrorAt", "lastError", "lastErrorKind", "firstSeenAt", provisioning
       FROM cluster WHERE lifecycle = 'active' AND "lastErrorAt" IS NOT NULL AND ("lastSuccessAt" IS NULL OR "lastErrorAt" > "lastSuccessAt")`,
    ),
    pool.query<CrossplaneRow>(
      `SELECT c.name AS cluster, c.env, c.team, c.provisioning, p.kind, p.namespace, p.name, p."stateReason", p."stateMessage", p."stateSince"
       FROM provisioning_resource p JOIN cluster c ON c.id = p."clusterId"
       WHERE c.lifecycle = 'active' AND p.state = 'failed' ORDER BY c.name, p.kind, p.name`,
    ),
    pool.query<{ name: string; provisioning: string | null }>(
      `SELECT name, provisioning FROM cluster WHERE lifecycle = 'active' AND provisioning IS NOT NULL`,
    ),
  ]);

  const meta = new Map<ProblemObjectInput, Row>();
  const inputs = objects.rows.map((r) => {
    const reachability = reachabilityOf(r);
    const input: ProblemObjectInput = {
      cluster: r.cluster,
      kind: r.kind,
      namespace: r.namespace,
      name: r.name,
      health: healthOf(r, reachability, now),
      storedHealth: r.health as StoredHealth,
      healthDetail: parseHealthDetail(r.healthDetail),
      createdAt: iso(r.creationTimestamp ?? r.firstSeenAt),
      driftMessage: r.driftMessage,
      readyReason: r.readyReason,
      readyMessage: r.readyMessage,
      stalledReason: r.stalledReason,
      stalledMessage: r.stalledMessage,
      releasedReason: r.releasedReason,
      releasedMessage: r.releasedMessage,
      firstFailedAt: iso(r.firstFailedAt),
      lastReconcileAt: iso(r.lastReconcileAt),
      dependsOn: parseDependsOn(r.dependsOn, r.namespace),
      source: r.sourceKind && r.sourceName ? { kind: r.sourceKind, namespace: r.sourceNamespace ?? r.namespace, name: r.sourceName } : null,
      appliesTo: r.targetCluster,
    };
    meta.set(input, r);
    return input;
  });

  const q = filters.q?.toLowerCase();
  const common = (c: { name: string; env: string | null; team: string | null }) =>
    (!clusterText || c.name.toLowerCase().includes(clusterText)) &&
    (!filters.env || c.env === filters.env) &&
    (!filters.team || c.team === filters.team);

  const include = (o: ProblemObjectInput) => {
    const r = meta.get(o)!;
    if (!common({ name: r.cluster, env: r.env, team: r.team })) return false;
    if (filters.kind && o.kind !== filters.kind) return false;
    if (filters.problem) {
      const p = o.health === "unknown" ? o.storedHealth : o.health === "ready" && o.healthDetail === "drifted" ? "drifted" : o.health;
      if (p !== filters.problem) return false;
    }
    if (
      q &&
      ![o.cluster, o.kind, o.namespace, o.name, o.readyReason, o.readyMessage, o.stalledReason].some((v) => v?.toLowerCase().includes(q))
    )
      return false;
    return true;
  };

  const unreachable: UnreachableClusterInput[] = clusters.rows
    .filter((c) => !isReachable(reachabilityOf(c)))
    .filter((c) => common(c))
    .filter(() => (!filters.kind || filters.kind === "Cluster") && (!filters.problem || filters.problem === "unreachable"))
    .filter((c) => !q || [c.name, c.lastError, c.lastErrorKind].some((v) => v?.toLowerCase().includes(q)))
    .map((c) => ({
      cluster: c.name,
      lastError: c.lastError,
      lastErrorKind: c.lastErrorKind,
      lastErrorAt: iso(c.lastErrorAt),
      lastSuccessAt: iso(c.lastSuccessAt),
      firstSeenAt: iso(c.firstSeenAt),
    }));

  const crossplaneProblems: CrossplaneProblemInput[] = crossplane.rows.map((r) => ({
    cluster: r.cluster,
    kind: r.kind,
    namespace: r.namespace,
    name: r.name,
    reason: r.stateReason,
    message: r.stateMessage,
    since: iso(r.stateSince),
    createFailed: parseProvisioning(r.provisioning) !== null,
  }));
  const crossplaneMeta = new Map(crossplane.rows.map((r) => [`${r.cluster}/${r.kind}/${r.namespace}/${r.name}`, r]));
  // Crossplane resources are cluster-level problems: shown with the Cluster kind filter or none.
  const includeCrossplane = (c: CrossplaneProblemInput) => {
    const r = crossplaneMeta.get(`${c.cluster}/${c.kind}/${c.namespace}/${c.name}`)!;
    if (!common({ name: c.cluster, env: r.env, team: r.team })) return false;
    if (filters.kind && filters.kind !== "Cluster") return false;
    if (filters.problem && filters.problem !== (c.createFailed ? "create-failed" : "crossplane")) return false;
    return !q || [c.cluster, c.kind, c.name, c.reason, c.message].some((v) => v?.toLowerCase().includes(q));
  };
  const provisioning = new Map<string, ClusterProvisioning>();
  for (const r of provisioningRows.rows) {
    const state = parseProvisioning(r.provisioning);
    if (state) provisioning.set(r.name, state);
  }

  const objectFilterOn =
    filters.kind !== "Cluster" && (!filters.problem || !["unreachable", "create-failed", "crossplane"].includes(filters.problem));
  let groups = groupFailures(inputs, now, unreachable, (o) => objectFilterOn && include(o), {
    crossplane: crossplaneProblems,
    includeCrossplane,
    provisioning,
  });
  if (filters.sort) groups = sortFailureGroups(groups, filters.sort);
  const totals = failureTotals(groups);
  if (options.memberLimit != null) groups = limitMembers(groups, options.memberLimit);
  return { generatedAt: now.toISOString(), filters, totals, groups };
}
