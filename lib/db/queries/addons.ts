// The add-on × cluster matrix, now or as it was at a past instant. Helm add-ons are grouped by the
// repository each HelmRelease's source really points at (resolved here, in the same cluster), plus
// EKS managed add-ons and Flux itself.
import {
  buildAddonMatrix,
  shareCurrent,
  upstreamKey,
  type HelmInstallation,
  type MatrixRow,
  type UpstreamInfo,
} from "../../upgrades/addon-matrix";
import { resolveChartSource, sourceKey, type SourceObject } from "../../upgrades/chart-source";
import { newestVersion } from "../../upgrades/versions";
import { toCatalogVersions } from "../../upgrades/managed-addons";
import { releaseVersionAt, versionAt, type VersionChange } from "../../upgrades/timeline";
import { STANDINGS, type Standing } from "../../upgrades/standing";
import { controlPlaneMinor, kubernetesMinor } from "../../upgrades/versions";
import { clusterPath } from "../../fleet/urls";
import { getPrisma } from "../client";
import { iso } from "./shared";

type Prisma = ReturnType<typeof getPrisma>;

export const GROUP_BY = ["none", "env", "team", "region"] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export interface MatrixCluster {
  name: string;
  url: string;
  env: string | null;
  team: string | null;
  region: string | null;
  kubernetesVersion: string | null;
}

export interface AddonMatrixView {
  generatedAt: string;
  /** The instant the matrix shows; null = now. */
  at: string | null;
  clusters: MatrixCluster[];
  rows: MatrixRow[];
  summary: {
    addons: number;
    installations: number;
    byStanding: Record<Standing, number>;
    skewedAddons: number;
    onLatest: number;
    withKnownLatest: number;
    unreadableRepositories: { repository: string; chart: string; error: string }[];
  };
}

const FAILING = new Set(["failing", "stalled"]);

export interface HelmData {
  installations: HelmInstallation[];
  upstream: Map<string, UpstreamInfo>;
}

interface LoadOptions {
  /** Past instant: versions are rebuilt from history. */
  at?: Date;
  clusterIds?: number[];
}

/** HelmReleases with their resolved repository and applied version, and the upstream versions known. */
export async function loadHelmData(prisma: Prisma, clusterNames: Map<number, string>, options: LoadOptions = {}): Promise<HelmData> {
  const at = options.at;
  const clusterFilter = options.clusterIds ? { clusterId: { in: options.clusterIds } } : {};
  const [releases, sourceRows, upstreamRows] = await Promise.all([
    prisma.fluxObject.findMany({
      where: {
        kind: "HelmRelease",
        ...clusterFilter,
        ...(at ? { OR: [{ deletedAt: null }, { deletedAt: { gt: at } }], firstSeenAt: { lte: at } } : { deletedAt: null }),
      },
      select: {
        id: true,
        clusterId: true,
        namespace: true,
        name: true,
        chartName: true,
        chartVersion: true,
        appliedRevision: true,
        desiredChartVersion: true,
        health: true,
        sourceKind: true,
        sourceName: true,
        sourceNamespace: true,
        firstSeenAt: true,
        deletedAt: true,
      },
      orderBy: [{ namespace: "asc" }, { name: "asc" }],
    }),
    prisma.fluxObject.findMany({
      where: { kind: { in: ["HelmRepository", "OCIRepository"] }, ...clusterFilter },
      select: { clusterId: true, kind: true, namespace: true, name: true, url: true, spec: true, deletedAt: true },
      orderBy: { deletedAt: { sort: "desc", nulls: "first" } },
    }),
    prisma.chartUpstream.findMany(),
  ]);
  const sources = new Map<string, SourceObject>();
  for (const s of sourceRows) {
    const key = sourceKey(s.clusterId, s.kind, s.namespace, s.name);
    if (!sources.has(key)) sources.set(key, s); // live sources sort first
  }
  const transitions = at
    ? await prisma.fluxObjectTransition.findMany({
        where: { objectId: { in: releases.map((r) => r.id) }, at: { lte: at } },
        select: { objectId: true, at: true, change: true, chartVersion: true, appliedRevision: true, health: true },
        orderBy: { at: "asc" },
      })
    : [];
  const byObject = new Map<bigint, typeof transitions>();
  for (const t of transitions) byObject.set(t.objectId, [...(byObject.get(t.objectId) ?? []), t]);

  const installations: HelmInstallation[] = [];
  for (const r of releases) {
    const cluster = clusterNames.get(r.clusterId);
    if (!cluster) continue;
    const source = resolveChartSource(r, sources);
    let applied = r.appliedRevision ?? r.chartVersion;
    let failing = FAILING.has(r.health);
    if (at) {
      const then = releaseVersionAt(
        {
          firstSeenAt: r.firstSeenAt,
          deletedAt: r.deletedAt,
          current: applied,
          transitions: (byObject.get(r.id) ?? []).map((t) => ({
            at: t.at,
            change: t.change,
            chartVersion: t.appliedRevision ?? t.chartVersion,
            health: t.health,
          })),
        },
        at,
      );
      if (!then.present) continue;
      applied = then.version;
      failing = then.health ? FAILING.has(then.health) : failing;
    }
    installations.push({
      cluster,
      namespace: r.namespace,
      name: r.name,
      chart: r.chartName ?? r.name,
      repositoryUrl: source?.repositoryUrl ?? null,
      desired: r.desiredChartVersion,
      applied,
      failing,
    });
  }
  const upstream = new Map<string, UpstreamInfo>(
    upstreamRows.map((u) => [
      upstreamKey(u.repositoryUrl, u.chartName),
      {
        latestVersion: u.latestVersion,
        versions: Array.isArray(u.versions) ? (u.versions as string[]) : [],
        error: u.error,
        fetchedAt: iso(u.fetchedAt),
      },
    ]),
  );
  return { installations, upstream };
}

