// Daily upgrade trends rebuilt from the stored history: each day is what the history says the fleet was at
// the end of that day (today: now), counted with the same definitions as the pages that show "now"
// (fleet-figures.ts, the add-on matrix cells). The series starts on the day the first cluster was seen:
// a fresh install has a one-point baseline, not a month of zeros.
//
// A year of a thousand clusters is 365 matrices of ~20,000 cells: instead of rebuilding each day, the
// sweep recomputes only the cells whose releases, add-ons or cluster changed since the day before.
import { buildAddonMatrix, eksCell, fluxCell, helmCell, cellShare, upstreamKey, type MatrixInput } from "./addon-matrix";
import { addonFigures, clusterFigures, newestAvailable, share } from "./fleet-figures";
import {
  clusterVersionAt,
  managedAt,
  matrixInputAt,
  present,
  releaseAt,
  valueAt,
  type FleetHistory,
  type HistoryManagedAddon,
  type HistoryRelease,
} from "./fleet-history";
import { fleetNewest } from "./standing";
import { supportInfo, type ClusterVersionInfo } from "./support";
import { minorsBehind } from "./versions";

export interface TrendPoint {
  /** YYYY-MM-DD (UTC); values are as of the end of that day, or now for today. */
  date: string;
  clusters: number;
  /** Clusters whose version was not known that day (counted apart, never as a version). */
  versionUnknown: number;
  /** Clusters per Kubernetes minor. */
  byVersion: Record<string, number>;
  newestVersion: string | null;
  /** Clusters on the newest version available that day. */
  onNewest: number;
  onNewestShare: number | null;
  standard: number;
  extended: number;
  unsupported: number;
  /** Share (0–1) of clusters with a known version that were in standard support that day. */
  supportedShare: number | null;
  addons: number;
  addonInstallations: number;
  addonsOnLatest: number;
  addonsWithKnownLatest: number;
  /** Share (0–1) of add-on installations on their latest version (the /addons definition). */
  addonLatestShare: number | null;
  /** Median of minors behind the newest version available that day. */
  medianLag: number | null;
}

export interface TrendOptions {
  upstream: MatrixInput["upstream"];
  versionInfo: ReadonlyMap<string, ClusterVersionInfo>;
  /** Inclusive UTC day range; the series starts no earlier than the first cluster was seen. */
  from: Date;
  to: Date;
  now: Date;
}

const DAY_MS = 86_400_000;

export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const startOfDay = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

/** The first day of the series: the requested start, or the day the first cluster was seen if later. */
export function baselineDay(h: FleetHistory, from: Date): Date | null {
  // A timestamp the database client could not read (year 1 BC, infinity) is no answer to "since when".
  const first = Math.min(...h.clusters.map((c) => c.firstSeenAt.getTime()).filter(Number.isFinite));
  if (!Number.isFinite(first)) return null;
  return new Date(Math.max(startOfDay(from.getTime()), startOfDay(first)));
}

interface Contribution {
  rowKey: string;
  installed: boolean;
  counted: boolean;
  current: boolean;
}

interface HelmCellSource {
  kind: "helm";
  rowKey: string;
  chart: string;
  cluster: string;
  releases: HistoryRelease[];
}
interface EksCellSource {
  kind: "eks";
  rowKey: string;
  cluster: string;
  addon: HistoryManagedAddon;
}
type CellSource = HelmCellSource | EksCellSource;

