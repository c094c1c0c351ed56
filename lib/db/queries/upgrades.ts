// Upgrade readiness, support deadlines and extended-support cost per cluster and for the fleet. Reads
// what the collector stored (cluster, node groups, managed add-ons, DescribeAddonVersions,
// DescribeClusterVersions, Upgrade Insights, Flux inventories) and hands it to the pure rules.
import { upstreamKey } from "../../upgrades/addon-matrix";
import { calendarEntry } from "../../upgrades/eks-calendar";
import { managedAddonStanding, toCatalogVersions, type ManagedAddonStanding } from "../../upgrades/managed-addons";
import { readiness, type Finding, type InsightInput, type Readiness, type RemovedApiFinding } from "../../upgrades/readiness";
import { findRemovedApis, inventoryRefs, REMOVED_APIS } from "../../upgrades/removed-apis";
import { kubeletGroupsFromCounts, skewReport, type KubeletGroup, type SkewReport } from "../../upgrades/skew";
import {
  crossesIntoExtendedSoon,
  EXTRA_USD_PER_CLUSTER_HOUR,
  EXTRA_USD_PER_CLUSTER_MONTH,
  fleetCost,
  monthlyExtendedSupportCostUSD,
  supportInfo,
  type ClusterVersionInfo,
  type FleetCost,
  type SupportInfo,
} from "../../upgrades/support";
import { controlPlaneMinor, kubernetesMinor, nextMinor } from "../../upgrades/versions";
import { clusterReachability, isReachable, type Reachability } from "../../fleet/status";
import { clusterPath, objectPath } from "../../fleet/urls";
import { getPool, getPrisma } from "../client";
import { loadHelmData } from "./addons";
import { iso } from "./shared";

export interface ClusterUpgrade {
  name: string;
  url: string;
  upgradeUrl: string;
  env: string | null;
  team: string | null;
  region: string | null;
  reachability: Reachability;
  eksStatus: string | null;
  /** Control-plane minor ("1.33"): the EKS version, else the API server's. */
  version: string | null;
  kubernetesVersion: string | null;
  platformVersion: string | null;
  supportType: string | null;
  versionStatus: SupportInfo["versionStatus"];
  endOfStandardSupport: string | null;
  endOfExtendedSupport: string | null;
  daysToEndOfStandardSupport: number | null;
  daysToEndOfExtendedSupport: number | null;
  inExtendedSupport: boolean;
  /** Extra per month over standard support, now ($0 unless in extended support). */
  monthlyExtendedSupportCostUSD: number;
  /** Enters extended support (and billing) within the next 90 days. */
  crossesIntoExtendedSoon: boolean;
  supportSource: SupportInfo["source"];
  next: string | null;
  /** outsidePolicyNow: some kubelet is newer than the control plane or more than 3 minors older. */
  skew: {
    maxBehindNow: number;
    maxBehindNext: number;
    outsidePolicyNow: boolean;
    kubelets: { source: string; minor: string; nodes: number | null; behindNow: number; behindNext: number; blocksNext: boolean }[];
  } | null;
  blockers: Finding[];
  warnings: Finding[];
  ready: boolean;
}

export interface UpgradesOverview {
  generatedAt: string;
  clusters: ClusterUpgrade[];
  totals: FleetCost & {
    clusters: number;
    byVersion: Record<string, number>;
    byStatus: { standard: number; extended: number; unsupported: number; unknown: number };
    clustersWithBlockers: number;
    blockers: number;
    ready: number;
    extraPerClusterHourUSD: number;
    extraPerClusterMonthUSD: number;
  };
}

export interface ClusterReadinessView extends ClusterUpgrade {
  readiness: Readiness;
  skewReport: SkewReport | null;
  nodeGroups: { name: string; version: string | null; releaseVersion: string | null; status: string | null; desiredSize: number | null }[];
  managedAddons: ManagedAddonStanding[];
  insights: (InsightInput & { description: string | null; lastRefreshTime: string | null })[];
  removedApis: (RemovedApiFinding & { ownerUrl: string })[];
}

const REMOVED_VERSIONS = [...new Set(REMOVED_APIS.map((a) => a.version))];

interface Facts {
  overview: ClusterUpgrade;
  costInput: { support: SupportInfo | null; supportType: string | null };
  readiness: Readiness;
  skew: SkewReport | null;
  nodeGroups: ClusterReadinessView["nodeGroups"];
  managedAddons: ManagedAddonStanding[];
  insights: ClusterReadinessView["insights"];
  removedApis: ClusterReadinessView["removedApis"];
}

