// Upgrade readiness, support deadlines and extended-support cost per cluster and for the fleet, and the
// manager's date question, derived from the upgrade data (upgrade-data.ts) by the pure rules.
import { upstreamKey } from "../../upgrades/addon-matrix";
import { answerDeadline, type DeadlineAnswer, type DeadlineQuery } from "../../upgrades/deadline";
import { clusterFigures, newestAvailable, type ClusterFigures } from "../../upgrades/fleet-figures";
import { describeKnowledge } from "../../upgrades/known-version";
import { eksFactsNote } from "../../upgrades/eks-facts-source";
import type { ClusterVersionKnowledge } from "../../fleet/cluster-facts";
import { managedAddonStanding, type ManagedAddonStanding } from "../../upgrades/managed-addons";
import { readiness, type Finding, type InsightInput, type Readiness, type RemovedApiFinding } from "../../upgrades/readiness";
import { inventoryRefs, removedApiUses } from "../../upgrades/removed-apis";
import { kubeletGroupsFromCounts, skewReport, type KubeletGroup, type SkewReport } from "../../upgrades/skew";
import {
  billedAsExtended,
  crossesIntoExtendedSoon,
  EXTRA_USD_PER_CLUSTER_HOUR,
  EXTRA_USD_PER_CLUSTER_MONTH,
  fleetCost,
  monthlyExtendedSupportCostUSD,
  supportInfo,
  type FleetCost,
  type SupportInfo,
} from "../../upgrades/support";
import { compareVersions, kubernetesMinor, nextVersionOf } from "../../upgrades/versions";
import { isReachable, type Reachability } from "../../fleet/status";
import { clusterPath, objectPath } from "../../fleet/urls";
import { derived, getUpgradeData, type UpgradeCluster, type UpgradeData, type UpgradeInsightRow } from "./upgrade-data";
import { versionKnowledgeOf } from "./shared";

export interface ClusterUpgrade {
  name: string;
  url: string;
  upgradeUrl: string;
  env: string | null;
  team: string | null;
  region: string | null;
  reachability: Reachability;
  eksStatus: string | null;
  /** Control-plane minor ("1.33") we know: observed now, last known, or desired (being created); null = unknown. */
  version: string | null;
  /** How we know the version and from where (EKS API, Crossplane, /version), how old that is, why it is not observed now. */
  knowledge: ClusterVersionKnowledge;
  /** Where its EKS facts come from when not the EKS API answering now ("from Crossplane (EKS API refused: …)"). */
  eksFactsNote: string | null;
  /** "1.34", "1.34 (last known, 3 h ago)", "unknown — never reached yet". */
  versionLabel: string;
  kubernetesVersion: string | null;
  platformVersion: string | null;
  supportType: string | null;
  versionStatus: SupportInfo["versionStatus"];
  endOfStandardSupport: string | null;
  endOfExtendedSupport: string | null;
  daysToEndOfStandardSupport: number | null;
  daysToEndOfExtendedSupport: number | null;
  inExtendedSupport: boolean;
  /** Past end of extended support: EKS's automatic upgrade is due since endOfExtendedSupport. */
  pastExtendedSupport: boolean;
  /**
   * Extra per month over standard support now (extended support or past it). For a cluster whose version is
   * not observed now, an estimate from what we know, never summed with the fleet (costKnown false); null
   * when nothing is known.
   */
  monthlyExtendedSupportCostUSD: number | null;
  costKnown: boolean;
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
  /** APIs in its inventories removed after N+1. */
  upcoming: Finding[];
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
    /** Clusters whose version is not observed now: not in the sums above, counted apart. */
    unknownCost: { clusters: number; names: string[]; estimatedExtraPerMonthUSD: number };
  };
  figures: ClusterFigures;
}

