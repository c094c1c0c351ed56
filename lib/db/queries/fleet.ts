// Fleet overview: every cluster with reachability, data age, versions and object counts by kind and
// health. Counts kept per cluster by the collector, with the clock-dependent healths (stale, unclaimed)
// computed in SQL with the same rules as effectiveHealth.
import { OBJECT_KINDS, kindSlug } from "../../fleet/kinds";
import type { ClusterVersionKnowledge } from "../../fleet/cluster-facts";
import { parseProvisioning, type ClusterProvisioning } from "../../fleet/provisioning";
import { HEALTHS, isReachable, type Health, type Reachability } from "../../fleet/status";
import type { ClusterHealth, FleetFilters } from "../../fleet/filters";
import { clusterPath } from "../../fleet/urls";
import { supportInfo, type SupportInfo } from "../../upgrades/support";
import { getPool } from "../client";
import {
  hubReachable,
  iso,
  reachabilityOf,
  staleSql,
  unclaimedSql,
  VERSION_KNOWLEDGE_COLUMNS,
  versionKnowledgeOf,
  type VersionKnowledgeRow,
} from "./shared";

export type HealthCounts = Record<Health, number>;

export interface FleetCluster {
  name: string;
  url: string;
  role: string;
  env: string | null;
  team: string | null;
  region: string | null;
  accountId: string | null;
  reachability: Reachability;
  health: ClusterHealth;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  lastErrorKind: string | null;
  kubernetesVersion: string | null;
  eksVersion: string | null;
  platformVersion: string | null;
  support: SupportInfo | null;
  fluxVersion: string | null;
  /** Crossplane is still creating it (or failed to): neither reachable nor unreachable. */
  provisioning: ClusterProvisioning | null;
  /** What we know of its version and from where (EKS API, Crossplane, /version), or why not. */
  versionKnowledge: ClusterVersionKnowledge;
  /** Nodes whose Ready condition is False or Unknown, as last listed. */
  notReadyNodes: number;
  /** kind slug → health → count */
  counts: Record<string, HealthCounts>;
  totals: HealthCounts;
  objectCount: number;
  /** Ready objects whose live state drifted from the release (shown, not counted as failing). */
  drifted: number;
}

export interface Fleet {
  generatedAt: string;
  filters: FleetFilters;
  summary: {
    clusters: number;
    reachable: number;
    unreachable: number;
    /** Clusters Crossplane is still creating (or failed to create): counted apart from unreachable ones. */
    provisioning: number;
    /** NotReady nodes over the shown clusters. */
    notReadyNodes: number;
    objects: number;
    byHealth: HealthCounts;
    byKind: Record<string, HealthCounts>;
    drifted: number;
  };
  /** Worst first; at most `limit` of them (summary and `matching` count every matching cluster). */
  clusters: FleetCluster[];
  /** How many clusters match the filters. */
  matching: number;
  /** Values to filter by, from every cluster (not only the shown ones). */
  facets: { envs: string[]; teams: string[]; regions: string[] };
}

export const emptyCounts = (): HealthCounts => Object.fromEntries(HEALTHS.map((h) => [h, 0])) as HealthCounts;

interface ClusterRow extends VersionKnowledgeRow {
  id: number;
  name: string;
  role: string;
  env: string | null;
  team: string | null;
  region: string | null;
  accountId: string | null;
  lifecycle: string;
  lastSuccessAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
  lastErrorKind: string | null;
  kubernetesVersion: string | null;
  eksVersion: string | null;
  platformVersion: string | null;
  fluxVersion: string | null;
  versionStatus: string | null;
  endOfStandardSupportDate: Date | null;
  endOfExtendedSupportDate: Date | null;
}

function clusterHealth(reachability: Reachability, totals: HealthCounts): ClusterHealth {
  if (reachability === "provisioning") return "provisioning";
  if (!isReachable(reachability)) return "unreachable";
  // An object no controller picks up is as much a problem as a failing one.
  if (totals.failing + totals.stalled + totals.unclaimed > 0) return "failing";
  if (totals.stale > 0) return "stale";
  return "healthy";
}

