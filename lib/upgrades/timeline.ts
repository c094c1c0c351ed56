// "What ran where on date X": versions at a past instant, rebuilt from change-only history, and the
// daily trend series computed from them.
import { statusAt, type ClusterVersionInfo } from "./support";
import { calendarEntry, EKS_CALENDAR } from "./eks-calendar";
import { compareVersions, kubernetesMinor, minorsBehind, sameVersion } from "./versions";

export interface VersionChange {
  at: Date;
  from: string | null;
  to: string | null;
}

/**
 * The value at `t` from append-only changes and today's value: the `to` of the last change at or before
 * `t`; else the `from` of the first change after it; else today's value (nothing changed since).
 */
export function versionAt(changes: readonly VersionChange[], current: string | null, t: Date): string | null {
  const sorted = [...changes].sort((a, b) => a.at.getTime() - b.at.getTime());
  let value: string | null | undefined;
  for (const c of sorted) {
    if (c.at.getTime() <= t.getTime()) value = c.to;
    else {
      if (value === undefined) value = c.from;
      break;
    }
  }
  return value === undefined ? current : value;
}

export interface ReleaseTransition {
  at: Date;
  change: string; // created | changed | deleted
  chartVersion: string | null;
  /** Health recorded with the transition, when known. */
  health?: string | null;
}

/** A HelmRelease's applied chart version at `t`; null when it did not exist (or was deleted) then. */
export function releaseVersionAt(
  release: { firstSeenAt: Date; deletedAt: Date | null; current: string | null; transitions: readonly ReleaseTransition[] },
  t: Date,
): { present: boolean; version: string | null; health?: string | null } {
  if (release.firstSeenAt.getTime() > t.getTime()) return { present: false, version: null };
  const before = release.transitions.filter((x) => x.at.getTime() <= t.getTime()).sort((a, b) => a.at.getTime() - b.at.getTime());
  if (!before.length) {
    if (release.deletedAt && release.deletedAt.getTime() <= t.getTime()) return { present: false, version: null };
    return { present: true, version: release.current };
  }
  const last = before[before.length - 1];
  if (last.change === "deleted") return { present: false, version: null };
  const known = [...before].reverse().find((x) => x.chartVersion);
  return { present: true, version: known?.chartVersion ?? release.current, ...(last.health !== undefined ? { health: last.health } : {}) };
}

// ---------------------------------------------------------------------------------------------

export interface TrendCluster {
  name: string;
  firstSeenAt: Date;
  goneAt: Date | null;
  currentVersion: string | null;
  changes: readonly VersionChange[];
}

export interface TrendRelease {
  cluster: string;
  /** Add-on identity (repository + chart). */
  key: string;
  firstSeenAt: Date;
  deletedAt: Date | null;
  current: string | null;
  transitions: readonly ReleaseTransition[];
}

export interface TrendPoint {
  /** YYYY-MM-DD (UTC); values are as of the end of that day, or now for today. */
  date: string;
  clusters: number;
  /** Clusters per Kubernetes minor. */
  byVersion: Record<string, number>;
  standard: number;
  extended: number;
  unsupported: number;
  /** Share (0–1) of clusters whose version is in standard support that day. */
  supportedShare: number | null;
  addonInstallations: number;
  addonsOnLatest: number;
  /** Share (0–1) of Helm add-on installations on the latest known version. */
  addonLatestShare: number | null;
  /** Median of minors behind the newest EKS version released by that day. */
  medianLag: number | null;
}

export interface TrendInput {
  clusters: readonly TrendCluster[];
  releases: readonly TrendRelease[];
  /** Latest upstream per add-on key; when unknown, the newest version in the fleet that day is used. */
  latestByKey: ReadonlyMap<string, string>;
  versionInfo: ReadonlyMap<string, ClusterVersionInfo>;
  /** Inclusive UTC day range. */
  from: Date;
  to: Date;
  now: Date;
}

const DAY_MS = 86_400_000;

