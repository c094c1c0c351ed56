// Daily upgrade trends rebuilt from the stored history (cluster_version_change, flux_object_transition),
// counted with the same definitions as the pages that show "now". Nothing is sampled: each day is what
// the history says was running at the end of that day (or now, for today), from the first day any
// cluster was seen.
import { baselineDay, trendPointAt, trendSeries, type TrendPoint } from "../../upgrades/trends";
import { derived, getUpgradeData } from "./upgrade-data";

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

/** Pass `now` to read the database afresh (tests, scripts); pages use the cached data. */
export async function getUpgradeTrends(options: { days?: number; now?: Date } = {}): Promise<UpgradeTrends> {
  const data = await getUpgradeData(options.now);
  const now = options.now ?? new Date();
  const days = Math.min(Math.max(Math.floor(options.days ?? 30), 1), 400);
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const from = new Date(today - (days - 1) * DAY_MS);
  const inputs = { upstream: data.upstream, versionInfo: data.versionInfo, now };
  // Past days do not change with the clock: swept once per day and range (and change of the data); today's
  // point, counted directly like the pages that show now, once a minute.
  const past = derived(data, `trends@${days}`, today, () => trendSeries(data.history, { ...inputs, from, to: new Date(today - 1) }));
  return derived(data, `trends-now@${days}`, Math.floor(now.getTime() / 60_000), () => {
    const baseline = baselineDay(data.history, from);
    const points = baseline ? [...past, trendPointAt(data.history, inputs, now.getTime())] : [];
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
}
