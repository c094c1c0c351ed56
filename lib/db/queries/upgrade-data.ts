// Everything the upgrade pages (/upgrades, /upgrades/{cluster}, /addons, /upgrades/trends, campaigns)
// derive their figures from, read in one go: clusters with their EKS facts, HelmReleases with their
// sources and change history, managed add-ons and catalogs, version history, inventories on removed APIs.
// Web replicas keep one copy per change of the data (changeCache: the collector NOTIFYs when it writes),
// so every page shows the same moment and no request recomputes what another already did.
import { upstreamKey, type HelmInstallation, type UpstreamInfo } from "../../upgrades/addon-matrix";
import { argoChartSource, resolveChartSource, sourceKey, type SourceObject } from "../../upgrades/chart-source";
import { EKS_CALENDAR } from "../../upgrades/eks-calendar";
import type { FleetHistory, HistoryCluster, HistoryManagedAddon, HistoryRelease, VersionChange } from "../../upgrades/fleet-history";
import { toCatalogVersions, type CatalogVersion } from "../../upgrades/managed-addons";
import { REMOVED_APIS } from "../../upgrades/removed-apis";
import type { ClusterVersionInfo } from "../../upgrades/support";
import { controlPlaneMinor } from "../../upgrades/versions";
import { clusterReachability, isReachable, type Reachability } from "../../fleet/status";
import { getPool } from "../client";
import { changeCache } from "../change-cache";
import type {
  AddonVersionCatalogRow,
  ChartUpstreamRow,
  ClusterRow,
  ClusterVersionChangeRow,
  EksVersionRow,
  FluxObjectRow,
  FluxObjectTransitionRow,
  ManagedAddonRow,
  NodeGroupRow,
  UpgradeInsightRow as InsightTableRow,
} from "../rows";
import { iso, type VersionKnowledgeRow } from "./shared";
import { helmInstallation } from "../../upgrades/helm-installation";

/** How far back history is read: the longest trend range. */
export const HISTORY_DAYS = 400;
const DAY_MS = 86_400_000;
const FAILING = new Set(["failing", "stalled"]);

export interface UpgradeNodeGroup {
  name: string;
  version: string | null;
  releaseVersion: string | null;
  status: string | null;
  desiredSize: number | null;
}

export interface UpgradeManagedAddon {
  name: string;
  version: string | null;
  status: string | null;
}

export interface UpgradeInsightRow {
  name: string;
  category: string;
  status: string;
  reason: string | null;
  kubernetesVersion: string | null;
  recommendation: string | null;
  description: string | null;
  lastRefreshTime: string | null;
}

export interface InventoryUse {
  /** The cluster holding the object (a hub Application's resources are counted in its destination's column). */
  holder: string;
  kind: string;
  namespace: string;
  name: string;
  id: string;
  v: string;
}

export interface UpgradeCluster {
  id: number;
  name: string;
  env: string | null;
  team: string | null;
  region: string | null;
  labels: Record<string, string>;
  eksName: string | null;
  eksStatus: string | null;
  supportType: string | null;
  /** Control-plane minor as stored (EKS API or API server); may be a last known one. */
  version: string | null;
  kubernetesVersion: string | null;
  platformVersion: string | null;
  reachability: Reachability;
  lastSuccessAt: Date | null;
  lastErrorKind: string | null;
  lastError: string | null;
  /** The columns its version knowledge is decided from (EKS facts' source, the EKS API's refusal, provisioning). */
  knowledgeRow: VersionKnowledgeRow;
  /** The EKS API's last refusal for this cluster (AccessDenied…) and since when; null while it answers. */
  eksError: string | null;
  eksErrorSince: Date | null;
  kubeletVersions: unknown;
  lastVersionChangeAt: Date | null;
  nodeGroups: UpgradeNodeGroup[];
  managedAddons: UpgradeManagedAddon[];
  insights: UpgradeInsightRow[];
  /** Inventory entries on an API version that appears in the removed-API table. */
  inventoryUses: InventoryUse[];
  /** Its HelmReleases now (where the matrix and the checklist read them). */
  helm: HelmInstallation[];
}

