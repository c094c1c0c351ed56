// Daily upgrade trends rebuilt from the stored history (cluster_version_change for Kubernetes versions,
// flux_object_transition for Helm chart versions). Nothing is sampled: each day is what the history
// says was running at the end of that day (or now, for today).
import { upstreamKey } from "../../upgrades/addon-matrix";
import { resolveChartSource, sourceKey, type SourceObject } from "../../upgrades/chart-source";
import type { ClusterVersionInfo } from "../../upgrades/support";
import { controlPlaneMinor } from "../../upgrades/versions";
import { trendSeries, type TrendPoint, type TrendRelease } from "../../upgrades/timeline";
import { getPrisma } from "../client";

export interface UpgradeTrends {
  generatedAt: string;
  from: string;
  to: string;
  days: number;
  points: TrendPoint[];
  /** Every Kubernetes minor seen in the range, oldest first (chart series order). */
  versions: string[];
  /** First day with any recorded history (earlier days only repeat today's state). */
  historySince: string | null;
}

export const TREND_DAY_OPTIONS = [7, 30, 90, 365] as const;

export async function getUpgradeTrends(options: { days?: number; now?: Date } = {}): Promise<UpgradeTrends> {
  const prisma = getPrisma();
  const now = options.now ?? new Date();
  const days = Math.min(Math.max(options.days ?? 30, 1), 400);
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));

  const [clusters, changes, releases, sourceRows, upstream, versions, firstChange] = await Promise.all([
    prisma.cluster.findMany({
      select: { id: true, name: true, firstSeenAt: true, goneAt: true, kubernetesVersion: true, eksVersion: true },
    }),
    // The API server's version (kubernetes) and the EKS control-plane version (eks) tell the same story.
    prisma.clusterVersionChange.findMany({ where: { component: { in: ["kubernetes", "eks"] } }, orderBy: { at: "asc" } }),
    prisma.fluxObject.findMany({
      where: { kind: "HelmRelease", OR: [{ deletedAt: null }, { deletedAt: { gte: from } }] },
      select: {
        id: true,
        clusterId: true,
        namespace: true,
        chartName: true,
        chartVersion: true,
        appliedRevision: true,
        sourceKind: true,
        sourceName: true,
        sourceNamespace: true,
        firstSeenAt: true,
        deletedAt: true,
      },
    }),
    prisma.fluxObject.findMany({
      where: { kind: { in: ["HelmRepository", "OCIRepository"] } },
      select: { clusterId: true, kind: true, namespace: true, name: true, url: true, spec: true },
    }),
    prisma.chartUpstream.findMany({ where: { latestVersion: { not: null } } }),
    prisma.eksVersion.findMany(),
    prisma.clusterVersionChange.findFirst({ orderBy: { at: "asc" }, select: { at: true } }),
  ]);
  const transitions = await prisma.fluxObjectTransition.findMany({
    where: { objectId: { in: releases.map((r) => r.id) } },
    select: { objectId: true, at: true, change: true, chartVersion: true, appliedRevision: true },
    orderBy: { at: "asc" },
  });

  const sources = new Map<string, SourceObject>(sourceRows.map((s) => [sourceKey(s.clusterId, s.kind, s.namespace, s.name), s]));
  const byObject = new Map<bigint, TrendRelease["transitions"][number][]>();
  for (const t of transitions)
    byObject.set(t.objectId, [
      ...(byObject.get(t.objectId) ?? []),
      { at: t.at, change: t.change, chartVersion: t.appliedRevision ?? t.chartVersion },
    ]);
  const trendReleases: TrendRelease[] = releases.flatMap((r) => {
    const src = resolveChartSource(r, sources);
    if (!r.chartName) return [];
    return [
      {
        cluster: String(r.clusterId),
        key: src ? upstreamKey(src.repositoryUrl, src.chart) : `?#${r.chartName}`,
        firstSeenAt: r.firstSeenAt,
        deletedAt: r.deletedAt,
        current: r.appliedRevision ?? r.chartVersion,
        transitions: byObject.get(r.id) ?? [],
      },
    ];
  });

  const points = trendSeries({
    clusters: clusters.map((c) => ({
      name: c.name,
      firstSeenAt: c.firstSeenAt,
      goneAt: c.goneAt,
      currentVersion: controlPlaneMinor(c.eksVersion, c.kubernetesVersion),
      changes: changes.filter((x) => x.clusterId === c.id).map((x) => ({ at: x.at, from: x.fromVersion, to: x.toVersion })),
    })),
    releases: trendReleases,
    latestByKey: new Map(upstream.map((u) => [upstreamKey(u.repositoryUrl, u.chartName), u.latestVersion!])),
    versionInfo: new Map<string, ClusterVersionInfo>(versions.map((v) => [v.clusterVersion, v])),
    from,
    to: now,
    now,
  });
  const seen = new Set(points.flatMap((p) => Object.keys(p.byVersion)));
  const firstTransition = transitions[0]?.at;
  const since = [firstChange?.at, firstTransition, ...clusters.map((c) => c.firstSeenAt)]
    // A timestamp the database client could not read (year 1 BC, infinity) is no answer to "since when".
    .filter((d): d is Date => !!d && !Number.isNaN(d.getTime()))
    .sort((a, b) => a.getTime() - b.getTime())[0];
  return {
    generatedAt: now.toISOString(),
    from: from.toISOString().slice(0, 10),
    to: now.toISOString().slice(0, 10),
    days,
    points,
    versions: [...seen].sort((a, b) => Number(a.split(".")[1]) - Number(b.split(".")[1])),
    historySince: since ? since.toISOString().slice(0, 10) : null,
  };
}