export interface ClusterReadinessView extends ClusterUpgrade {
  readiness: Readiness;
  skewReport: SkewReport | null;
  nodeGroups: { name: string; version: string | null; releaseVersion: string | null; status: string | null; desiredSize: number | null }[];
  managedAddons: ManagedAddonStanding[];
  insights: (InsightInput & { description: string | null; lastRefreshTime: string | null })[];
  /** Every inventory entry on a removed or deprecated API, with its removal version and stage. */
  removedApis: (RemovedApiFinding & { ownerUrl: string })[];
}

export interface Facts {
  view: ClusterReadinessView;
  costInput: { support: SupportInfo | null; supportType: string | null };
}

function insightOf(i: UpgradeInsightRow) {
  return {
    name: i.name,
    category: i.category,
    status: i.status,
    reason: i.reason,
    kubernetesVersion: i.kubernetesVersion,
    recommendation: i.recommendation,
    description: i.description,
    lastRefreshTime: i.lastRefreshTime,
  };
}

const knowledgeAt = (data: UpgradeData, c: UpgradeCluster, now: Date) =>
  versionKnowledgeOf(c.knowledgeRow, data.hubReachable, now, c.lastVersionChangeAt);

function clusterFacts(data: UpgradeData, c: UpgradeCluster, now: Date): Facts {
  const knowledge = knowledgeAt(data, c, now);
  // Rules run on what we know (a last known version is still the best guess); sums take only observed ones.
  const version = knowledge.source === "desired" ? null : knowledge.version;
  const support = supportInfo(version, version ? data.versionInfo.get(version) : null, now);
  const next = nextVersionOf(version, data.knownVersions);

  // The node group's Kubernetes version, not its release version (Bottlerocket numbers its own: 1.49.0-…).
  const kubelets: KubeletGroup[] = c.nodeGroups
    .filter((g) => g.version)
    .map((g) => ({ source: g.name, version: g.version!, nodes: g.desiredSize }));
  const covered = new Set(kubelets.map((k) => kubernetesMinor(k.version)));
  // Nodes outside managed node groups (self-managed, Karpenter) show up only in the kubelet counts.
  for (const k of kubeletGroupsFromCounts(c.kubeletVersions)) if (!covered.has(kubernetesMinor(k.version))) kubelets.push(k);
  const skew = version ? skewReport(version, kubelets) : null;

  const managed = c.managedAddons.map((a) =>
    managedAddonStanding(
      a,
      version ? (data.catalog.get(`${a.name}@${version}`) ?? null) : null,
      next ? (data.catalog.get(`${a.name}@${next}`) ?? null) : null,
    ),
  );
  const removedApis = c.inventoryUses
    .flatMap((r) =>
      removedApiUses(inventoryRefs([{ id: r.id, v: r.v }]), version, next).map((u) => ({
        ...u,
        owner: { kind: r.kind, namespace: r.namespace, name: r.name },
        ownerUrl: objectPath({ cluster: r.holder || c.name, kind: r.kind, namespace: r.namespace, name: r.name }),
      })),
    )
    .sort((a, b) => compareVersions(a.removed.removedIn, b.removed.removedIn));
  const helmAddons = c.helm.map((h) => ({
    name: h.name,
    namespace: h.namespace,
    chart: h.chart,
    applied: h.applied,
    latest: h.repositoryUrl ? (data.upstream.get(upstreamKey(h.repositoryUrl, h.chart))?.latestVersion ?? null) : null,
    failing: h.failing,
  }));
  const insights = c.insights.map(insightOf);
  const result = readiness({
    cluster: c.eksName ?? c.name,
    controlPlane: version,
    next,
    eksStatus: c.eksStatus,
    reachable: isReachable(c.reachability),
    support,
    skew,
    insights,
    managedAddons: managed,
    removedApis,
    helmAddons,
    nodeGroups: c.nodeGroups.map((g) => ({ name: g.name, version: g.version })),
  });
  const costInput = { support, supportType: c.supportType };
  const view: ClusterReadinessView = {
    name: c.name,
    url: clusterPath(c.name),
    upgradeUrl: `/upgrades/${encodeURIComponent(c.name)}`,
    env: c.env,
    team: c.team,
    region: c.region,
    reachability: c.reachability,
    eksStatus: c.eksStatus,
    version: knowledge.version,
    knowledge,
    eksFactsNote: eksFactsNote(knowledge, c.eksError),
    versionLabel: describeKnowledge(knowledge),
    kubernetesVersion: c.kubernetesVersion,
    platformVersion: c.platformVersion,
    supportType: c.supportType,
    versionStatus: support?.versionStatus ?? null,
    endOfStandardSupport: support?.endOfStandardSupport ?? null,
    endOfExtendedSupport: support?.endOfExtendedSupport ?? null,
    daysToEndOfStandardSupport: support?.daysToEndOfStandardSupport ?? null,
    daysToEndOfExtendedSupport: support?.daysToEndOfExtendedSupport ?? null,
    inExtendedSupport: support?.inExtendedSupport ?? false,
    pastExtendedSupport: support?.pastExtendedSupport ?? false,
    monthlyExtendedSupportCostUSD: support ? monthlyExtendedSupportCostUSD(costInput) : null,
    costKnown: knowledge.current,
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
    upcoming: result.upcoming,
    ready: result.ready,
    readiness: result,
    skewReport: skew,
    nodeGroups: c.nodeGroups,
    managedAddons: managed,
    insights,
    removedApis,
  };
  return { view, costInput };
}