function matches(c: FleetCluster, f: FleetFilters): boolean {
  if (f.env && c.env !== f.env) return false;
  if (f.team && c.team !== f.team) return false;
  if (f.region && c.region !== f.region) return false;
  if (f.health && c.health !== f.health) return false;
  if (f.q) {
    const q = f.q.toLowerCase();
    const hay = [c.name, c.env, c.team, c.region, c.accountId, c.eksVersion, c.kubernetesVersion, c.fluxVersion]
      .filter(Boolean)
      .join(" ")
      .toLowerCase();
    if (!hay.includes(q)) return false;
  }
  return true;
}

export async function getFleet(
  filters: FleetFilters = {} as FleetFilters,
  now = new Date(),
  options: { limit?: number } = {},
): Promise<Fleet> {
  const pool = getPool();
  const [clusters, counts, stale, unclaimed, drifted, notReady, hub] = await Promise.all([
    pool.query<ClusterRow>(`
      SELECT c.id, c.name, c.role, c.env, c.team, c.region, c."accountId", c."platformVersion", c."fluxVersion", ${VERSION_KNOWLEDGE_COLUMNS},
             v."versionStatus", v."endOfStandardSupportDate", v."endOfExtendedSupportDate"
      FROM cluster c LEFT JOIN eks_version v ON v."clusterVersion" = c."eksVersion"
      WHERE c.lifecycle = 'active'
      ORDER BY c.name`),
    // Counts by stored health: kept per cluster by the collector after each poll...
    pool.query<{ clusterId: number; kind: string; health: Health; n: number }>(
      `SELECT c.id AS "clusterId", k.key AS kind, h.key AS health, h.value::int AS n
         FROM cluster c CROSS JOIN LATERAL jsonb_each(c."healthCounts") AS k CROSS JOIN LATERAL jsonb_each(k.value) AS h
        WHERE c.lifecycle = 'active' AND jsonb_typeof(c."healthCounts") = 'object'`,
    ),
    // ...and the few stale ones (same rule as effectiveHealth) move from their stored bucket to "stale".
    pool.query<{ clusterId: number; kind: string; health: Health; n: number }>(
      `SELECT o."clusterId", o.kind, o.health, count(*)::int AS n FROM flux_object o
       WHERE o."deletedAt" IS NULL AND ${staleSql("$1")} GROUP BY 1, 2, 3`,
      [now],
    ),
    // ...and new objects no controller picked up in time move from "new" to "unclaimed".
    pool.query<{ clusterId: number; kind: string; health: Health; n: number }>(
      `SELECT o."clusterId", o.kind, o.health, count(*)::int AS n FROM flux_object o WHERE ${unclaimedSql("$1")} GROUP BY 1, 2, 3`,
      [now],
    ),
    pool.query<{ clusterId: number; n: number }>(
      `SELECT "clusterId", count(*)::int AS n FROM flux_object
        WHERE "healthDetail" = 'drifted' AND health = 'ready' AND "deletedAt" IS NULL GROUP BY 1`,
    ),
    // Written to match the partial index node_not_ready_idx: only NotReady nodes are read.
    pool.query<{ clusterId: number; n: number }>(
      `SELECT "clusterId", count(*)::int AS n FROM node WHERE "deletedAt" IS NULL AND "readyStatus" IS DISTINCT FROM 'True' GROUP BY 1`,
    ),
    hubReachable(pool),
  ]);
  const notReadyBy = new Map(notReady.rows.map((r) => [r.clusterId, r.n]));

  // ...or, for clusters without kept counts (not polled since they were introduced), aggregated here from
  // the (clusterId, kind, health, deletedAt) index.
  const kept = new Set(counts.rows.map((r) => r.clusterId));
  const missing = clusters.rows.filter((c) => !kept.has(c.id)).map((c) => c.id);
  const aggregated = missing.length
    ? await pool.query<{ clusterId: number; kind: string; health: Health; n: number }>(
        `SELECT "clusterId", kind, health, count(*)::int AS n FROM flux_object
          WHERE "deletedAt" IS NULL AND "clusterId" = ANY($1::int[]) GROUP BY 1, 2, 3`,
        [missing],
      )
    : { rows: [] };

  const byCluster = new Map<number, { counts: Record<string, HealthCounts>; totals: HealthCounts }>();
  const rows = [
    ...counts.rows,
    ...aggregated.rows,
    ...stale.rows.flatMap((r) => [
      { ...r, n: -r.n },
      { ...r, health: "stale" as Health },
    ]),
    ...unclaimed.rows.flatMap((r) => [
      { ...r, n: -r.n },
      { ...r, health: "unclaimed" as Health },
    ]),
  ];
  const driftedBy = new Map(drifted.rows.map((r) => [r.clusterId, r.n]));
  for (const r of rows) {
    let entry = byCluster.get(r.clusterId);
    if (!entry) {
      entry = { counts: Object.fromEntries(OBJECT_KINDS.map((k) => [kindSlug(k), emptyCounts()])), totals: emptyCounts() };
      byCluster.set(r.clusterId, entry);
    }
    const slug = kindSlug(r.kind);
    entry.counts[slug] ??= emptyCounts();
    entry.counts[slug][r.health] += r.n;
    entry.totals[r.health] += r.n;
  }

  const all: FleetCluster[] = clusters.rows.map((c) => {
    const reachability = reachabilityOf(c);
    const entry = byCluster.get(c.id) ?? {
      counts: Object.fromEntries(OBJECT_KINDS.map((k) => [kindSlug(k), emptyCounts()])),
      totals: emptyCounts(),
    };
    const version = c.eksVersion ?? c.kubernetesVersion;
    return {
      name: c.name,
      url: clusterPath(c.name),
      role: c.role,
      env: c.env,
      team: c.team,
      region: c.region,
      accountId: c.accountId,
      reachability,
      health: clusterHealth(reachability, entry.totals),
      lastSuccessAt: iso(c.lastSuccessAt),
      lastErrorAt: iso(c.lastErrorAt),
      lastError: c.lastError,
      lastErrorKind: c.lastErrorKind,
      kubernetesVersion: c.kubernetesVersion,
      eksVersion: c.eksVersion,
      platformVersion: c.platformVersion,
      support:
        version && c.eksVersion
          ? supportInfo(
              version,
              c.versionStatus || c.endOfStandardSupportDate
                ? {
                    clusterVersion: c.eksVersion,
                    versionStatus: c.versionStatus,
                    endOfStandardSupportDate: c.endOfStandardSupportDate,
                    endOfExtendedSupportDate: c.endOfExtendedSupportDate,
                  }
                : null,
              now,
            )
          : null,
      fluxVersion: c.fluxVersion,
      provisioning: parseProvisioning(c.provisioning),
      versionKnowledge: versionKnowledgeOf(c, hub, now),
      notReadyNodes: notReadyBy.get(c.id) ?? 0,
      counts: entry.counts,
      totals: entry.totals,
      objectCount: Object.values(entry.totals).reduce((a, b) => a + b, 0),
      drifted: driftedBy.get(c.id) ?? 0,
    };
  });

  const shown = all.filter((c) => matches(c, filters));
  // Worst first: unreachable, then failing, then stale; then by name.
  const order: Record<ClusterHealth, number> = { unreachable: 0, failing: 1, stale: 2, provisioning: 3, healthy: 4 };
  shown.sort((a, b) => order[a.health] - order[b.health] || a.name.localeCompare(b.name));

  const byHealth = emptyCounts();
  const byKind: Record<string, HealthCounts> = Object.fromEntries(OBJECT_KINDS.map((k) => [kindSlug(k), emptyCounts()]));
  for (const c of shown) {
    for (const h of HEALTHS) byHealth[h] += c.totals[h];
    for (const [slug, hc] of Object.entries(c.counts)) {
      byKind[slug] ??= emptyCounts();
      for (const h of HEALTHS) byKind[slug][h] += hc[h];
    }
  }
  const distinct = (values: Array<string | null>) => [...new Set(values.filter((v): v is string => !!v))].sort();
  return {
    generatedAt: now.toISOString(),
    filters,
    summary: {
      clusters: shown.length,
      reachable: shown.filter((c) => isReachable(c.reachability)).length,
      unreachable: shown.filter((c) => !isReachable(c.reachability) && c.reachability !== "provisioning").length,
      provisioning: shown.filter((c) => c.reachability === "provisioning").length,
      notReadyNodes: shown.reduce((n, c) => n + c.notReadyNodes, 0),
      objects: shown.reduce((n, c) => n + c.objectCount, 0),
      byHealth,
      byKind,
      drifted: shown.reduce((n, c) => n + c.drifted, 0),
    },
    clusters: options.limit != null ? shown.slice(0, options.limit) : shown,
    matching: shown.length,
    facets: { envs: distinct(all.map((c) => c.env)), teams: distinct(all.map((c) => c.team)), regions: distinct(all.map((c) => c.region)) },
  };
}
