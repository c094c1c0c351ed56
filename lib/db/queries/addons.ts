// The add-on × cluster matrix, now or as it was at a past instant, from the upgrade data: Helm charts by
// name (each release looked up in the repository it really uses), EKS managed add-ons, Flux itself.
import { buildAddonMatrix, type MatrixRow } from "../../upgrades/addon-matrix";
import { addonFigures, clusterFigures, newestAvailable, type AddonFigures, type ClusterFigures } from "../../upgrades/fleet-figures";
import { matrixInputAt } from "../../upgrades/fleet-history";
import { STANDINGS, type Standing } from "../../upgrades/standing";
import { clusterPath } from "../../fleet/urls";
import { derived, getUpgradeData, nowStamp, type UpgradeData } from "./upgrade-data";

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
  summary: AddonFigures & {
    byStanding: Record<Standing, number>;
    skewedAddons: number;
    unreadableRepositories: { repository: string; chart: string; error: string }[];
  };
  /** The same cluster figures as /, /upgrades and /upgrades/trends for this instant. */
  figures: ClusterFigures;
}

function matrixAt(data: UpgradeData, t: number, now: Date): AddonMatrixView {
  const input = matrixInputAt(data.history, t, now.getTime());
  const clusters: MatrixCluster[] = input.clusters.map((c) => ({
    name: c.name,
    url: clusterPath(c.name),
    env: c.env,
    team: c.team,
    region: c.region,
    kubernetesVersion: input.minorOf.get(c.name) ?? null,
  }));
  const rows = buildAddonMatrix({
    clusters: clusters.map((c) => c.name),
    helm: input.helm,
    upstream: data.upstream,
    managed: input.managed,
    flux: input.flux,
  });
  const byStanding = Object.fromEntries(STANDINGS.map((s) => [s, 0])) as Record<Standing, number>;
  for (const r of rows) for (const s of STANDINGS) byStanding[s] += r.counts[s];
  const versions = clusters.map((c) => c.kubernetesVersion);
  const past = t < now.getTime();
  return {
    generatedAt: now.toISOString(),
    at: past ? new Date(t).toISOString() : null,
    clusters,
    rows,
    summary: {
      ...addonFigures(rows),
      byStanding,
      skewedAddons: rows.filter((r) => r.skew).length,
      unreadableRepositories: rows
        .filter((r) => r.kind === "helm" && r.upstreamError)
        .map((r) => ({ repository: r.repository ?? "(unresolved source)", chart: r.label, error: r.upstreamError! })),
    },
    figures: clusterFigures(versions, newestAvailable(data.versionInfo, versions, new Date(t))),
  };
}

/** Now or at a past instant, from the cached copy of the data. */
export async function getAddonMatrix(options: { at?: Date; now?: Date } = {}): Promise<AddonMatrixView> {
  const data = await getUpgradeData();
  const now = options.now ?? new Date();
  const at = options.at && options.at.getTime() < now.getTime() ? options.at : undefined;
  if (!at)
    return { ...derived(data, "matrix", nowStamp(data, now), () => matrixAt(data, now.getTime(), now)), generatedAt: now.toISOString() };
  return derived(data, `matrix-at@${at.toISOString()}`, 0, () => matrixAt(data, at.getTime(), now));
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