async function loadFacts(now: Date, onlyCluster?: string): Promise<Facts[]> {
  const prisma = getPrisma();
  const clusters = await prisma.cluster.findMany({
    where: { lifecycle: "active", ...(onlyCluster ? { name: onlyCluster } : {}) },
    orderBy: { name: "asc" },
  });
  if (!clusters.length) return [];
  const ids = clusters.map((c) => c.id);
  const names = new Map(clusters.map((c) => [c.id, c.name]));
  const [versions, nodeGroups, addons, catalogs, insights, helm, removedRows] = await Promise.all([
    prisma.eksVersion.findMany(),
    prisma.nodeGroup.findMany({ where: { clusterId: { in: ids }, deletedAt: null }, orderBy: { name: "asc" } }),
    prisma.managedAddon.findMany({ where: { clusterId: { in: ids }, deletedAt: null }, orderBy: { name: "asc" } }),
    prisma.addonVersionCatalog.findMany(),
    prisma.upgradeInsight.findMany({ where: { clusterId: { in: ids } }, orderBy: { name: "asc" } }),
    loadHelmData(prisma, names, { clusterIds: ids }),
    // Only inventory entries whose version appears in the removed-API table: the rest cannot match.
    getPool().query<{ clusterId: number; kind: string; namespace: string; name: string; id: string; v: string }>(
      `SELECT o."clusterId", o.kind, o.namespace, o.name, e->>'id' AS id, e->>'v' AS v
       FROM flux_object o,
            jsonb_array_elements(CASE WHEN jsonb_typeof(o.inventory) = 'array' THEN o.inventory
                                      WHEN jsonb_typeof(o.inventory->'entries') = 'array' THEN o.inventory->'entries'
                                      ELSE '[]'::jsonb END) e
       WHERE o."deletedAt" IS NULL AND o.kind IN ('Kustomization', 'HelmRelease') AND o."clusterId" = ANY($1)
         AND e->>'v' = ANY($2)
       ORDER BY o.kind, o.namespace, o.name`,
      [ids, REMOVED_VERSIONS],
    ),
  ]);
  const versionInfo = new Map<string, ClusterVersionInfo>(versions.map((v) => [v.clusterVersion, v]));
  const catalog = new Map(catalogs.map((c) => [`${c.addonName}@${c.kubernetesVersion}`, toCatalogVersions(c.versions)]));
  const upstreamLatest = (repositoryUrl: string, chart: string) =>
    helm.upstream.get(upstreamKey(repositoryUrl, chart))?.latestVersion ?? null;

  return clusters.map((c) => {
    const reachability = clusterReachability(c);
    const version = controlPlaneMinor(c.eksVersion, c.kubernetesVersion);
    const support = supportInfo(version, version ? versionInfo.get(version) : null, now);
    const next = version ? nextMinor(version) : null;
    const nextAvailable = !!next && (versionInfo.has(next) || calendarEntry(next) !== null);

    const groups = nodeGroups.filter((g) => g.clusterId === c.id);
    // The node group's Kubernetes version, not its release version (Bottlerocket numbers its own: 1.49.0-…).
    const kubelets: KubeletGroup[] = groups
      .filter((g) => g.version)
      .map((g) => ({ source: g.name, version: g.version!, nodes: g.desiredSize }));
    const covered = new Set(kubelets.map((k) => kubernetesMinor(k.version)));
    // Nodes outside managed node groups (self-managed, Karpenter) show up only in the kubelet counts.
    for (const k of kubeletGroupsFromCounts(c.kubeletVersions)) if (!covered.has(kubernetesMinor(k.version))) kubelets.push(k);
    const skew = version ? skewReport(version, kubelets) : null;

    const managed = addons
      .filter((a) => a.clusterId === c.id)
      .map((a) =>
        managedAddonStanding(
          a,
          version ? (catalog.get(`${a.name}@${version}`) ?? null) : null,
          next ? (catalog.get(`${a.name}@${next}`) ?? null) : null,
        ),
      );

    const clusterInsights = insights.filter((i) => i.clusterId === c.id);
    const refs = removedRows.rows.filter((r) => r.clusterId === c.id);
    const removedApis = next
      ? refs.flatMap((r) =>
          findRemovedApis(inventoryRefs([{ id: r.id, v: r.v }]), next).map((u) => ({
            ...u,
            owner: { kind: r.kind, namespace: r.namespace, name: r.name },
            ownerUrl: objectPath({ cluster: c.name, kind: r.kind, namespace: r.namespace, name: r.name }),
          })),
        )
      : [];
    const helmAddons = helm.installations
      .filter((h) => h.cluster === c.name)
      .map((h) => ({
        name: h.name,
        namespace: h.namespace,
        chart: h.chart,
        applied: h.applied,
        latest: h.repositoryUrl ? upstreamLatest(h.repositoryUrl, h.chart) : null,
        failing: h.failing,
      }));

    const result = readiness({
      cluster: c.eksName ?? c.name,
      controlPlane: version,
      nextAvailable,
      eksStatus: c.eksStatus,
      reachable: isReachable(reachability),
      support,
      skew,
      insights: clusterInsights,
      managedAddons: managed,
      removedApis,
      helmAddons,
      nodeGroups: groups.map((g) => ({ name: g.name, version: g.version })),
    });
    const costInput = { support, supportType: c.supportType };
    const overview: ClusterUpgrade = {
      name: c.name,
      url: clusterPath(c.name),
      upgradeUrl: `/upgrades/${encodeURIComponent(c.name)}`,
      env: c.env,
      team: c.team,
      region: c.region,
      reachability,
      eksStatus: c.eksStatus,
      version,
      kubernetesVersion: c.kubernetesVersion,
      platformVersion: c.platformVersion,
      supportType: c.supportType,
      versionStatus: support?.versionStatus ?? null,
      endOfStandardSupport: support?.endOfStandardSupport ?? null,
      endOfExtendedSupport: support?.endOfExtendedSupport ?? null,
      daysToEndOfStandardSupport: support?.daysToEndOfStandardSupport ?? null,
      daysToEndOfExtendedSupport: support?.daysToEndOfExtendedSupport ?? null,
      inExtendedSupport: support?.inExtendedSupport ?? false,
      monthlyExtendedSupportCostUSD: monthlyExtendedSupportCostUSD(costInput),
      crossesIntoExtendedSoon: crossesIntoExtendedSoon(costInput),
      supportSource: support?.source ?? "none",
      next: result.next,
      skew: skew
        ? {
            maxBehindNow: skew.maxBehindNow,
            maxBehindNext: skew.maxBehindNext,
            outsidePolicyNow: skew.groups.some((g) => g.violatesNow),
            kubelets: skew.groups.map((g) => ({
              source: g.source,
              minor: g.minor,
              nodes: g.nodes,
              behindNow: g.behindNow,
              behindNext: g.behindNext,
              blocksNext: g.blocksNext,
            })),
          }
        : null,
      blockers: result.blockers,
      warnings: result.warnings,
      ready: result.ready,
    };
    return {
      overview,
      costInput,
      readiness: result,
      skew,
      nodeGroups: groups.map((g) => ({
        name: g.name,
        version: g.version,
        releaseVersion: g.releaseVersion,
        status: g.status,
        desiredSize: g.desiredSize,
      })),
      managedAddons: managed,
      insights: clusterInsights.map((i) => ({
        name: i.name,
        category: i.category,
        status: i.status,
        reason: i.reason,
        kubernetesVersion: i.kubernetesVersion,
        recommendation: i.recommendation,
        description: i.description,
        lastRefreshTime: iso(i.lastRefreshTime),
      })),
      removedApis,
    };
  });
}