export interface UpgradeData {
  loadedAt: Date;
  /** Active clusters, by name. */
  clusters: UpgradeCluster[];
  /** The hub answered its last poll: what Crossplane says of the spokes is current. */
  hubReachable: boolean;
  history: FleetHistory;
  upstream: Map<string, UpstreamInfo>;
  versionInfo: Map<string, ClusterVersionInfo>;
  catalog: Map<string, CatalogVersion[] | null>;
  /** Every Kubernetes minor known to exist: DescribeClusterVersions, the calendar, the fleet. */
  knownVersions: string[];
  /** Results derived from this copy of the data, computed once each. */
  memo: Map<string, unknown>;
}

const MEMO_LIMIT = 200;

/**
 * A result derived from `data`, computed on first use and kept as long as `data` is, for one `stamp` at
 * a time (e.g. the current minute, for results that depend on the clock): a new stamp replaces it.
 */
export function derived<T>(data: UpgradeData, key: string, stamp: string | number, compute: () => T): T {
  const kept = data.memo.get(key) as { stamp: string | number; value: T } | undefined;
  if (kept && kept.stamp === stamp) return kept.value;
  if (!kept && data.memo.size >= MEMO_LIMIT) data.memo.clear(); // many distinct questions: start afresh
  const value = compute();
  data.memo.set(key, { stamp, value });
  return value;
}

/**
 * The stamp for a view of the fleet "now": at any moment after this copy was read, the history it holds
 * answers the same (nothing in it is newer than the read), so only the day moves it (support dates,
 * calendar releases). A moment before the read (a test asking about an earlier instant) goes by the minute.
 */
export function nowStamp(data: UpgradeData, now: Date): string {
  return now.getTime() >= data.loadedAt.getTime()
    ? `day:${Math.floor(now.getTime() / 86_400_000)}`
    : `minute:${Math.floor(now.getTime() / 60_000)}`;
}

const REMOVED_VERSIONS = [...new Set(REMOVED_APIS.map((a) => a.version))];

function labelsOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
}

const pushTo = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

