// Add-on matrix: rows are add-ons (Helm charts per repository, EKS managed add-ons, Flux), columns are
// clusters; each cell is the applied version and how far it is behind. "as of" shows a past date.
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { ZodError } from "zod";
import { requirePageSession } from "@/lib/auth/guard";
import { getAddonMatrix, groupClusters } from "@/lib/db/queries/addons";
import {
  addonFiltersSchema,
  atInstant,
  clusterMatches,
  columnPage,
  MATRIX_PAGE_COLUMNS,
  parseAddonFilters,
  rowMatches,
  type AddonFilters,
} from "@/lib/upgrades/addon-filters";
import { formatPercent } from "@/lib/upgrades/format";
import { STANDINGS, STANDING_LABEL } from "@/lib/upgrades/standing";
import { formatUtc } from "@/lib/time";
import { EmptyFleet } from "@/app/_components/empty-fleet";
import { UpgradeStat } from "@/app/_components/upgrade-badges";
import { AddonFilterForm } from "./_components/addon-filter-form";
import { MatrixTable } from "./_components/matrix-table";

export const metadata: Metadata = { title: "Add-ons" };

function facetsOf(clusters: { env: string | null; team: string | null; region: string | null }[]) {
  const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v))].sort();
  return {
    envs: distinct(clusters.map((c) => c.env)),
    teams: distinct(clusters.map((c) => c.team)),
    regions: distinct(clusters.map((c) => c.region)),
  };
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AddonsPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  await requirePageSession();
  const raw = await searchParams;
  let filters: AddonFilters;
  let filterError: string | null = null;
  try {
    filters = parseAddonFilters(raw);
  } catch (err) {
    filters = addonFiltersSchema.parse({});
    filterError = err instanceof ZodError ? err.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") : "invalid filters";
  }
  const now = new Date();
  const view = await getAddonMatrix({ at: atInstant(filters.at, now), now });
  const rows = view.rows.filter((r) => rowMatches(r, filters));
  const ordered = groupClusters(
    view.clusters.filter((c) => clusterMatches(c, filters)),
    filters.group,
  ).flatMap((g) => g.clusters);
  const columns = columnPage(ordered, filters.page);
  const groups = groupClusters(columns.shown, filters.group);
  const query = (extra: Record<string, string | undefined>) =>
    new URLSearchParams(
      Object.entries({ ...filters, page: undefined, ...extra })
        .filter(([k, v]) => v !== undefined && v !== "" && !(k === "group" && v === "none"))
        .map(([k, v]) => [k, String(v)]),
    ).toString();
  const qs = query({});
  const pageLink = (page: number) => `/addons?${query({ page: String(page) })}`;
  const s = view.summary;

  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold">Add-ons</h1>
        <a
          href={`/api/addons/csv${qs ? `?${qs}` : ""}`}
          download
          className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          Export CSV
        </a>
      </div>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Which version of each add-on runs where, and how far behind the newest it is.{" "}
        {view.at ? (
          <strong data-testid="as-of">
            As it was at {formatUtc(view.at)} (standings against today&apos;s latest).{" "}
            <Link href="/addons" className="underline">
              Back to now
            </Link>
          </strong>
        ) : null}
      </p>
      {filterError ? (
        <p
          role="alert"
          className="mt-3 rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          Ignored invalid filters: {filterError}
        </p>
      ) : null}
      <div className="mt-4">
        <AddonFilterForm filters={filters} facets={facetsOf(view.clusters)} />
      </div>

      {view.clusters.length === 0 ? (
        view.at ? (
          <p className="mt-6">No cluster had been seen by then.</p>
        ) : (
          <EmptyFleet />
        )
      ) : (
        <>
          <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5">
            <UpgradeStat
              label="Clusters"
              value={String(view.figures.clusters)}
              hint={`${view.figures.onNewest} on the newest version${view.figures.newestVersion ? ` (${view.figures.newestVersion})` : ""}`}
              testId="addon-clusters"
            />
            <UpgradeStat label="Add-ons" value={String(s.addons)} hint={`${s.installations} installations`} testId="addon-count" />
            <UpgradeStat
              label="On the latest version"
              value={formatPercent(s.withKnownLatest ? s.onLatest / s.withKnownLatest : null)}
              hint={`${s.onLatest} of ${s.withKnownLatest} installations with a known latest`}
              testId="share-latest"
            />
            <UpgradeStat
              label="Version skew"
              value={String(s.skewedAddons)}
              hint="add-ons with different versions across clusters (EKS add-ons: off the default or latest build for their version)"
            />
            <UpgradeStat
              label="Failing"
              value={String(s.byStanding.failing)}
              hint={
                STANDINGS.filter((x) => x !== "current" && x !== "missing" && x !== "failing" && s.byStanding[x])
                  .map((x) => `${s.byStanding[x]} ${STANDING_LABEL[x]}`)
                  .join(", ") || "nothing behind"
              }
            />
          </dl>
          {s.unreadableRepositories.length ? (
            <section
              aria-labelledby="unreadable"
              className="mt-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950"
            >
              <h2 id="unreadable" className="font-medium">
                Latest version unknown for {s.unreadableRepositories.length} chart(s): repository not readable
              </h2>
              <ul className="mt-1 list-disc pl-5">
                {s.unreadableRepositories.map((u) => (
                  <li key={`${u.repository}#${u.chart}`}>
                    <span className="font-mono">{u.chart}</span> from <span className="font-mono break-all">{u.repository}</span>: {u.error}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <p className="mt-4 text-sm" data-testid="column-page">
            Clusters {ordered.length ? (columns.page - 1) * MATRIX_PAGE_COLUMNS + 1 : 0}–
            {(columns.page - 1) * MATRIX_PAGE_COLUMNS + columns.shown.length} of {ordered.length}
            {ordered.length < view.clusters.length ? ` (of ${view.clusters.length} in the fleet)` : ""}
            {columns.page > 1 ? (
              <Link href={pageLink(columns.page - 1)} className="ml-3 underline">
                previous clusters
              </Link>
            ) : null}
            {columns.page < columns.pages ? (
              <Link href={pageLink(columns.page + 1)} className="ml-3 underline">
                next clusters
              </Link>
            ) : null}
          </p>
          <MatrixTable rows={rows} groups={groups} />
          {rows.length === 0 ? <p className="mt-4 text-sm">No add-on matches these filters.</p> : null}
        </>
      )}
    </>
  );
}