export async function getUpgradesOverview(now = new Date()): Promise<UpgradesOverview> {
  const facts = await loadFacts(now);
  const clusters = facts.map((f) => f.overview);
  const cost = fleetCost(facts.map((f) => f.costInput));
  const byVersion: Record<string, number> = {};
  for (const c of clusters) if (c.version) byVersion[c.version] = (byVersion[c.version] ?? 0) + 1;
  // Most urgent first: extended support, then fewest days left, then blockers.
  clusters.sort(
    (a, b) =>
      Number(b.inExtendedSupport) - Number(a.inExtendedSupport) ||
      (a.daysToEndOfStandardSupport ?? Infinity) - (b.daysToEndOfStandardSupport ?? Infinity) ||
      b.blockers.length - a.blockers.length ||
      a.name.localeCompare(b.name),
  );
  return {
    generatedAt: now.toISOString(),
    clusters,
    totals: {
      ...cost,
      clusters: clusters.length,
      byVersion,
      byStatus: {
        standard: clusters.filter((c) => c.versionStatus === "STANDARD_SUPPORT").length,
        extended: clusters.filter((c) => c.versionStatus === "EXTENDED_SUPPORT").length,
        unsupported: clusters.filter((c) => c.versionStatus === "UNSUPPORTED").length,
        unknown: clusters.filter((c) => !c.versionStatus).length,
      },
      clustersWithBlockers: clusters.filter((c) => c.blockers.length > 0).length,
      blockers: clusters.reduce((n, c) => n + c.blockers.length, 0),
      ready: clusters.filter((c) => c.ready).length,
      extraPerClusterHourUSD: EXTRA_USD_PER_CLUSTER_HOUR,
      extraPerClusterMonthUSD: EXTRA_USD_PER_CLUSTER_MONTH,
    },
  };
}

export async function getClusterReadiness(name: string, now = new Date()): Promise<ClusterReadinessView | null> {
  const [f] = await loadFacts(now, name);
  if (!f) return null;
  return {
    ...f.overview,
    readiness: f.readiness,
    skewReport: f.skew,
    nodeGroups: f.nodeGroups,
    managedAddons: f.managedAddons,
    insights: f.insights,
    removedApis: f.removedApis,
  };
}