export async function loadUpgradeData(now = new Date()): Promise<UpgradeData> {
  const pool = getPool();
  const since = new Date(now.getTime() - HISTORY_DAYS * DAY_MS);
  const [clusters, changes, releases, transitions, sources, upstream, versions, managed, catalogs, nodeGroups, insights, uses] =
    await Promise.all([
      pool.query<
        Pick<
          ClusterRow,
          | "id"
          | "name"
          | "role"
          | "env"
          | "team"
          | "region"
          | "labels"
          | "lifecycle"
          | "firstSeenAt"
          | "goneAt"
          | "lastSuccessAt"
          | "lastErrorAt"
          | "lastErrorKind"
          | "lastError"
          | "eksArn"
          | "eksName"
          | "eksStatus"
          | "supportType"
          | "kubernetesVersion"
          | "eksVersion"
          | "platformVersion"
          | "kubeletVersions"
          | "fluxVersion"
          | "provisioning"
          | "desiredVersion"
          | "eksFactsSource"
          | "eksError"
          | "eksErrorSince"
        >
      >(
        `SELECT id, name, role, env, team, region, labels, lifecycle, "firstSeenAt", "goneAt", "lastSuccessAt", "lastErrorAt", "lastErrorKind",
                "lastError", "eksArn", "eksName", "eksStatus", "supportType", "kubernetesVersion", "eksVersion", "platformVersion",
                "kubeletVersions", "fluxVersion", provisioning, "desiredVersion", "eksFactsSource", "eksError", "eksErrorSince"
           FROM cluster WHERE lifecycle = 'active' OR "goneAt" >= $1 ORDER BY name`,
        [since],
      ),
      pool.query<Pick<ClusterVersionChangeRow, "clusterId" | "at" | "component" | "subject" | "fromVersion" | "toVersion">>(
        `SELECT "clusterId", at, component, subject, "fromVersion", "toVersion" FROM cluster_version_change
          WHERE component IN ('kubernetes', 'eks', 'flux', 'addon') AND at >= $1 ORDER BY at`,
        [since],
      ),
      pool.query<
        Pick<
          FluxObjectRow,
          | "id"
          | "clusterId"
          | "targetClusterId"
          | "namespace"
          | "name"
          | "chartName"
          | "deployedChartVersion"
          | "desiredChartVersion"
          | "health"
          | "sourceKind"
          | "sourceName"
          | "sourceNamespace"
          | "firstSeenAt"
          | "deletedAt"
          | "kind"
          | "url"
          | "chartVersion"
        >
      >(
        // Argo CD Applications with a Helm source count as releases: chart and repository from their primary source.
        `SELECT id, "clusterId", "targetClusterId", namespace, name, "chartName", "deployedChartVersion", "desiredChartVersion", health, "sourceKind", "sourceName",
                "sourceNamespace", "firstSeenAt", "deletedAt", kind, url, "chartVersion"
           FROM flux_object WHERE (kind = 'HelmRelease' OR (kind = 'Application' AND "chartName" IS NOT NULL))
            AND ("deletedAt" IS NULL OR "deletedAt" >= $1)`,
        [since],
      ),
      pool.query<Pick<FluxObjectTransitionRow, "objectId" | "at" | "change" | "appliedRevision" | "health">>(
        `SELECT t."objectId", t.at, t.change, t."appliedRevision", t.health
           FROM flux_object_transition t JOIN flux_object o ON o.id = t."objectId"
          WHERE o.kind IN ('HelmRelease', 'Application') AND t.at >= $1 ORDER BY t.at`,
        [since],
      ),
      pool.query<Pick<FluxObjectRow, "clusterId" | "kind" | "namespace" | "name" | "url" | "spec">>(
        `SELECT DISTINCT ON ("clusterId", kind, namespace, name) "clusterId", kind, namespace, name, url,
                jsonb_build_object('url', spec->'url', 'type', spec->'type', 'insecure', spec->'insecure') AS spec
           FROM flux_object WHERE kind IN ('HelmRepository', 'OCIRepository')
          ORDER BY "clusterId", kind, namespace, name, "deletedAt" DESC NULLS FIRST`,
      ),
      pool.query<Pick<ChartUpstreamRow, "repositoryUrl" | "chartName" | "latestVersion" | "versions" | "error" | "fetchedAt">>(
        `SELECT "repositoryUrl", "chartName", "latestVersion", versions, error, "fetchedAt" FROM chart_upstream`,
      ),
      pool.query<
        Pick<EksVersionRow, "clusterVersion" | "versionStatus" | "releaseDate" | "endOfStandardSupportDate" | "endOfExtendedSupportDate">
      >(`SELECT "clusterVersion", "versionStatus", "releaseDate", "endOfStandardSupportDate", "endOfExtendedSupportDate" FROM eks_version`),
      pool.query<Pick<ManagedAddonRow, "clusterId" | "name" | "version" | "status" | "deletedAt">>(
        `SELECT "clusterId", name, version, status, "deletedAt" FROM managed_addon WHERE "deletedAt" IS NULL OR "deletedAt" >= $1 ORDER BY name`,
        [since],
      ),
      pool.query<Pick<AddonVersionCatalogRow, "addonName" | "kubernetesVersion" | "versions">>(
        `SELECT "addonName", "kubernetesVersion", versions FROM addon_version_catalog`,
      ),
      pool.query<Pick<NodeGroupRow, "clusterId" | "name" | "version" | "releaseVersion" | "status" | "desiredSize">>(
        `SELECT "clusterId", name, version, "releaseVersion", status, "desiredSize" FROM node_group WHERE "deletedAt" IS NULL ORDER BY name`,
      ),
      pool.query<
        Pick<
          InsightTableRow,
          | "clusterId"
          | "name"
          | "category"
          | "status"
          | "reason"
          | "kubernetesVersion"
          | "recommendation"
          | "description"
          | "lastRefreshTime"
        >
      >(
        `SELECT "clusterId", name, category, status, reason, "kubernetesVersion", recommendation, description, "lastRefreshTime"
           FROM upgrade_insight ORDER BY name`,
      ),
      // Only inventory entries whose version appears in the removed-API table: the rest cannot match.
      pool.query<Pick<FluxObjectRow, "clusterId" | "kind" | "namespace" | "name"> & { holderId: number; id: string; v: string }>(
        // The resources live where the object applies (a hub Application's destination, a spec.kubeConfig spoke).
        `SELECT COALESCE(o."targetClusterId", o."clusterId") AS "clusterId", o."clusterId" AS "holderId", o.kind, o.namespace, o.name,
                e->>'id' AS id, e->>'v' AS v
           FROM flux_object o,
                jsonb_array_elements(CASE WHEN jsonb_typeof(o.inventory) = 'array' THEN o.inventory
                                          WHEN jsonb_typeof(o.inventory->'entries') = 'array' THEN o.inventory->'entries'
                                          ELSE '[]'::jsonb END) e
          WHERE o."deletedAt" IS NULL AND o.kind IN ('Kustomization', 'HelmRelease', 'Application') AND e->>'v' = ANY($1)
          ORDER BY o.kind, o.namespace, o.name`,
        [REMOVED_VERSIONS],
      ),
    ]);

  // --- history per cluster ---------------------------------------------------------------------------
  const versionChanges = new Map<number, VersionChange[]>();
  const fluxChanges = new Map<number, VersionChange[]>();
  const addonChanges = new Map<string, VersionChange[]>();
  for (const c of changes.rows) {
    const change = { at: c.at, from: c.fromVersion, to: c.toVersion };
    // The API server's version and the EKS control-plane version tell the same story.
    if (c.component === "kubernetes" || c.component === "eks") pushTo(versionChanges, c.clusterId, change);
    else if (c.component === "flux") pushTo(fluxChanges, c.clusterId, change);
    else pushTo(addonChanges, `${c.clusterId}/${c.subject}`, change);
  }
  const names = new Map(clusters.rows.map((c) => [c.id, c.name]));
  const historyClusters: HistoryCluster[] = clusters.rows.map((c) => ({
    id: c.id,
    name: c.name,
    env: c.env,
    team: c.team,
    region: c.region,
    firstSeenAt: c.firstSeenAt,
    goneAt: c.lifecycle === "active" ? null : (c.goneAt ?? c.firstSeenAt),
    version: controlPlaneMinor(c.eksVersion, c.kubernetesVersion),
    versionChanges: versionChanges.get(c.id) ?? [],
    fluxVersion: c.fluxVersion,
    fluxChanges: fluxChanges.get(c.id) ?? [],
  }));

  // --- Helm releases with the repository each really uses -----------------------------------------------
  const sourceMap = new Map<string, SourceObject>(
    sources.rows.map((s) => [sourceKey(s.clusterId, s.kind, s.namespace, s.name), { ...s, spec: s.spec ?? {} }]),
  );
  const byObject = new Map<string, HistoryRelease["transitions"]>();
  for (const t of transitions.rows)
    pushTo(byObject, t.objectId, { at: t.at, change: t.change, applied: t.appliedRevision, failing: FAILING.has(t.health) });
  const historyReleases: HistoryRelease[] = [];
  const helmByCluster = new Map<number, HelmInstallation[]>();
  for (const r of releases.rows) {
    const holder = names.get(r.clusterId);
    if (!holder || !r.chartName) continue;
    const argo = r.kind === "Application";
    const source = argo ? argoChartSource(r) : resolveChartSource(r, sourceMap);
    const install = helmInstallation({
      holder,
      target: r.targetClusterId === null ? null : (names.get(r.targetClusterId) ?? null),
      namespace: r.namespace,
      name: r.name,
      chart: r.chartName,
      repositoryUrl: source?.repositoryUrl ?? null,
      desired: r.desiredChartVersion,
      // An Application's chart version is the one its last successful sync recorded (status.history): deployed.
      deployed: argo ? r.chartVersion : r.deployedChartVersion,
      health: r.health,
    });
    historyReleases.push({ ...install, firstSeenAt: r.firstSeenAt, deletedAt: r.deletedAt, transitions: byObject.get(r.id) ?? [] });
    // The column it counts in: a hub release deploying into a spoke (spec.kubeConfig) is the spoke's.
    if (!r.deletedAt) pushTo(helmByCluster, r.targetClusterId ?? r.clusterId, install);
  }

  // --- EKS facts -------------------------------------------------------------------------------------
  const historyManaged: HistoryManagedAddon[] = [];
  const managedByCluster = new Map<number, UpgradeManagedAddon[]>();
  for (const m of managed.rows) {
    const cluster = names.get(m.clusterId);
    if (!cluster) continue;
    historyManaged.push({
      cluster,
      name: m.name,
      version: m.version,
      failing: ["CREATE_FAILED", "UPDATE_FAILED", "DEGRADED"].includes((m.status ?? "").toUpperCase()),
      deletedAt: m.deletedAt,
      changes: addonChanges.get(`${m.clusterId}/${m.name}`) ?? [],
    });
    if (!m.deletedAt) pushTo(managedByCluster, m.clusterId, { name: m.name, version: m.version, status: m.status });
  }
  const groupsByCluster = new Map<number, UpgradeNodeGroup[]>();
  for (const g of nodeGroups.rows) pushTo(groupsByCluster, g.clusterId, g);
  const insightsByCluster = new Map<number, UpgradeInsightRow[]>();
  for (const i of insights.rows) pushTo(insightsByCluster, i.clusterId, { ...i, lastRefreshTime: iso(i.lastRefreshTime) });
  const usesByCluster = new Map<number, InventoryUse[]>();
  for (const { holderId, ...u } of uses.rows) pushTo(usesByCluster, u.clusterId, { ...u, holder: names.get(holderId) ?? "" });

  const catalog = new Map(catalogs.rows.map((c) => [`${c.addonName}@${c.kubernetesVersion}`, toCatalogVersions(c.versions)]));
  const versionInfo = new Map<string, ClusterVersionInfo>(versions.rows.map((v) => [v.clusterVersion, v]));

  const historyById = new Map(historyClusters.map((h) => [h.id, h]));
  const active = clusters.rows.filter((c) => c.lifecycle === "active");
  const upgradeClusters: UpgradeCluster[] = active.map((c) => {
    const history = historyById.get(c.id)!;
    const vc = history.versionChanges;
    return {
      id: c.id,
      name: c.name,
      env: c.env,
      team: c.team,
      region: c.region,
      labels: labelsOf(c.labels),
      eksName: c.eksName,
      eksStatus: c.eksStatus,
      supportType: c.supportType,
      version: history.version,
      kubernetesVersion: c.kubernetesVersion,
      platformVersion: c.platformVersion,
      reachability: clusterReachability(c),
      lastSuccessAt: c.lastSuccessAt,
      lastErrorKind: c.lastErrorKind,
      lastError: c.lastError,
      knowledgeRow: c,
      eksError: c.eksError,
      eksErrorSince: c.eksErrorSince,
      kubeletVersions: c.kubeletVersions,
      lastVersionChangeAt: vc.length ? vc[vc.length - 1].at : null,
      nodeGroups: groupsByCluster.get(c.id) ?? [],
      managedAddons: managedByCluster.get(c.id) ?? [],
      insights: insightsByCluster.get(c.id) ?? [],
      inventoryUses: usesByCluster.get(c.id) ?? [],
      helm: helmByCluster.get(c.id) ?? [],
    };
  });

  const hub = active.find((c) => c.role === "hub");
  return {
    loadedAt: now,
    clusters: upgradeClusters,
    hubReachable: hub ? isReachable(clusterReachability(hub)) : false,
    history: { clusters: historyClusters, releases: historyReleases, managed: historyManaged, catalog },
    upstream: new Map(
      upstream.rows.map((u) => [
        upstreamKey(u.repositoryUrl, u.chartName),
        {
          latestVersion: u.latestVersion,
          versions: Array.isArray(u.versions) ? u.versions.filter((v): v is string => typeof v === "string") : [],
          error: u.error,
          fetchedAt: iso(u.fetchedAt),
        },
      ]),
    ),
    versionInfo,
    catalog,
    knownVersions: [
      ...new Set([
        ...versionInfo.keys(),
        ...EKS_CALENDAR.map((e) => e.version),
        ...historyClusters.flatMap((c) => (c.version ? [c.version] : [])),
      ]),
    ],
    memo: new Map(),
  };
}

const cache = changeCache("upgrade-data", () => loadUpgradeData());

/** The data as of the last change: cached per change in the web server, read afresh by scripts and tests. */
export function getUpgradeData(): Promise<UpgradeData> {
  return cache.get();
}