export function trendSeries(h: FleetHistory, o: TrendOptions): TrendPoint[] {
  const start = baselineDay(h, o.from);
  if (!start) return [];
  const now = o.now.getTime();
  const clusterByName = new Map(h.clusters.map((c) => [c.name, c]));

  // Cells whose contribution is kept between days, and the moments their inputs change.
  const cells: CellSource[] = [];
  const helmIndex = new Map<string, HelmCellSource>();
  for (const r of h.releases) {
    const key = `${r.chart}\u0000${r.cluster}`;
    let cell = helmIndex.get(key);
    if (!cell) {
      cell = { kind: "helm", rowKey: `helm:${r.chart}`, chart: r.chart, cluster: r.cluster, releases: [] };
      helmIndex.set(key, cell);
      cells.push(cell);
    }
    cell.releases.push(r);
  }
  for (const m of h.managed) cells.push({ kind: "eks", rowKey: `eks:${m.name}`, cluster: m.cluster, addon: m });

  const cellsOfCluster = new Map<string, number[]>();
  cells.forEach((c, i) => cellsOfCluster.set(c.cluster, [...(cellsOfCluster.get(c.cluster) ?? []), i]));
  const events: { t: number; cells: readonly number[] }[] = [];
  cells.forEach((c, i) => {
    const times =
      c.kind === "helm"
        ? c.releases.flatMap((r) => [r.firstSeenAt, r.deletedAt, ...r.transitions.map((x) => x.at)])
        : [c.addon.deletedAt, ...c.addon.changes.map((x) => x.at)];
    for (const t of times) if (t) events.push({ t: t.getTime(), cells: [i] });
  });
  for (const c of h.clusters) {
    const mine = cellsOfCluster.get(c.name) ?? [];
    for (const t of [c.firstSeenAt, c.goneAt, ...c.versionChanges.map((x) => x.at)]) if (t) events.push({ t: t.getTime(), cells: mine });
  }
  events.sort((a, b) => a.t - b.t);

  const contributions: (Contribution | null)[] = cells.map(() => null);
  const rowInstalled = new Map<string, number>();
  const totals = { installations: 0, counted: 0, current: 0 };
  const apply = (c: Contribution | null, sign: 1 | -1) => {
    if (!c) return;
    if (c.installed) {
      totals.installations += sign;
      rowInstalled.set(c.rowKey, (rowInstalled.get(c.rowKey) ?? 0) + sign);
    }
    if (c.counted) totals.counted += sign;
    if (c.current) totals.current += sign;
  };
  const compute = (source: CellSource, t: number): Contribution | null => {
    const cluster = clusterByName.get(source.cluster);
    if (!cluster || !present(cluster.firstSeenAt, cluster.goneAt, t)) return null;
    if (source.kind === "helm") {
      const installs = source.releases.flatMap((r) => {
        const s = releaseAt(r, t);
        return s ? [{ ...r, applied: s.applied, failing: s.failing }] : [];
      });
      if (!installs.length) return null;
      const cell = helmCell(source.cluster, installs, (url) => (url ? o.upstream.get(upstreamKey(url, source.chart)) : undefined), null);
      return { rowKey: source.rowKey, installed: true, ...cellShare(cell) };
    }
    const m = managedAt(source.addon, clusterVersionAt(cluster, t), h.catalog, t, now);
    return m ? { rowKey: source.rowKey, installed: true, ...cellShare(eksCell(m)) } : null;
  };

  const statusCache = new Map<string, string | null>();
  const statusOf = (minor: string, day: string, t: Date) => {
    const key = `${minor}@${day}`;
    if (!statusCache.has(key)) statusCache.set(key, supportInfo(minor, o.versionInfo.get(minor) ?? null, t)?.versionStatus ?? null);
    return statusCache.get(key)!;
  };

  const points: TrendPoint[] = [];
  const dirty = new Set<number>(cells.keys());
  let next = 0;
  for (let dayStart = start.getTime(); dayStart <= o.to.getTime() && dayStart <= now; dayStart += DAY_MS) {
    const t = Math.min(dayStart + DAY_MS - 1, now);
    const date = utcDay(new Date(dayStart));
    while (next < events.length && events[next].t <= t) for (const i of events[next++].cells) dirty.add(i);
    for (const i of dirty) {
      apply(contributions[i], -1);
      contributions[i] = compute(cells[i], t);
      apply(contributions[i], 1);
    }
    dirty.clear();

    // Clusters and Flux (its latest is the fleet's newest that day): recounted every day.
    const live = h.clusters.filter((c) => present(c.firstSeenAt, c.goneAt, t));
    const clusters = clusterPart(live, t, o, statusOf, date);
    const fluxVersions = live.map((c) => ({ cluster: c.name, version: valueAt(c.fluxChanges, c.fluxVersion, t) })).filter((f) => f.version);
    const fluxNewest = fleetNewest(fluxVersions.map((f) => f.version));
    let fluxCounted = 0;
    let fluxCurrent = 0;
    for (const f of fluxVersions) {
      const s = cellShare(fluxCell(f, fluxNewest));
      if (s.counted) fluxCounted++;
      if (s.current) fluxCurrent++;
    }

    const rows = [...rowInstalled.values()].filter((n) => n > 0).length + (fluxVersions.length ? 1 : 0);
    const onLatest = totals.current + fluxCurrent;
    const withKnownLatest = totals.counted + fluxCounted;
    points.push({
      date,
      ...clusters,
      addons: rows,
      addonInstallations: totals.installations + fluxVersions.length,
      addonsOnLatest: onLatest,
      addonsWithKnownLatest: withKnownLatest,
      addonLatestShare: share(onLatest, withKnownLatest),
    });
  }
  return points;
}

