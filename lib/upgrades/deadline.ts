// "Which clusters must be upgraded before <date>, and what does it cost if they are not?" For a date
// (default: 90 days from today): the clusters whose standard support ends before it, the extra
// extended support runs up from each end-of-standard date up to it, and the clusters EKS will upgrade
// itself before it; filtered by env / team / region, totalled per env and team. A cluster whose version
// is not observed now is listed with what we know and counted apart, never summed as $0.
import { z } from "zod";
import { toCsv } from "./csv";
import { describeKnowledge, type VersionKnowledge } from "./known-version";
import { autoUpgradedAtEndOfStandard, extendedCostUntil, type SupportInfo } from "./support";

const DAY_MS = 86_400_000;
export const DEFAULT_HORIZON_DAYS = 90;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const optionalText = z.string().trim().min(1).max(100).optional();

export const deadlineQuerySchema = z.object({
  /** YYYY-MM-DD: the date the question is asked for (00:00 UTC of that day). */
  by: z
    .string()
    .regex(DATE, "expected YYYY-MM-DD")
    .refine((v) => !Number.isNaN(new Date(`${v}T00:00:00Z`).getTime()), "not a date")
    .optional(),
  env: optionalText,
  team: optionalText,
  region: optionalText,
});

export type DeadlineQuery = z.infer<typeof deadlineQuerySchema>;

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

/** Reads the query string; `error` says what was ignored (the page shows it, routes answer 400). */
export function parseDeadlineQuery(params: Params): { query: DeadlineQuery; error: string | null } {
  const get = (k: string) => {
    const v = params instanceof URLSearchParams ? params.get(k) : params[k];
    const first = Array.isArray(v) ? v[0] : v;
    return first === null || first === undefined || first === "" ? undefined : first;
  };
  const raw = Object.fromEntries(["by", "env", "team", "region"].map((k) => [k, get(k)]));
  const parsed = deadlineQuerySchema.safeParse(raw);
  if (parsed.success) return { query: parsed.data, error: null };
  return {
    query: deadlineQuerySchema.parse({}),
    error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
  };
}

/** The query's date, or 90 days from today (UTC day). */
export function deadlineDate(query: DeadlineQuery, now: Date): Date {
  if (query.by) return new Date(`${query.by}T00:00:00Z`);
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DEFAULT_HORIZON_DAYS * DAY_MS);
}

export function deadlineQueryString(query: DeadlineQuery): string {
  const entries = Object.entries(query).filter(([, v]) => v) as [string, string][];
  return entries.length ? `?${new URLSearchParams(entries)}` : "";
}

export interface DeadlineInput {
  name: string;
  env: string | null;
  team: string | null;
  region: string | null;
  knowledge: VersionKnowledge;
  /** Support of the known version (observed or last known); null when the version is unknown. */
  support: SupportInfo | null;
  supportType: string | null;
}

export interface DeadlineRow {
  name: string;
  env: string | null;
  team: string | null;
  region: string | null;
  version: string | null;
  versionSource: VersionKnowledge["source"];
  /** "1.34", "1.34 (last known, 3 h ago)", "unknown — never reached yet". */
  versionLabel: string;
  /** For a version not observed now: when it was last confirmed, and why it is not observed. */
  versionAsOf: string | null;
  versionWhy: string | null;
  endOfStandardSupport: string | null;
  endOfExtendedSupport: string | null;
  supportType: string;
  /** Standard support ends (or ended) before the date. */
  standardEndsBefore: boolean;
  /** When EKS upgrades it itself: end of standard (policy STANDARD) or end of extended support. */
  autoUpgradeAt: string | null;
  autoUpgradeBefore: boolean;
  /** Already due (the date has passed): "auto-upgrade due since …". */
  autoUpgradeOverdue: boolean;
  /** Extra for extended support from the end-of-standard date up to the date, if not upgraded. */
  accruedUSD: number | null;
  /** The part of it from today on. */
  fromNowUSD: number | null;
  /** Counted apart: its version is not observed now, so its cost is not in the totals. */
  countedApart: boolean;
}

export interface DeadlineTotals {
  clusters: number;
  standardEndsBefore: number;
  autoUpgradeBefore: number;
  accruedUSD: number;
  fromNowUSD: number;
  /** Clusters listed whose cost is not summed (version not observed now). */
  unknownCost: number;
}

export interface DeadlineGroup extends DeadlineTotals {
  key: string;
}

export interface DeadlineAnswer {
  date: string;
  query: DeadlineQuery;
  rows: DeadlineRow[];
  totals: DeadlineTotals;
  byEnv: DeadlineGroup[];
  byTeam: DeadlineGroup[];
  /** Clusters the filters match (the question is about these). */
  considered: number;
}

function emptyTotals(): DeadlineTotals {
  return { clusters: 0, standardEndsBefore: 0, autoUpgradeBefore: 0, accruedUSD: 0, fromNowUSD: 0, unknownCost: 0 };
}

