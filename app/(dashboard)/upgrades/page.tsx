// Upgrades across the fleet: which clusters must move, by when, what staying costs, and what blocks
// the next step. Each row links to the cluster's readiness checklist.
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { requirePageSession } from "@/lib/auth/guard";
import { getUpgradesOverview } from "@/lib/db/queries/upgrades";
import { formatDaysFromToday, formatUsd } from "@/lib/upgrades/format";
import { EmptyFleet } from "@/app/_components/empty-fleet";
import { SupportBadge, UpgradeStat } from "@/app/_components/upgrade-badges";

export const metadata: Metadata = { title: "Upgrades" };

export default async function UpgradesPage() {
  await connection();
  await requirePageSession();
  const o = await getUpgradesOverview();
  const t = o.totals;
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold">Upgrades</h1>
        <nav aria-label="Upgrade views" className="flex gap-3 text-sm">
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
          <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
            <UpgradeStat
              testId="stat-extended"
              label="In extended support now"
              value={`${t.clustersInExtendedSupport} of ${t.clusters}`}
              hint={`extra ${formatUsd(t.extraPerMonthUSD)}/month, ${formatUsd(t.extraPerYearUSD)}/year`}
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
          <p className="mt-2 text-xs text-zinc-500">
            Extended support bills $0.60 per cluster-hour instead of $0.10: {formatUsd(t.extraPerClusterMonthUSD)} more per cluster per
            month (730 h), from 00:00 UTC on the end-of-standard-support date.
          </p>

          <section aria-labelledby="by-version" className="mt-6">
            <h2 id="by-version" className="text-lg font-semibold">
              Clusters per Kubernetes version
            </h2>
            <ul className="mt-2 flex flex-wrap gap-2">
              {Object.entries(t.byVersion)
                .sort(([a], [b]) => Number(a.split(".")[1]) - Number(b.split(".")[1]))
                .map(([v, n]) => (
                  <li key={v} className="rounded border border-zinc-200 bg-white px-2 py-1 text-sm dark:border-zinc-800 dark:bg-zinc-900">
                    <span className="font-mono">{v}</span>: {n}
                  </li>
                ))}
            </ul>
          </section>

          <section aria-labelledby="clusters" className="mt-6">
            <h2 id="clusters" className="text-lg font-semibold">
              Clusters, most urgent first
            </h2>
            <div className="mt-2 overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
              <table className="min-w-full text-sm">
                <thead className="bg-zinc-50 text-left dark:bg-zinc-950">
                  <tr>
                    {[
                      "Cluster",
                      "Version",
                      "Support",
                      "End of standard support",
                      "Extra cost / month",
                      "Kubelet skew now → after upgrade",
                      "Blockers",
                      "Next",
                    ].map((h) => (
                      <th key={h} scope="col" className="px-3 py-2 font-medium">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {o.clusters.map((c) => (
                    <tr key={c.name} data-cluster={c.name} className="border-t border-zinc-100 dark:border-zinc-800">
                      <th scope="row" className="px-3 py-2 text-left font-medium">
                        <Link href={c.upgradeUrl} className="underline-offset-2 hover:underline">
                          {c.name}
                        </Link>
                        <div className="text-xs font-normal text-zinc-500">{[c.env, c.team, c.region].filter(Boolean).join(" · ")}</div>
                      </th>
                      <td className="px-3 py-2 font-mono">
                        {c.version ?? "?"}
                        {c.eksStatus === "UPDATING" ? (
                          <div className="font-sans text-xs text-sky-700 dark:text-sky-300">updating</div>
                        ) : null}
                      </td>
                      <td className="px-3 py-2">
                        <SupportBadge status={c.versionStatus} />
                      </td>
                      <td className="px-3 py-2 whitespace-nowrap">
                        {c.endOfStandardSupport ? c.endOfStandardSupport.slice(0, 10) : "unknown"}
                        <div className="text-xs text-zinc-500">
                          {formatDaysFromToday(c.daysToEndOfStandardSupport)}
                          {c.crossesIntoExtendedSoon ? " · enters extended support" : ""}
                        </div>
                      </td>
                      <td className="px-3 py-2 tabular-nums" data-testid="cost">
                        {c.inExtendedSupport ? formatUsd(c.monthlyExtendedSupportCostUSD) : "$0"}
                        {c.inExtendedSupport && c.endOfExtendedSupport ? (
                          <div className="text-xs text-zinc-500">auto-upgrade {formatDaysFromToday(c.daysToEndOfExtendedSupport)}</div>
                        ) : null}
                      </td>
                      <td className="px-3 py-2" data-testid="skew">
                        {c.skew && c.skew.kubelets.length ? (
                          <>
                            {c.skew.maxBehindNow} → {c.skew.maxBehindNext} minor(s)
                            {c.skew.outsidePolicyNow ? (
                              <div className="text-xs font-medium text-red-700 dark:text-red-300">outside the skew policy now</div>
                            ) : null}
                            <div className="text-xs text-zinc-500">
                              kubelets {[...new Set(c.skew.kubelets.map((k) => k.minor))].join(", ")}
                            </div>
                          </>
                        ) : (
                          <span className="text-zinc-500">no kubelet data</span>
                        )}
                      </td>
                      <td className="px-3 py-2">
                        {c.blockers.length ? (
                          <ul className="list-disc pl-4 text-xs">
                            {c.blockers.slice(0, 3).map((b, i) => (
                              <li key={i}>{b.title}</li>
                            ))}
                            {c.blockers.length > 3 ? <li>and {c.blockers.length - 3} more</li> : null}
                          </ul>
                        ) : (
                          <span className="text-xs text-zinc-500">none</span>
                        )}
                      </td>
                      <td className="px-3 py-2 whitespace-nowrap">
                        {c.next ? (
                          <Link href={c.upgradeUrl} className="underline">
                            {c.ready ? `Ready for ${c.next}` : `${c.blockers.length} blocker(s) for ${c.next}`}
                          </Link>
                        ) : (
                          <span className="text-xs text-zinc-500">newest version</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
    </>
  );
}