type ClusterPart = Omit<
  TrendPoint,
  "date" | "addons" | "addonInstallations" | "addonsOnLatest" | "addonsWithKnownLatest" | "addonLatestShare"
>;

/** The cluster half of a point: versions, support, the newest version and the lag behind it. */
function clusterPart(
  live: readonly FleetHistory["clusters"][number][],
  t: number,
  o: Pick<TrendOptions, "versionInfo">,
  statusOf: (minor: string, day: string, at: Date) => string | null,
  date: string,
): ClusterPart {
  const at = new Date(t);
  const versions = live.map((c) => clusterVersionAt(c, t));
  const newest = newestAvailable(o.versionInfo, versions, at);
  const figures = clusterFigures(versions, newest);
  let standard = 0;
  let extended = 0;
  let unsupported = 0;
  const lags: number[] = [];
  for (const v of versions) {
    if (!v) continue;
    const status = statusOf(v, date, at);
    if (status === "STANDARD_SUPPORT") standard++;
    else if (status === "EXTENDED_SUPPORT") extended++;
    else if (status === "UNSUPPORTED") unsupported++;
    const lag = newest ? minorsBehind(v, newest) : null;
    if (lag !== null) lags.push(Math.max(0, lag));
  }
  return {
    clusters: figures.clusters,
    versionUnknown: figures.versionUnknown,
    byVersion: figures.byVersion,
    newestVersion: newest,
    onNewest: figures.onNewest,
    onNewestShare: share(figures.onNewest, figures.withVersion),
    standard,
    extended,
    unsupported,
    supportedShare: share(standard, figures.withVersion),
    medianLag: median(lags),
  };
}

/**
 * One point computed directly (not swept): the whole matrix at `t`. Today's point this way costs one
 * matrix, which the add-on page builds anyway; the days before it come from the sweep.
 */
export function trendPointAt(h: FleetHistory, o: Omit<TrendOptions, "from" | "to">, t: number): TrendPoint {
  const date = utcDay(new Date(t));
  const input = matrixInputAt(h, t, o.now.getTime());
  const rows = buildAddonMatrix({
    clusters: input.clusters.map((c) => c.name),
    helm: input.helm,
    upstream: o.upstream,
    managed: input.managed,
    flux: input.flux,
  });
  const addons = addonFigures(rows);
  const statusOf = (minor: string, _day: string, at: Date) =>
    supportInfo(minor, o.versionInfo.get(minor) ?? null, at)?.versionStatus ?? null;
  return {
    date,
    ...clusterPart(input.clusters, t, o, statusOf, date),
    addons: addons.addons,
    addonInstallations: addons.installations,
    addonsOnLatest: addons.onLatest,
    addonsWithKnownLatest: addons.withKnownLatest,
    addonLatestShare: share(addons.onLatest, addons.withKnownLatest),
  };
}
