// Daily upgrade trends rebuilt from the stored history (cluster_version_change, flux_object_transition),
// counted with the same definitions as the pages that show "now". Nothing is sampled: each day is what
// the history says was running at the end of that day (or now, for today), from the first day any
// cluster was seen.
import { createHash } from "node:crypto";
import { baselineDay, trendPointAt, trendSeries, type TrendPoint } from "../../upgrades/trends";
import { cachingEnabled } from "../change-cache";
import { derived, getUpgradeData, nowStamp, type UpgradeData } from "./upgrade-data";

export interface UpgradeTrends {
  generatedAt: string;
  from: string;
  to: string;
  days: number;
  points: TrendPoint[];
  /** Every Kubernetes minor seen in the range, oldest first (chart series order). */
  versions: string[];
  /** The first day of the series: the start of the range, or the day the first cluster was seen if later. */
  baseline: string | null;
}

export const TREND_DAY_OPTIONS = [7, 30, 90, 365] as const;
const DAY_MS = 86_400_000;

/**
 * What past days are measured against besides their own history: today's latest upstream versions, the EKS
 * calendar and add-on catalogs. History is append-only, so while these stay the same, the days before today
 * come out the same from any later copy of the data: they are kept across copies, per range and day.
 */
function referenceKey(data: UpgradeData): string {
  return derived(data, "reference-key", 0, () => {
    const hash = createHash("sha256");
    for (const [k, u] of [...data.upstream].sort(([a], [b]) => a.localeCompare(b))) hash.update(`${k}=${u.latestVersion ?? ""};`);
    for (const [k, v] of [...data.versionInfo].sort(([a], [b]) => a.localeCompare(b)))
      hash.update(`${k}=${String(v.endOfStandardSupportDate)}/${String(v.endOfExtendedSupportDate)}/${String(v.releaseDate)};`);
    for (const [k, v] of [...data.catalog].sort(([a], [b]) => a.localeCompare(b))) hash.update(`${k}=${JSON.stringify(v)};`);
    hash.update(`clusters=${data.history.clusters.length};releases=${data.history.releases.length}`);
    return hash.digest("hex");
  });
}

const pastSeries = new Map<number, { stamp: string; points: TrendPoint[] }>();

/** `now` is the moment the views are computed for (dates, ages); the data is the cached copy in the web server. */
export async function getUpgradeTrends(options: { days?: number; now?: Date } = {}): Promise<UpgradeTrends> {
  const data = await getUpgradeData();
  const now = options.now ?? new Date();
  const days = Math.min(Math.max(Math.floor(options.days ?? 30), 1), 400);
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const from = new Date(today - (days - 1) * DAY_MS);
  const inputs = { upstream: data.upstream, versionInfo: data.versionInfo, now };
  // Past days: swept once per day and range while what they are measured against stays the same; today's
  // point, counted directly like the pages that show now, once per copy of the data and day.
  // Only for the server's cached copies: scripts and tests read afresh and compute their own.
  const stamp = cachingEnabled() ? `${today}:${referenceKey(data)}` : null;
  let past = stamp ? pastSeries.get(days) : undefined;
  if (!past || past.stamp !== stamp) {
    past = { stamp: stamp ?? "", points: trendSeries(data.history, { ...inputs, from, to: new Date(today - 1) }) };
    if (stamp) pastSeries.set(days, past);
  }
  const pastPoints = past.points;
  const view = derived(data, `trends-now@${days}`, nowStamp(data, now), () => {
    const baseline = baselineDay(data.history, from);
    const points = baseline ? [...pastPoints, trendPointAt(data.history, inputs, now.getTime())] : [];
    const seen = new Set(points.flatMap((p) => Object.keys(p.byVersion)));
    return {
      generatedAt: now.toISOString(),
      from: from.toISOString().slice(0, 10),
      to: now.toISOString().slice(0, 10),
      days,
      points,
      versions: [...seen].sort((a, b) => Number(a.split(".")[1]) - Number(b.split(".")[1])),
      baseline: baseline ? baseline.toISOString().slice(0, 10) : null,
    };
  });
  return { ...view, generatedAt: now.toISOString() };
}
