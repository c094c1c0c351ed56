// Upgrades across the fleet: which clusters must move, by when, what staying costs (answered for any
// date), what blocks the next step, and the campaigns under way. Each row links to the cluster's checklist.
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { requirePageSession } from "@/lib/auth/guard";
import { listCampaigns } from "@/lib/db/queries/campaigns";
import { getDeadlineAnswer, getUpgradesOverview } from "@/lib/db/queries/upgrades";
import { parseDeadlineQuery } from "@/lib/upgrades/deadline";
import { formatPercent, formatUsd } from "@/lib/upgrades/format";
import { EmptyFleet } from "@/app/_components/empty-fleet";
import { UpgradeStat } from "@/app/_components/upgrade-badges";
import { ClusterTable } from "./_components/cluster-table";
import { DeadlineSection } from "./_components/deadline-section";

export const metadata: Metadata = { title: "Upgrades" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Clusters listed before "show all". */
const CLUSTER_PAGE_ROWS = 100;

export default async function UpgradesPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  await requirePageSession();
  const raw = await searchParams;
  const { query, error } = parseDeadlineQuery(raw);
  const showAll = raw.all === "1";
  const [o, answer, campaigns] = await Promise.all([getUpgradesOverview(), getDeadlineAnswer(query), listCampaigns()]);
  const t = o.totals;
  const f = o.figures;
  const unknown = t.unknownCost.clusters;
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold">Upgrades</h1>
        <nav aria-label="Upgrade views" className="flex gap-3 text-sm">
          <Link href="/upgrades/campaigns" className="underline">
            Campaigns
          </Link>
          <Link href="/upgrades/trends" className="underline">
            Trends
          </Link>
          <Link href="/addons" className="underline">
            Add-on matrix
          </Link>
          <Link href="/api/upgrades" prefetch={false} className="underline">
            JSON
          </Link>
        </nav>
      </div>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        EKS support deadlines, what extended support costs, and what blocks each cluster&apos;s next minor version.
      </p>
      {o.clusters.length === 0 ? (
        <EmptyFleet />
      ) : (
        <>
          <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-5">
            <UpgradeStat
              testId="stat-newest"
              label={`On the newest version${f.newestVersion ? ` (${f.newestVersion})` : ""}`}
              value={`${f.onNewest} of ${f.withVersion}`}
              hint={`${formatPercent(f.withVersion ? f.onNewest / f.withVersion : null)} of ${f.clusters} clusters${f.versionUnknown ? `; ${f.versionUnknown} of unknown version` : ""}`}
            />
            <UpgradeStat
              testId="stat-extended"
              label="Billed as extended support now"
              value={`${t.clustersInExtendedSupport + t.clustersPastExtendedSupport} of ${t.clusters - unknown}`}
              hint={`extra ${formatUsd(t.extraPerMonthUSD)}/month, ${formatUsd(t.extraPerYearUSD)}/year${unknown ? ` + ${unknown} cluster(s) of unknown cost` : ""}${t.clustersPastExtendedSupport ? `; ${t.clustersPastExtendedSupport} past end of extended support` : ""}`}
            />
            <UpgradeStat
              testId="stat-crossing"
              label={`Entering extended support within ${t.horizonDays} days`}
              value={String(t.clustersCrossingSoon)}
              hint={`would add ${formatUsd(t.crossingExtraPerMonthUSD)}/month, ${formatUsd(t.crossingExtraPerYearUSD)}/year`}
            />
            <UpgradeStat
              testId="stat-blocked"
              label="Clusters with blockers"
              value={String(t.clustersWithBlockers)}
              hint={`${t.blockers} blocker(s) for N→N+1`}
            />
            <UpgradeStat testId="stat-ready" label="Ready for the next version" value={`${t.ready} of ${t.clusters}`} />
          </dl>
          {unknown ? (
            <p className="mt-2 text-sm text-amber-900 dark:text-amber-200" data-testid="unknown-cost">
              + {unknown} cluster(s) of unknown cost, not in the sums ({t.unknownCost.names.slice(0, 5).join(", ")}
              {unknown > 5 ? ", …" : ""}): their version is not observed now
              {t.unknownCost.estimatedExtraPerMonthUSD
                ? `; from their last known versions they would add about ${formatUsd(t.unknownCost.estimatedExtraPerMonthUSD)}/month`
                : ""}
              .
            </p>
          ) : null}
          <p className="mt-2 text-xs text-zinc-500">
            Extended support bills $0.60 per cluster-hour instead of $0.10: {formatUsd(t.extraPerClusterMonthUSD)} more per cluster per
            month (730 h), from 00:00 UTC on the end-of-standard-support date, and until EKS upgrades a cluster past its end.
          </p>

          <DeadlineSection answer={answer} facets={answer.facets} error={error} showAll={showAll} />

          {campaigns.length ? (
            <section aria-labelledby="campaigns" className="mt-6">
              <h2 id="campaigns" className="text-lg font-semibold">
                Campaigns
              </h2>
              <ul className="mt-2 space-y-1 text-sm">
                {campaigns.map((c) => (
                  <li key={c.slug}>
                    <Link href={c.url} className="font-medium underline">
                      {c.name}
                    </Link>{" "}
                    — {c.done} of {c.total} on {c.targetVersion}, due {c.deadline} ({c.daysLeft} days)
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          <section aria-labelledby="by-version" className="mt-6">
            <h2 id="by-version" className="text-lg font-semibold">
              Clusters per Kubernetes version
            </h2>
            <ul className="mt-2 flex flex-wrap gap-2">
              {Object.entries(f.byVersion)
                .sort(([a], [b]) => Number(a.split(".")[1]) - Number(b.split(".")[1]))
                .map(([v, n]) => (
                  <li key={v} className="rounded border border-zinc-200 bg-white px-2 py-1 text-sm dark:border-zinc-800 dark:bg-zinc-900">
                    <span className="font-mono">{v}</span>: {n}
                  </li>
                ))}
              {f.versionUnknown ? (
                <li className="rounded border border-amber-300 px-2 py-1 text-sm dark:border-amber-800">unknown: {f.versionUnknown}</li>
              ) : null}
            </ul>
          </section>

          <section aria-labelledby="clusters" className="mt-6">
            <h2 id="clusters" className="text-lg font-semibold">
              Clusters, most urgent first
            </h2>
            <ClusterTable clusters={showAll ? o.clusters : o.clusters.slice(0, CLUSTER_PAGE_ROWS)} />
            {!showAll && o.clusters.length > CLUSTER_PAGE_ROWS ? (
              <p className="mt-2 text-sm">
                Showing the {CLUSTER_PAGE_ROWS} most urgent of {o.clusters.length}.{" "}
                <Link href="/upgrades?all=1#clusters" className="underline">
                  Show all
                </Link>
              </p>
            ) : null}
          </section>
        </>
      )}
    </>
  );
}
