// The fleet's upgrade facts as stored (current values plus change-only history), and what they were at any
// instant. /addons (now or ?at=), /upgrades/trends (one point per day) and campaign burn-downs read the
// same history through these functions, so a figure shown for a moment is the same on every page.
import type { FluxInstallation, HelmInstallation, ManagedAddonInstallation } from "./addon-matrix";
import type { CatalogVersion } from "./managed-addons";
import { kubernetesMinor, newestVersion } from "./versions";

export interface VersionChange {
  at: Date;
  from: string | null;
  to: string | null;
}

/**
 * A value at `t` from change-only history (sorted oldest first) and today's value: today's when nothing
 * changed after `t` (so "now" is always exactly what the current row says), else the `to` of the last
 * change at or before `t`, else the `from` of the first change after it.
 */
export function valueAt(changes: readonly VersionChange[], current: string | null, t: number): string | null {
  if (!changes.length || changes[changes.length - 1].at.getTime() <= t) return current;
  let i = changes.length - 1;
  while (i >= 0 && changes[i].at.getTime() > t) i--;
  return i >= 0 ? changes[i].to : changes[0].from;
}

export interface HistoryCluster {
  id: number;
  name: string;
  env: string | null;
  team: string | null;
  region: string | null;
  firstSeenAt: Date;
  goneAt: Date | null;
  /** Control-plane minor as stored now (EKS API or API server). */
  version: string | null;
  /** "kubernetes" and "eks" changes, oldest first. */
  versionChanges: VersionChange[];
  fluxVersion: string | null;
  fluxChanges: VersionChange[];
}

export interface ReleaseTransitionState {
  at: Date;
  change: string; // created | changed | deleted
  /** Deployed chart version after this change; null = nothing deployed. */
  applied: string | null;
  failing: boolean;
}

export interface HistoryRelease extends Omit<HelmInstallation, "applied" | "failing"> {
  firstSeenAt: Date;
  deletedAt: Date | null;
  applied: string | null;
  failing: boolean;
  /** Oldest first. */
  transitions: ReleaseTransitionState[];
}

export interface HistoryManagedAddon {
  cluster: string;
  name: string;
  version: string | null;
  failing: boolean;
  deletedAt: Date | null;
  /** "addon" changes of this add-on, oldest first. */
  changes: VersionChange[];
}

export interface FleetHistory {
  clusters: HistoryCluster[];
  releases: HistoryRelease[];
  managed: HistoryManagedAddon[];
  /** DescribeAddonVersions per `${addon}@${minor}`. */
  catalog: ReadonlyMap<string, CatalogVersion[] | null>;
}

export const present = (firstSeenAt: Date, goneAt: Date | null, t: number) =>
  firstSeenAt.getTime() <= t && (!goneAt || goneAt.getTime() > t);

export function clusterVersionAt(c: HistoryCluster, t: number): string | null {
  return kubernetesMinor(valueAt(c.versionChanges, c.version, t));
}

/** A release at `t`: absent, or its deployed version and whether it was failing. Today's values after its last change. */
export function releaseAt(r: HistoryRelease, t: number): { applied: string | null; failing: boolean } | null {
  if (r.firstSeenAt.getTime() > t) return null;
  const last = r.transitions[r.transitions.length - 1];
  if (!last || last.at.getTime() <= t) {
    if (r.deletedAt && r.deletedAt.getTime() <= t) return null;
    return { applied: r.applied, failing: r.failing };
  }
  let i = r.transitions.length - 1;
  while (i >= 0 && r.transitions[i].at.getTime() > t) i--;
  if (i < 0) return { applied: r.applied, failing: r.failing }; // nothing recorded before t: today's values
  const x = r.transitions[i];
  return x.change === "deleted" ? null : { applied: x.applied, failing: x.failing };
}

function catalogLatest(catalog: CatalogVersion[] | null | undefined): string | null {
  return catalog
    ? newestVersion(
        catalog.map((v) => v.addonVersion),
        { includePrerelease: true },
      )
    : null;
}

export function managedAt(
  m: HistoryManagedAddon,
  minor: string | null,
  catalog: FleetHistory["catalog"],
  t: number,
  now: number,
): ManagedAddonInstallation | null {
  if (m.deletedAt && m.deletedAt.getTime() <= t) return null;
  const version = valueAt(m.changes, m.version, t);
  if (!version) return null;
  const list = minor ? catalog.get(`${m.name}@${minor}`) : undefined;
  return {
    cluster: m.cluster,
    name: m.name,
    version,
    // Add-on health is not kept as history: only today's is known.
    failing: t >= now && m.failing,
    latestCompatible: catalogLatest(list),
    defaultCompatible: list?.find((v) => v.defaultVersion)?.addonVersion ?? null,
  };
}

/** The matrix's inputs at instant `t` (now: today's values). */
export function matrixInputAt(h: FleetHistory, t: number, now: number) {
  const clusters = h.clusters.filter((c) => present(c.firstSeenAt, c.goneAt, t));
  const names = new Set(clusters.map((c) => c.name));
  const minorOf = new Map(clusters.map((c) => [c.name, clusterVersionAt(c, t)]));
  const helm: HelmInstallation[] = [];
  for (const r of h.releases) {
    if (!names.has(r.cluster)) continue;
    const s = releaseAt(r, t);
    if (s) helm.push({ ...stripHistory(r), applied: s.applied, failing: s.failing });
  }
  const managed = h.managed.flatMap((m) => {
    if (!names.has(m.cluster)) return [];
    const x = managedAt(m, minorOf.get(m.cluster) ?? null, h.catalog, t, now);
    return x ? [x] : [];
  });
  const flux: FluxInstallation[] = clusters.map((c) => ({ cluster: c.name, version: valueAt(c.fluxChanges, c.fluxVersion, t) }));
  return { clusters, minorOf, helm, managed, flux };
}

function stripHistory(r: HistoryRelease): HelmInstallation {
  return {
    cluster: r.cluster,
    objectCluster: r.objectCluster,
    namespace: r.namespace,
    name: r.name,
    chart: r.chart,
    repositoryUrl: r.repositoryUrl,
    desired: r.desired,
    applied: r.applied,
    failing: r.failing,
  };
}