function add(t: DeadlineTotals, r: DeadlineRow) {
  t.clusters++;
  if (r.standardEndsBefore) t.standardEndsBefore++;
  if (r.autoUpgradeBefore) t.autoUpgradeBefore++;
  if (r.countedApart) t.unknownCost++;
  else {
    t.accruedUSD += r.accruedUSD ?? 0;
    t.fromNowUSD += r.fromNowUSD ?? 0;
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function groups(rows: readonly DeadlineRow[], by: "env" | "team"): DeadlineGroup[] {
  const map = new Map<string, DeadlineGroup>();
  for (const r of rows) {
    const key = r[by] ?? "—";
    const g = map.get(key) ?? { key, ...emptyTotals() };
    add(g, r);
    map.set(key, g);
  }
  return [...map.values()]
    .map((g) => ({ ...g, accruedUSD: round2(g.accruedUSD), fromNowUSD: round2(g.fromNowUSD) }))
    .sort((a, b) => b.accruedUSD - a.accruedUSD || a.key.localeCompare(b.key));
}

function row(c: DeadlineInput, date: Date, now: Date): DeadlineRow {
  const s = c.support;
  const endStd = s?.endOfStandardSupport ? new Date(s.endOfStandardSupport) : null;
  const endExt = s?.endOfExtendedSupport ? new Date(s.endOfExtendedSupport) : null;
  const costInput = { support: s, supportType: c.supportType };
  const autoAtStandard = autoUpgradedAtEndOfStandard(costInput) && s?.versionStatus === "STANDARD_SUPPORT";
  const autoUpgradeAt = autoAtStandard ? endStd : endExt;
  const cost = extendedCostUntil(costInput, date, now);
  return {
    name: c.name,
    env: c.env,
    team: c.team,
    region: c.region,
    version: c.knowledge.version,
    versionSource: c.knowledge.source,
    versionLabel: describeKnowledge(c.knowledge),
    versionAsOf: c.knowledge.asOf,
    versionWhy: c.knowledge.why,
    endOfStandardSupport: s?.endOfStandardSupport ?? null,
    endOfExtendedSupport: s?.endOfExtendedSupport ?? null,
    supportType: (c.supportType ?? "EXTENDED").toUpperCase(),
    standardEndsBefore: !!endStd && endStd.getTime() < date.getTime(),
    autoUpgradeAt: autoUpgradeAt?.toISOString() ?? null,
    autoUpgradeBefore: !!autoUpgradeAt && autoUpgradeAt.getTime() < date.getTime(),
    autoUpgradeOverdue: !!autoUpgradeAt && autoUpgradeAt.getTime() <= now.getTime(),
    accruedUSD: cost?.accruedUSD ?? null,
    fromNowUSD: cost?.fromNowUSD ?? null,
    countedApart: !c.knowledge.current,
  };
}

/**
 * The answer for `query`: the clusters that need attention before the date (standard support ends
 * before it, or EKS upgrades them itself before it), plus every cluster whose version we do not know
 * (it might be one of them), each listed with what we know and counted apart.
 */
export function answerDeadline(clusters: readonly DeadlineInput[], query: DeadlineQuery, now: Date): DeadlineAnswer {
  const date = deadlineDate(query, now);
  const matching = clusters.filter(
    (c) => (!query.env || c.env === query.env) && (!query.team || c.team === query.team) && (!query.region || c.region === query.region),
  );
  const rows = matching
    .map((c) => row(c, date, now))
    .filter((r) => r.standardEndsBefore || r.autoUpgradeBefore || r.version === null)
    .sort(
      (a, b) =>
        Number(a.countedApart) - Number(b.countedApart) ||
        (a.endOfStandardSupport ?? "9").localeCompare(b.endOfStandardSupport ?? "9") ||
        a.name.localeCompare(b.name),
    );
  const totals = emptyTotals();
  for (const r of rows) add(totals, r);
  return {
    date: date.toISOString().slice(0, 10),
    query,
    rows,
    totals: { ...totals, accruedUSD: round2(totals.accruedUSD), fromNowUSD: round2(totals.fromNowUSD) },
    byEnv: groups(rows, "env"),
    byTeam: groups(rows, "team"),
    considered: matching.length,
  };
}

/** The answer as CSV: exactly the rows and totals the page shows. */
export function deadlineCsv(a: DeadlineAnswer): string {
  const header = [
    "cluster",
    "env",
    "team",
    "region",
    "version",
    "version source",
    "version as of",
    "why not observed",
    "end of standard support",
    "end of extended support",
    "support policy",
    `standard support ends before ${a.date}`,
    "EKS auto-upgrade",
    `extra cost accrued up to ${a.date} (USD)`,
    "of which from today (USD)",
    "cost counted apart",
  ];
  const lines = a.rows.map((r) => [
    r.name,
    r.env,
    r.team,
    r.region,
    r.version ?? "unknown",
    r.versionSource,
    r.versionAsOf,
    r.versionWhy,
    r.endOfStandardSupport?.slice(0, 10),
    r.endOfExtendedSupport?.slice(0, 10),
    r.supportType,
    r.standardEndsBefore ? "yes" : "no",
    r.autoUpgradeAt ? `${r.autoUpgradeOverdue ? "due since" : "on"} ${r.autoUpgradeAt.slice(0, 10)}` : "",
    r.accruedUSD,
    r.fromNowUSD,
    r.countedApart ? "yes" : "no",
  ]);
  const t = a.totals;
  lines.push([
    `total (${t.clusters} clusters; ${t.unknownCost} of unknown cost not summed)`,
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    String(t.standardEndsBefore),
    String(t.autoUpgradeBefore),
    t.accruedUSD,
    t.fromNowUSD,
    String(t.unknownCost),
  ]);
  return toCsv([header, ...lines]);
}