export function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function dateOf(v: Date | string | null | undefined): Date | null {
  if (!v) return null;
  const d = v instanceof Date ? v : new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Newest EKS version whose release date is on or before `t`. */
export function newestReleasedAt(versionInfo: ReadonlyMap<string, ClusterVersionInfo>, t: Date): string | null {
  const candidates = new Set([...EKS_CALENDAR.map((e) => e.version), ...versionInfo.keys()]);
  let best: string | null = null;
  for (const v of candidates) {
    const released = dateOf(versionInfo.get(v)?.releaseDate) ?? dateOf(calendarEntry(v)?.releaseDate);
    if (released && released.getTime() <= t.getTime() && (!best || compareVersions(v, best) > 0)) best = v;
  }
  return best;
}

function supportStatusAt(minor: string, versionInfo: ReadonlyMap<string, ClusterVersionInfo>, t: Date) {
  const api = versionInfo.get(minor);
  const cal = calendarEntry(minor);
  const endStd = dateOf(api?.endOfStandardSupportDate) ?? dateOf(cal?.endOfStandardSupport);
  const endExt = dateOf(api?.endOfExtendedSupportDate) ?? dateOf(cal?.endOfExtendedSupport);
  return endStd ? statusAt(endStd, endExt, t) : null;
}

export function trendSeries(input: TrendInput): TrendPoint[] {
  const points: TrendPoint[] = [];
  const start = Date.UTC(input.from.getUTCFullYear(), input.from.getUTCMonth(), input.from.getUTCDate());
  for (let dayStart = start; dayStart <= input.to.getTime(); dayStart += DAY_MS) {
    const endOfDay = new Date(Math.min(dayStart + DAY_MS - 1, input.now.getTime()));
    if (endOfDay.getTime() < dayStart) break;
    const point: TrendPoint = {
      date: utcDay(new Date(dayStart)),
      clusters: 0,
      byVersion: {},
      standard: 0,
      extended: 0,
      unsupported: 0,
      supportedShare: null,
      addonInstallations: 0,
      addonsOnLatest: 0,
      addonLatestShare: null,
      medianLag: null,
    };
    const newest = newestReleasedAt(input.versionInfo, endOfDay);
    const lags: number[] = [];
    for (const c of input.clusters) {
      if (c.firstSeenAt.getTime() > endOfDay.getTime() || (c.goneAt && c.goneAt.getTime() <= endOfDay.getTime())) continue;
      const minor = kubernetesMinor(versionAt(c.changes, c.currentVersion, endOfDay));
      if (!minor) continue;
      point.clusters++;
      point.byVersion[minor] = (point.byVersion[minor] ?? 0) + 1;
      const status = supportStatusAt(minor, input.versionInfo, endOfDay);
      if (status === "STANDARD_SUPPORT") point.standard++;
      else if (status === "EXTENDED_SUPPORT") point.extended++;
      else if (status === "UNSUPPORTED") point.unsupported++;
      const lag = newest ? minorsBehind(minor, newest) : null;
      if (lag !== null) lags.push(Math.max(0, lag));
    }
    point.supportedShare = point.clusters ? point.standard / point.clusters : null;
    point.medianLag = median(lags);

    const present: { key: string; version: string | null }[] = [];
    for (const r of input.releases) {
      const at = releaseVersionAt(r, endOfDay);
      if (at.present) present.push({ key: r.key, version: at.version });
    }
    const fleetNewest = new Map<string, string>();
    for (const p of present) {
      const seen = fleetNewest.get(p.key);
      if (p.version && (!seen || compareVersions(p.version, seen) > 0)) fleetNewest.set(p.key, p.version);
    }
    for (const p of present) {
      const latest = input.latestByKey.get(p.key) ?? fleetNewest.get(p.key);
      if (!latest || !p.version) continue;
      point.addonInstallations++;
      if (sameVersion(p.version, latest) || compareVersions(p.version, latest) > 0) point.addonsOnLatest++;
    }
    point.addonLatestShare = point.addonInstallations ? point.addonsOnLatest / point.addonInstallations : null;
    points.push(point);
  }
  return points;
}