const minuteOf = (now: Date) => Math.floor(now.getTime() / 60_000);
const DAY_MS = 86_400_000;

interface DayFacts {
  facts: Facts[];
  /** The facts hold from the last UTC midnight or support date of a version in use before they were computed... */
  validFrom: number;
  /** ...to the next one. */
  validUntil: number;
}

/**
 * The facts that move only with whole UTC days and support dates (status, days left, cost, readiness):
 * computed once per copy of the data and day, not once a minute (a 1,000-cluster fleet takes most of a
 * second to evaluate).
 */
function dayFacts(data: UpgradeData, now: Date): DayFacts {
  const kept = data.memo.get("facts-day") as DayFacts | undefined;
  const t = now.getTime();
  if (kept && kept.validFrom <= t && t < kept.validUntil) return kept;
  const facts = data.clusters.map((c) => clusterFacts(data, c, now));
  let validFrom = Math.floor(t / DAY_MS) * DAY_MS;
  let validUntil = validFrom + DAY_MS;
  for (const { view } of facts)
    for (const date of [view.endOfStandardSupport, view.endOfExtendedSupport]) {
      const at = date ? Date.parse(date) : NaN;
      if (at > t && at < validUntil) validUntil = at;
      if (at <= t && at > validFrom) validFrom = at;
    }
  const value = { facts, validFrom, validUntil };
  data.memo.set("facts-day", value);
  return value;
}

/** Every active cluster's upgrade facts at `now` (in the order of data.clusters): the day's, with the age of what we know by the minute. */
export function upgradeFacts(data: UpgradeData, now: Date): Facts[] {
  const day = dayFacts(data, now);
  return derived(data, "facts", `${minuteOf(now)}@${day.validUntil}`, () =>
    day.facts.map((f, i) => {
      if (f.view.knowledge.source !== "last-known") return f;
      const knowledge = knowledgeAt(data, data.clusters[i], now);
      return { ...f, view: { ...f.view, knowledge, versionLabel: describeKnowledge(knowledge) } };
    }),
  );
}