export async function getAddonMatrix(options: { at?: Date; now?: Date } = {}): Promise<AddonMatrixView> {
  const prisma = getPrisma();
  const now = options.now ?? new Date();
  const at = options.at && options.at.getTime() < now.getTime() ? options.at : undefined;

  const clusterRows = await prisma.cluster.findMany({
    where: at ? { firstSeenAt: { lte: at }, OR: [{ goneAt: null }, { goneAt: { gt: at } }] } : { lifecycle: "active" },
    select: { id: true, name: true, env: true, team: true, region: true, kubernetesVersion: true, eksVersion: true, fluxVersion: true },
    orderBy: { name: "asc" },
  });
  const names = new Map(clusterRows.map((c) => [c.id, c.name]));
  const ids = clusterRows.map((c) => c.id);

  const [helm, addons, catalogs, changes] = await Promise.all([
    loadHelmData(prisma, names, { at }),
    prisma.managedAddon.findMany({ where: { clusterId: { in: ids }, ...(at ? {} : { deletedAt: null }) }, orderBy: { name: "asc" } }),
    prisma.addonVersionCatalog.findMany(),
    at
      ? prisma.clusterVersionChange.findMany({
          where: { clusterId: { in: ids }, component: { in: ["kubernetes", "eks", "addon", "flux"] } },
          orderBy: { at: "asc" },
        })
      : Promise.resolve([]),
  ]);

  // "kubernetes" also takes the EKS control-plane changes ("eks"): the same version seen two ways.
  const changesOf = (clusterId: number, component: string, subject = ""): VersionChange[] =>
    changes
      .filter(
        (c) =>
          c.clusterId === clusterId &&
          (c.component === component || (component === "kubernetes" && c.component === "eks")) &&
          c.subject === subject,
      )
      .map((c) => ({ at: c.at, from: c.fromVersion, to: c.toVersion }));
  const then = <T extends string | null>(clusterId: number, component: string, current: T, subject = ""): string | null =>
    at ? versionAt(changesOf(clusterId, component, subject), current, at) : current;

  const clusters: MatrixCluster[] = clusterRows.map((c) => ({
    name: c.name,
    url: clusterPath(c.name),
    env: c.env,
    team: c.team,
    region: c.region,
    kubernetesVersion: kubernetesMinor(then(c.id, "kubernetes", controlPlaneMinor(c.eksVersion, c.kubernetesVersion))),
  }));
  const minorOf = new Map(clusterRows.map((c, i) => [c.id, clusters[i].kubernetesVersion]));

  const catalog = new Map(catalogs.map((c) => [`${c.addonName}@${c.kubernetesVersion}`, toCatalogVersions(c.versions)]));
  const managed = addons.flatMap((a) => {
    if (!at && a.deletedAt) return [];
    const version = then(a.clusterId, "addon", a.deletedAt && at && a.deletedAt <= at ? null : a.version, a.name);
    if (!version) return [];
    const list = catalog.get(`${a.name}@${minorOf.get(a.clusterId)}`);
    return [
      {
        cluster: names.get(a.clusterId)!,
        name: a.name,
        version,
        failing: !at && ["CREATE_FAILED", "UPDATE_FAILED", "DEGRADED"].includes((a.status ?? "").toUpperCase()),
        latestCompatible: list
          ? newestVersion(
              list.map((v) => v.addonVersion),
              { includePrerelease: true },
            )
          : null,
      },
    ];
  });
  const flux = clusterRows.map((c) => ({ cluster: c.name, version: then(c.id, "flux", c.fluxVersion) }));

  const rows = buildAddonMatrix({
    clusters: clusters.map((c) => c.name),
    helm: helm.installations,
    upstream: helm.upstream,
    managed,
    flux,
  });
  const byStanding = Object.fromEntries(STANDINGS.map((s) => [s, 0])) as Record<Standing, number>;
  for (const r of rows) for (const s of STANDINGS) byStanding[s] += r.counts[s];
  const share = shareCurrent(rows);
  return {
    generatedAt: now.toISOString(),
    at: at ? at.toISOString() : null,
    clusters,
    rows,
    summary: {
      addons: rows.length,
      installations: rows.reduce((n, r) => n + Object.values(r.cells).filter((c) => c.standing !== "missing").length, 0),
      byStanding,
      skewedAddons: rows.filter((r) => r.skew).length,
      onLatest: share.current,
      withKnownLatest: share.installed,
      unreadableRepositories: rows
        .filter((r) => r.kind === "helm" && r.upstreamError)
        .map((r) => ({ repository: r.repository ?? "(unresolved source)", chart: r.label, error: r.upstreamError! })),
    },
  };
}

/** Groups cluster columns by env, team or region (clusters without the label go last, as "—"). */
export function groupClusters(clusters: readonly MatrixCluster[], by: GroupBy): { group: string; clusters: MatrixCluster[] }[] {
  if (by === "none") return [{ group: "", clusters: [...clusters] }];
  const groups = new Map<string, MatrixCluster[]>();
  for (const c of clusters) {
    const key = c[by] ?? "—";
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === "—" ? 1 : b === "—" ? -1 : a.localeCompare(b)))
    .map(([group, cs]) => ({ group, clusters: cs }));
}
