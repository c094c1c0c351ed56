// One definition each of the figures several pages show for the same moment: how many clusters there
// are, how many run the newest Kubernetes version, and how many add-on installations run their latest
// version. /, /addons, /upgrades and /upgrades/trends all count with these functions.
import { cellShare, type MatrixRow } from "./addon-matrix";
import { calendarEntry, EKS_CALENDAR } from "./eks-calendar";
import type { ClusterVersionInfo } from "./support";
import { compareVersions, kubernetesMinor, newestMinor } from "./versions";

export interface ClusterFigures {
  /** Every cluster of the fleet at that moment (the fleet page's count), whatever we know of it. */
  clusters: number;
  /** Clusters whose version is known (observed now or last known). */
  withVersion: number;
  /** Clusters whose version is unknown (never reached, being created): counted apart, never as a version. */
  versionUnknown: number;
  /** The newest Kubernetes version available then (released by EKS, or running somewhere in the fleet). */
  newestVersion: string | null;
  /** Clusters on that version. */
  onNewest: number;
  byVersion: Record<string, number>;
}

export interface AddonFigures {
  /** Rows of the add-on matrix: Helm charts by name, EKS managed add-ons, Flux. */
  addons: number;
  /** Cells with at least one installation. */
  installations: number;
  /** Installations on the latest version they can have... */
  onLatest: number;
  /** ...out of those whose latest is known (failing ones count as not on it). */
  withKnownLatest: number;
}

const dateOf = (v: Date | string | null | undefined): Date | null => {
  if (!v) return null;
  const d = v instanceof Date ? v : new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** Newest EKS version whose release date is on or before `t` (DescribeClusterVersions, else the calendar). */
export function newestReleasedAt(versionInfo: ReadonlyMap<string, ClusterVersionInfo>, t: Date): string | null {
  let best: string | null = null;
  for (const v of new Set([...EKS_CALENDAR.map((e) => e.version), ...versionInfo.keys()])) {
    const released = dateOf(versionInfo.get(v)?.releaseDate) ?? dateOf(calendarEntry(v)?.releaseDate);
    if (released && released.getTime() <= t.getTime() && (!best || compareVersions(v, best) > 0)) best = v;
  }
  return best;
}

/** The newest version available at `t`: released by then, or already running in the fleet. */
export function newestAvailable(
  versionInfo: ReadonlyMap<string, ClusterVersionInfo>,
  fleetVersions: Iterable<string | null | undefined>,
  t: Date,
): string | null {
  return newestMinor([newestReleasedAt(versionInfo, t), ...fleetVersions]);
}

/** `versions`: one entry per cluster, its known version or null. */
export function clusterFigures(versions: readonly (string | null)[], newest: string | null): ClusterFigures {
  const byVersion: Record<string, number> = {};
  let onNewest = 0;
  for (const v of versions) {
    const m = kubernetesMinor(v);
    if (!m) continue;
    byVersion[m] = (byVersion[m] ?? 0) + 1;
    if (m === newest) onNewest++;
  }
  const withVersion = Object.values(byVersion).reduce((a, b) => a + b, 0);
  return {
    clusters: versions.length,
    withVersion,
    versionUnknown: versions.length - withVersion,
    newestVersion: newest,
    onNewest,
    byVersion,
  };
}

export function addonFigures(rows: readonly MatrixRow[]): AddonFigures {
  const f: AddonFigures = { addons: rows.length, installations: 0, onLatest: 0, withKnownLatest: 0 };
  for (const r of rows) {
    for (const c of Object.values(r.cells)) {
      if (c.standing !== "missing") f.installations++;
      const s = cellShare(c);
      if (s.counted) f.withKnownLatest++;
      if (s.current) f.onLatest++;
    }
  }
  return f;
}

export const share = (part: number, whole: number): number | null => (whole ? part / whole : null);
