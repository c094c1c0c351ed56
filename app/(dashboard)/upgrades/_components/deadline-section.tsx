// "Which clusters must be upgraded before <date>, and what does it cost if they are not?" A plain GET
// form (the query string holds date and filters, so the answer can be shared), the clusters, totals per
// environment and team, and the same answer as CSV and JSON.
import Link from "next/link";
import type { Facets } from "@/lib/db/queries/upgrades";
import type { DeadlineAnswer, DeadlineGroup, DeadlineRow } from "@/lib/upgrades/deadline";
import { deadlineQueryString } from "@/lib/upgrades/deadline";
import { formatUsd } from "@/lib/upgrades/format";
import { FilterSelect, fieldClass, labelClass } from "@/app/_components/form-fields";

const th = "px-3 py-2 text-left font-medium";
const td = "px-3 py-1.5 align-top";

/** Rows listed on the page; the CSV and JSON always hold them all. */
export const DEADLINE_PAGE_ROWS = 100;

function versionCell(r: DeadlineRow) {
  if (r.versionSource === "observed") return <span className="font-mono">{r.version}</span>;
  return (
    <span className="text-amber-900 dark:text-amber-200" title={r.versionWhy ?? undefined}>
      {r.versionLabel}
    </span>
  );
}

function Groups({ title, groups, testId }: { title: string; groups: DeadlineGroup[]; testId: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <table className="min-w-full text-sm" data-testid={testId}>
        <caption className="px-3 pt-2 text-left text-sm font-medium">{title}</caption>
        <thead className="bg-zinc-50 dark:bg-zinc-950">
          <tr>
            <th scope="col" className={th}>
              {title.split(" ").at(-1)}
            </th>
            <th scope="col" className={th}>
              Clusters
            </th>
            <th scope="col" className={th}>
              Extra cost accrued
            </th>
            <th scope="col" className={th}>
              Unknown cost
            </th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.key} data-group={g.key} className="border-t border-zinc-100 dark:border-zinc-800">
              <th scope="row" className={`${td} text-left font-normal`}>
                {g.key}
              </th>
              <td className={`${td} tabular-nums`}>{g.clusters}</td>
              <td className={`${td} tabular-nums`}>{formatUsd(g.accruedUSD)}</td>
              <td className={`${td} tabular-nums`}>{g.unknownCost ? `+ ${g.unknownCost}` : "–"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DeadlineSection({
  answer,
  facets,
  error,
  showAll,
}: {
  answer: DeadlineAnswer;
  facets: Facets;
  error: string | null;
  showAll: boolean;
}) {
  const q = answer.query;
  const qs = deadlineQueryString({ ...q, by: answer.date });
  const t = answer.totals;
  const rows = showAll ? answer.rows : answer.rows.slice(0, DEADLINE_PAGE_ROWS);
  const withAll = `/upgrades${qs ? `${qs}&` : "?"}all=1#deadline`;
  return (
    <section aria-labelledby="deadline" className="mt-6">
      <h2 id="deadline" className="text-lg font-semibold">
        Which clusters must be upgraded before a date, and what does it cost if they are not?
      </h2>
      <form method="get" action="/upgrades#deadline" aria-label="Upgrade deadline" className="mt-2 flex flex-wrap items-end gap-3">
        <label className={labelClass}>
          Before (UTC)
          <input type="date" name="by" required defaultValue={answer.date} className={fieldClass} data-testid="deadline-date" />
        </label>
        <FilterSelect name="env" text="Environment" value={q.env} options={facets.envs} />
        <FilterSelect name="team" text="Team" value={q.team} options={facets.teams} />
        <FilterSelect name="region" text="Region" value={q.region} options={facets.regions} />
        <button
          type="submit"
          className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
        >
          Ask
        </button>
        <a href={`/api/upgrades/deadline${qs}${qs ? "&" : "?"}format=csv`} download className="pb-2 text-sm underline">
          CSV
        </a>
        <a href={`/api/upgrades/deadline${qs}`} className="pb-2 text-sm underline">
          JSON
        </a>
      </form>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-800 dark:text-red-300">
          Ignored: {error}
        </p>
      ) : null}
      <p className="mt-3 text-sm" data-testid="deadline-summary">
        Before <strong>{answer.date}</strong>: standard support ends for <strong>{t.standardEndsBefore}</strong> of the {answer.considered}{" "}
        clusters considered, EKS upgrades <strong>{t.autoUpgradeBefore}</strong> itself, and staying costs{" "}
        <strong data-testid="deadline-cost">{formatUsd(t.accruedUSD)}</strong> in extended support from each end-of-standard date (
        {formatUsd(t.fromNowUSD)} of it from today)
        {t.unknownCost ? (
          <>
            {" "}
            <strong data-testid="deadline-unknown">+ {t.unknownCost} cluster(s) of unknown cost</strong>
          </>
        ) : null}
        .
      </p>
      {answer.rows.length ? (
        <div className="mt-2 overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
          <table className="min-w-full text-sm" data-testid="deadline-table">
            <thead className="bg-zinc-50 dark:bg-zinc-950">
              <tr>
                {[
                  "Cluster",
                  "Version",
                  "End of standard support",
                  "EKS auto-upgrade",
                  "Extra cost up to the date",
                  "of which from today",
                ].map((h) => (
                  <th key={h} scope="col" className={th}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.name} data-deadline-cluster={r.name} className="border-t border-zinc-100 dark:border-zinc-800">
                  <th scope="row" className={`${td} text-left font-medium`}>
                    <Link href={`/upgrades/${encodeURIComponent(r.name)}`} className="underline-offset-2 hover:underline">
                      {r.name}
                    </Link>
                    <div className="text-xs font-normal text-zinc-500">{[r.env, r.team, r.region].filter(Boolean).join(" · ")}</div>
                  </th>
                  <td className={td}>{versionCell(r)}</td>
                  <td className={`${td} whitespace-nowrap`}>{r.endOfStandardSupport?.slice(0, 10) ?? "unknown"}</td>
                  <td className={`${td} whitespace-nowrap`}>
                    {r.autoUpgradeAt
                      ? r.autoUpgradeOverdue
                        ? `due since ${r.autoUpgradeAt.slice(0, 10)}`
                        : r.autoUpgradeBefore
                          ? `on ${r.autoUpgradeAt.slice(0, 10)}`
                          : "–"
                      : "–"}
                  </td>
                  <td className={`${td} tabular-nums`} data-testid="row-cost">
                    {r.accruedUSD == null
                      ? "unknown"
                      : r.countedApart
                        ? `≈ ${formatUsd(r.accruedUSD)} (not summed)`
                        : formatUsd(r.accruedUSD)}
                  </td>
                  <td className={`${td} tabular-nums`}>{r.fromNowUSD == null ? "–" : formatUsd(r.fromNowUSD)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length < answer.rows.length ? (
            <p className="px-3 py-2 text-sm">
              Showing {rows.length} of {answer.rows.length} (the CSV and JSON hold all of them).{" "}
              <Link href={withAll} className="underline">
                Show all
              </Link>
            </p>
          ) : null}
        </div>
      ) : (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">No cluster needs an upgrade before that date.</p>
      )}
      {answer.rows.length ? (
        <div className="mt-3 grid gap-3 lg:grid-cols-2">
          <Groups title="Totals per environment" groups={answer.byEnv} testId="deadline-by-env" />
          <Groups title="Totals per team" groups={answer.byTeam} testId="deadline-by-team" />
        </div>
      ) : null}
    </section>
  );
}
