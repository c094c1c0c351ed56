// Upgrade trends from the stored history, and "what ran where on date X".
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { z } from "zod";
import { requirePageSession } from "@/lib/auth/guard";
import { getUpgradeTrends, TREND_DAY_OPTIONS } from "@/lib/db/queries/upgrades-trends";
import { formatPercent } from "@/lib/upgrades/format";
import { TrendCharts } from "./trend-charts.client";

export const metadata: Metadata = { title: "Upgrade trends" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const daysSchema = z.coerce
  .number()
  .int()
  .refine((n) => (TREND_DAY_OPTIONS as readonly number[]).includes(n))
  .catch(30);
const field =
  "mt-1 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";
const button =
  "rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300";

export default async function TrendsPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  await requirePageSession();
  const raw = await searchParams;
  const days = daysSchema.parse(Array.isArray(raw.days) ? raw.days[0] : raw.days);
  const t = await getUpgradeTrends({ days });
  const today = t.points.at(-1);
  return (
    <>
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-600 dark:text-zinc-400">
        <Link href="/upgrades" className="underline">
          Upgrades
        </Link>{" "}
        / Trends
      </nav>
      <h1 className="mt-1 text-2xl font-semibold">Upgrade trends</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Each day is rebuilt from the recorded history as it stood at the end of that day (today: now), counted as /, /addons and /upgrades
        count now.
        {t.baseline
          ? ` The series starts ${t.baseline}${t.baseline > t.from ? ", the day the first cluster was seen" : ""}.`
          : " No cluster seen yet."}
      </p>
      <div className="mt-4 flex flex-wrap items-end gap-6">
        <form method="get" action="/upgrades/trends" className="flex items-end gap-2" aria-label="Trend range">
          <label className="flex flex-col text-xs font-medium text-zinc-600 dark:text-zinc-400">
            Range
            <select name="days" defaultValue={String(days)} className={field}>
              {TREND_DAY_OPTIONS.map((d) => (
                <option key={d} value={d}>
                  last {d} days
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={button}>
            Show
          </button>
        </form>
        <form method="get" action="/addons" className="flex items-end gap-2" aria-label="Add-on matrix on a past date">
          <label className="flex flex-col text-xs font-medium text-zinc-600 dark:text-zinc-400">
            What ran where on
            <input type="date" name="at" required defaultValue={t.to} max={t.to} className={field} />
          </label>
          <button type="submit" className={button}>
            Show matrix
          </button>
        </form>
      </div>

      {today ? (
        <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-5" data-testid="trend-today">
          {[
            ["Clusters today", String(today.clusters), "trend-clusters"],
            [
              `On the newest version${today.newestVersion ? ` (${today.newestVersion})` : ""}`,
              `${today.onNewest} (${formatPercent(today.onNewestShare)})`,
              "trend-newest",
            ],
            ["In standard support", formatPercent(today.supportedShare), "trend-supported"],
            [
              "Add-on installations on latest",
              `${formatPercent(today.addonLatestShare)} (${today.addonsOnLatest}/${today.addonsWithKnownLatest})`,
              "trend-addons",
            ],
            ["Median version lag", today.medianLag == null ? "–" : `${today.medianLag} minor(s)`, "trend-lag"],
          ].map(([label, value, testId]) => (
            <div
              key={label}
              data-testid={testId}
              className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
            >
              <dt className="text-xs font-medium text-zinc-600 dark:text-zinc-400">{label}</dt>
              <dd className="mt-1 text-xl font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}

      <div className="mt-4">
        <TrendCharts points={t.points} versions={t.versions} />
      </div>

      <details className="mt-6">
        <summary className="cursor-pointer text-sm font-medium">The numbers per day</summary>
        <div className="relative mt-2 overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
          <table className="min-w-full text-sm" data-testid="trend-table">
            <thead className="bg-zinc-50 text-left dark:bg-zinc-950">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Day
                </th>
                {t.versions.map((v) => (
                  <th key={v} scope="col" className="px-3 py-2 font-medium">
                    {v}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 font-medium">
                  Standard support
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Add-ons on latest
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Median lag
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  <span className="sr-only">Matrix</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {[...t.points].reverse().map((p) => (
                <tr key={p.date} data-date={p.date} className="border-t border-zinc-100 dark:border-zinc-800">
                  <th scope="row" className="px-3 py-1.5 text-left font-mono font-normal">
                    {p.date}
                  </th>
                  {t.versions.map((v) => (
                    <td key={v} className="px-3 py-1.5 tabular-nums" data-version={v}>
                      {p.byVersion[v] ?? 0}
                    </td>
                  ))}
                  <td className="px-3 py-1.5">{formatPercent(p.supportedShare)}</td>
                  <td className="px-3 py-1.5">
                    {formatPercent(p.addonLatestShare)}{" "}
                    <span className="text-xs text-zinc-500">
                      ({p.addonsOnLatest}/{p.addonsWithKnownLatest})
                    </span>
                  </td>
                  <td className="px-3 py-1.5">{p.medianLag ?? "–"}</td>
                  <td className="px-3 py-1.5">
                    <Link href={`/addons?at=${p.date}`} className="underline">
                      matrix
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
