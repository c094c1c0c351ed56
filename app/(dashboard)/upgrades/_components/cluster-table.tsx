// Clusters, most urgent first: version (as known), support, deadlines, cost, kubelet skew, blockers.
import Link from "next/link";
import type { ClusterUpgrade } from "@/lib/db/queries/upgrades";
import { formatDaysFromToday, formatUsd } from "@/lib/upgrades/format";
import { SupportBadge } from "@/app/_components/upgrade-badges";

function Cost({ c }: { c: ClusterUpgrade }) {
  if (c.monthlyExtendedSupportCostUSD == null) return <span className="text-amber-900 dark:text-amber-200">unknown</span>;
  const amount = formatUsd(c.monthlyExtendedSupportCostUSD);
  return (
    <>
      {c.costKnown ? amount : <span className="text-amber-900 dark:text-amber-200">≈ {amount} (not summed)</span>}
      {c.pastExtendedSupport && c.endOfExtendedSupport ? (
        <div className="text-xs text-red-800 dark:text-red-300">auto-upgrade due since {c.endOfExtendedSupport.slice(0, 10)}</div>
      ) : c.inExtendedSupport && c.endOfExtendedSupport ? (
        <div className="text-xs text-zinc-500">auto-upgrade {formatDaysFromToday(c.daysToEndOfExtendedSupport)}</div>
      ) : null}
    </>
  );
}

export function ClusterTable({ clusters }: { clusters: ClusterUpgrade[] }) {
  return (
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
              "Kubelet skew now → after",
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
          {clusters.map((c) => (
            <tr key={c.name} data-cluster={c.name} className="border-t border-zinc-100 dark:border-zinc-800">
              <th scope="row" className="px-3 py-2 text-left font-medium">
                <Link href={c.upgradeUrl} className="underline-offset-2 hover:underline">
                  {c.name}
                </Link>
                <div className="text-xs font-normal text-zinc-500">{[c.env, c.team, c.region].filter(Boolean).join(" · ")}</div>
              </th>
              <td className="px-3 py-2" data-testid="version" data-source={c.knowledge.source} data-from={c.knowledge.from ?? undefined}>
                {c.knowledge.source === "observed" ? (
                  <span className="font-mono">{c.version}</span>
                ) : (
                  <span className="text-amber-900 dark:text-amber-200" title={c.knowledge.why ?? undefined}>
                    {c.versionLabel}
                  </span>
                )}
                {c.eksStatus === "UPDATING" ? <div className="text-xs text-sky-700 dark:text-sky-300">updating</div> : null}
                {c.eksFactsNote ? (
                  <div className="text-xs text-zinc-500" data-testid="eks-facts-source">
                    {c.eksFactsNote}
                  </div>
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
                <Cost c={c} />
              </td>
              <td className="px-3 py-2" data-testid="skew">
                {c.skew && c.skew.kubelets.length ? (
                  <>
                    {c.skew.maxBehindNow} → {c.skew.maxBehindNext} minor(s)
                    {c.skew.outsidePolicyNow ? (
                      <div className="text-xs font-medium text-red-700 dark:text-red-300">outside the skew policy now</div>
                    ) : null}
                    <div className="text-xs text-zinc-500">kubelets {[...new Set(c.skew.kubelets.map((k) => k.minor))].join(", ")}</div>
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
                {c.upcoming.length ? <div className="text-xs text-zinc-500">{c.upcoming.length} upcoming removal(s)</div> : null}
              </td>
              <td className="px-3 py-2 whitespace-nowrap">
                {c.next ? (
                  <Link href={c.upgradeUrl} className="underline">
                    {c.ready ? `Ready for ${c.next}` : `${c.blockers.length} blocker(s) for ${c.next}`}
                  </Link>
                ) : (
                  <span className="text-xs text-zinc-500">{c.version ? "no newer version" : "version unknown"}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