function overviewOf(data: UpgradeData, now: Date): UpgradesOverview {
  const facts = upgradeFacts(data, now);
  const clusters = facts.map((f) => {
    const { readiness: _r, skewReport: _s, nodeGroups: _n, managedAddons: _m, insights: _i, removedApis: _a, ...overview } = f.view;
    return overview as ClusterUpgrade;
  });
  const known = facts.filter((f) => f.view.knowledge.current);
  const apart = facts.filter((f) => !f.view.knowledge.current);
  const cost = fleetCost(known.map((f) => f.costInput));
  const byVersion: Record<string, number> = {};
  for (const f of known) if (f.view.version) byVersion[f.view.version] = (byVersion[f.view.version] ?? 0) + 1;
  const versions = facts.map((f) => (f.view.knowledge.source === "desired" ? null : f.view.version));
  // Most urgent first: billed as extended, then fewest days left, then blockers; unknown versions last.
  clusters.sort(
    (a, b) =>
      Number(a.knowledge.source === "unknown") - Number(b.knowledge.source === "unknown") ||
      Number(billedAsExtendedView(b)) - Number(billedAsExtendedView(a)) ||
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
        standard: known.filter((f) => f.view.versionStatus === "STANDARD_SUPPORT").length,
        extended: known.filter((f) => f.view.versionStatus === "EXTENDED_SUPPORT").length,
        unsupported: known.filter((f) => f.view.versionStatus === "UNSUPPORTED").length,
        unknown: clusters.length - known.filter((f) => f.view.versionStatus).length,
      },
      clustersWithBlockers: clusters.filter((c) => c.blockers.length > 0).length,
      blockers: clusters.reduce((n, c) => n + c.blockers.length, 0),
      ready: clusters.filter((c) => c.ready).length,
      extraPerClusterHourUSD: EXTRA_USD_PER_CLUSTER_HOUR,
      extraPerClusterMonthUSD: EXTRA_USD_PER_CLUSTER_MONTH,
      unknownCost: {
        clusters: apart.length,
        names: apart.map((f) => f.view.name).sort(),
        estimatedExtraPerMonthUSD: apart.reduce((n, f) => n + (f.view.monthlyExtendedSupportCostUSD ?? 0), 0),
      },
    },
    figures: clusterFigures(versions, newestAvailable(data.versionInfo, versions, now)),
  };
}

const billedAsExtendedView = (c: Pick<ClusterUpgrade, "inExtendedSupport" | "pastExtendedSupport">) =>
  billedAsExtended({ inExtendedSupport: c.inExtendedSupport, pastExtendedSupport: c.pastExtendedSupport } as SupportInfo);

/** `now` is the moment the views are computed for (dates, ages); the data is the cached copy in the web server. */
export async function getUpgradesOverview(now?: Date): Promise<UpgradesOverview> {
  const data = await getUpgradeData();
  const at = now ?? new Date();
  return derived(data, "overview", minuteOf(at), () => overviewOf(data, at));
}

export async function getClusterReadiness(name: string, now?: Date): Promise<ClusterReadinessView | null> {
  const data = await getUpgradeData();
  const at = now ?? new Date();
  const i = data.clusters.findIndex((c) => c.name === name);
  return i === -1 ? null : upgradeFacts(data, at)[i].view;
}

/** The manager's question for a date, filtered by env / team / region. */
export async function getDeadlineAnswer(query: DeadlineQuery, now?: Date): Promise<DeadlineAnswer & { facets: Facets }> {
  const data = await getUpgradeData();
  const at = now ?? new Date();
  const facts = upgradeFacts(data, at);
  // Cheap once the facts are there, and queries vary: not kept.
  const answer = answerDeadline(
    facts.map((f) => ({
      name: f.view.name,
      env: f.view.env,
      team: f.view.team,
      region: f.view.region,
      knowledge: f.view.knowledge,
      support: f.costInput.support,
      supportType: f.costInput.supportType,
    })),
    query,
    at,
  );
  return { ...answer, facets: facetsOf(data) };
}

export interface Facets {
  envs: string[];
  teams: string[];
  regions: string[];
}

export function facetsOf(data: UpgradeData): Facets {
  return derived(data, "facets", 0, () => {
    const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v))].sort();
    return {
      envs: distinct(data.clusters.map((c) => c.env)),
      teams: distinct(data.clusters.map((c) => c.team)),
      regions: distinct(data.clusters.map((c) => c.region)),
    };
  });
}
