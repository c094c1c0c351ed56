// One cluster's readiness for N→N+1: blockers, warnings, an ordered checklist, and the facts behind
// them (kubelet skew, managed add-ons, EKS insights, removed APIs in Flux inventories).
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { requirePageSession } from "@/lib/auth/guard";
import { getClusterReadiness } from "@/lib/db/queries/upgrades";
import { readPageParams, routeParam } from "@/lib/http/route-params";
import { apiVersionOf } from "@/lib/upgrades/removed-apis";
import { formatDaysFromToday, formatUsd } from "@/lib/upgrades/format";
import type { Finding } from "@/lib/upgrades/readiness";
import { SupportBadge, UpgradeStat } from "@/app/_components/upgrade-badges";

type Params = Promise<{ cluster: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { cluster } = await params;
  return { title: `Upgrade ${routeParam(cluster) ?? "not found"}` };
}

const th = "px-3 py-2 text-left font-medium";
const td = "px-3 py-2 align-top";

function Findings({ id, title, items, tone }: { id: string; title: string; items: Finding[]; tone: "blocker" | "warning" | "upcoming" }) {
  const box =
    tone === "blocker"
      ? "border-red-300 bg-red-50 dark:border-red-900 dark:bg-red-950/50"
      : tone === "warning"
        ? "border-amber-300 bg-amber-50 dark:border-amber-900 dark:bg-amber-950/50"
        : "border-zinc-300 bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900";
  return (
    <section aria-labelledby={id} className="mt-6">
      <h2 id={id} className="text-lg font-semibold">
        {title} ({items.length})
      </h2>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">None.</p>
      ) : (
        <ul className="mt-2 space-y-2" data-testid={`${tone}s`}>
          {items.map((f, i) => (
            <li key={i} className={`rounded border p-2 text-sm ${box}`} data-kind={f.kind}>
              <div className="font-medium">{f.title}</div>
              {f.detail ? <div className="mt-0.5 whitespace-pre-line text-zinc-700 dark:text-zinc-300">{f.detail}</div> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default async function ClusterUpgradePage({ params }: { params: Params }) {
  await connection();
  await requirePageSession();
  const { cluster } = await readPageParams(params);
  const v = await getClusterReadiness(cluster);
  if (!v) notFound();
  const r = v.readiness;
  return (
    <>
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-600 dark:text-zinc-400">
        <Link href="/upgrades" className="underline">
          Upgrades
        </Link>{" "}
        / {v.name}
      </nav>
      <h1 className="mt-1 text-2xl font-semibold">
        {v.name}: {v.versionLabel} → {r.next ?? (r.current ? "no newer version" : "?")}
      </h1>
      <p className="mt-1 text-sm">
        <Link href={v.url} className="underline">
          Cluster page
        </Link>
        {v.knowledge.source !== "observed" ? (
          <span className="ml-2 text-amber-800 dark:text-amber-300" data-testid="knowledge">
            ({v.knowledge.why}; {v.knowledge.source === "last-known" ? "last known state" : "nothing observed yet"})
          </span>
        ) : null}
        {v.eksFactsNote ? (
          <span className="ml-2 text-zinc-600 dark:text-zinc-400" data-testid="eks-facts-source">
            Version {v.eksFactsNote}.
          </span>
        ) : null}
      </p>

      <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <div className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900">
          <dt className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Support</dt>
          <dd className="mt-1">
            <SupportBadge status={v.versionStatus} />
          </dd>
          <dd className="mt-1 text-xs text-zinc-500">
            dates from{" "}
            {v.supportSource === "eks-api"
              ? "DescribeClusterVersions"
              : v.supportSource === "calendar"
                ? "the built-in calendar"
                : "nowhere (unknown version)"}
          </dd>
        </div>
        <UpgradeStat
          label="End of standard support"
          value={v.endOfStandardSupport?.slice(0, 10) ?? "unknown"}
          hint={formatDaysFromToday(v.daysToEndOfStandardSupport)}
        />
        <UpgradeStat
          testId="extended-end"
          label="End of extended support"
          value={v.endOfExtendedSupport?.slice(0, 10) ?? "unknown"}
          hint={
            v.pastExtendedSupport
              ? `auto-upgrade due since ${v.endOfExtendedSupport?.slice(0, 10)}: EKS upgrades the control plane itself`
              : `${formatDaysFromToday(v.daysToEndOfExtendedSupport)}: EKS then upgrades the control plane itself`
          }
        />
        <UpgradeStat
          testId="cluster-cost"
          label="Extra cost of extended support"
          value={v.monthlyExtendedSupportCostUSD == null ? "unknown" : `${formatUsd(v.monthlyExtendedSupportCostUSD)}/month`}
          hint={
            v.monthlyExtendedSupportCostUSD == null
              ? `version unknown: ${v.knowledge.why}`
              : !v.costKnown
                ? `estimate from the last known version, not summed with the fleet`
                : v.inExtendedSupport || v.pastExtendedSupport
                  ? `${formatUsd(v.monthlyExtendedSupportCostUSD * 12)}/year while it stays`
                  : v.crossesIntoExtendedSoon
                    ? "starts within 90 days"
                    : `support policy: ${v.supportType ?? "EXTENDED (default)"}`
          }
        />
      </dl>

      <p className="mt-4 text-sm font-medium" data-testid="verdict">
        {r.next
          ? r.ready
            ? `Ready to upgrade to ${r.next}.`
            : `${r.blockers.length} blocker(s) before upgrading to ${r.next}.`
          : r.current
            ? "No newer Kubernetes version is known (EKS, the calendar and the fleet know none)."
            : "The cluster's version is not known, so its next upgrade cannot be checked."}
      </p>

      <Findings id="blockers" title="Blockers" items={r.blockers} tone="blocker" />
      <Findings id="warnings" title="Warnings" items={r.warnings} tone="warning" />
      {r.upcoming.length ? (
        <Findings id="upcoming" title="Upcoming: APIs removed after the next version" items={r.upcoming} tone="upcoming" />
      ) : null}

      {r.checklist.length ? (
        <section aria-labelledby="checklist" className="mt-6">
          <h2 id="checklist" className="text-lg font-semibold">
            Checklist
          </h2>
          <ol className="mt-2 space-y-3" data-testid="checklist">
            {r.checklist.map((s, i) => (
              <li key={i} className="rounded border border-zinc-200 bg-white p-3 text-sm dark:border-zinc-800 dark:bg-zinc-900">
                <div className="flex items-start gap-2">
                  <span
                    aria-hidden="true"
                    className={`mt-0.5 inline-block h-4 w-4 shrink-0 rounded-full border ${s.done ? "border-green-700 bg-green-600" : "border-zinc-400"}`}
                  />
                  <div className="min-w-0">
                    <div className="font-medium">
                      {i + 1}. {s.title}{" "}
                      {s.done ? <span className="text-xs font-normal text-green-800 dark:text-green-300">(nothing to do)</span> : null}
                    </div>
                    <div className="mt-0.5 whitespace-pre-line text-zinc-700 dark:text-zinc-300">{s.detail}</div>
                    {s.command ? (
                      <pre className="mt-1 overflow-x-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-950">
                        <code>{s.command}</code>
                      </pre>
                    ) : null}
                  </div>
                </div>
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      <section aria-labelledby="kubelets" className="mt-6">
        <h2 id="kubelets" className="text-lg font-semibold">
          Kubelet skew
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          A kubelet may be up to 3 minors older than the API server, never newer. Before {r.next ?? "N+1"}, every kubelet must be{" "}
          {v.skewReport?.minimumForNext ?? "N-2"} or newer.
        </p>
        {v.skewReport?.groups.length ? (
          <div className="mt-2 overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
            <table className="min-w-full text-sm" data-testid="skew-table">
              <thead className="bg-zinc-50 dark:bg-zinc-950">
                <tr>
                  <th scope="col" className={th}>
                    Nodes
                  </th>
                  <th scope="col" className={th}>
                    Kubelet
                  </th>
                  <th scope="col" className={th}>
                    Behind now
                  </th>
                  <th scope="col" className={th}>
                    Behind after {r.next ?? "N+1"}
                  </th>
                  <th scope="col" className={th}>
                    Verdict
                  </th>
                </tr>
              </thead>
              <tbody>
                {v.skewReport.groups.map((g, i) => (
                  <tr key={i} className="border-t border-zinc-100 dark:border-zinc-800">
                    <th scope="row" className={`${td} text-left font-normal`}>
                      {g.source ? `node group ${g.source}` : "nodes outside node groups"}
                      {g.nodes != null ? ` (${g.nodes})` : ""}
                    </th>
                    <td className={`${td} font-mono`}>{g.version}</td>
                    <td className={td}>{g.behindNow}</td>
                    <td className={td}>{g.behindNext}</td>
                    <td className={td}>
                      {g.violatesNow
                        ? "outside policy now"
                        : g.blocksNext
                          ? `blocks ${r.next}`
                          : g.behindNow > 0
                            ? "upgrade after the control plane"
                            : "ok"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="mt-1 text-sm">No node or node group versions recorded.</p>
        )}
      </section>

      <section aria-labelledby="managed" className="mt-6">
        <h2 id="managed" className="scroll-mt-4 text-lg font-semibold">
          EKS managed add-ons
        </h2>
        {v.managedAddons.length ? (
          <div className="mt-2 overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
            <table className="min-w-full text-sm">
              <thead className="bg-zinc-50 dark:bg-zinc-950">
                <tr>
                  <th scope="col" className={th}>
                    Add-on
                  </th>
                  <th scope="col" className={th}>
                    Installed
                  </th>
                  <th scope="col" className={th}>
                    Default / latest on {r.current}
                  </th>
                  <th scope="col" className={th}>
                    Default / latest on {r.next ?? "N+1"}
                  </th>
                  <th scope="col" className={th}>
                    Runs on {r.next ?? "N+1"}
                  </th>
                  <th scope="col" className={th}>
                    What to do
                  </th>
                </tr>
              </thead>
              <tbody>
                {v.managedAddons.map((a) => (
                  <tr key={a.name} className="border-t border-zinc-100 dark:border-zinc-800">
                    <th scope="row" className={`${td} text-left font-medium`}>
                      {a.name}
                      {a.failing ? <span className="ml-1 text-xs text-red-700 dark:text-red-300">{a.status}</span> : null}
                    </th>
                    <td className={`${td} font-mono text-xs`}>{a.version ?? "?"}</td>
                    <td className={`${td} font-mono text-xs`}>
                      {a.defaultNow ?? "?"} / {a.latestNow ?? "?"}
                    </td>
                    <td className={`${td} font-mono text-xs`}>
                      {a.defaultNext ?? "?"} / {a.latestNext ?? "?"}
                    </td>
                    <td className={td}>{a.compatibleWithNext === null ? "unknown" : a.compatibleWithNext ? "yes" : "no"}</td>
                    <td className={`${td} text-xs`} data-testid="addon-advice">
                      {a.advice.when === "before"
                        ? `update to ${a.advice.to} before the control plane (runs on both)`
                        : a.advice.when === "after"
                          ? `update after the control plane, to ${a.advice.to}`
                          : a.advice.when === "none"
                            ? "nothing to do"
                            : "unknown: catalog not fetched"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="mt-1 text-sm">No managed add-ons recorded.</p>
        )}
      </section>

      <section aria-labelledby="removed" className="mt-6">
        <h2 id="removed" className="text-lg font-semibold">
          Removed and deprecated APIs in Flux inventories
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Every Kustomization and HelmRelease inventory entry on an API version Kubernetes stops serving, with the version that removes it:
          removals up to {r.next ?? "the next version"} block the upgrade, later ones are upcoming.
        </p>
        {v.removedApis.length ? (
          <div className="mt-2 overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
            <table className="min-w-full text-sm" data-testid="removed-apis">
              <thead className="bg-zinc-50 dark:bg-zinc-950">
                <tr>
                  <th scope="col" className={th}>
                    Resource
                  </th>
                  <th scope="col" className={th}>
                    API version
                  </th>
                  <th scope="col" className={th}>
                    Removed in
                  </th>
                  <th scope="col" className={th}>
                    Stage
                  </th>
                  <th scope="col" className={th}>
                    Use instead
                  </th>
                  <th scope="col" className={th}>
                    Applied by
                  </th>
                </tr>
              </thead>
              <tbody>
                {v.removedApis.map((u, i) => (
                  <tr key={i} className="border-t border-zinc-100 dark:border-zinc-800">
                    <th scope="row" className={`${td} text-left font-normal`}>
                      {u.kind} {u.namespace ? `${u.namespace}/` : ""}
                      {u.name}
                    </th>
                    <td className={`${td} font-mono text-xs`}>{apiVersionOf(u.group, u.version)}</td>
                    <td className={td}>{u.removed.removedIn}</td>
                    <td className={td} data-stage={u.stage}>
                      {u.stage === "removed"
                        ? "no longer served: blocker"
                        : u.stage === "next"
                          ? `blocks ${r.next}`
                          : u.stage === "upcoming"
                            ? "upcoming"
                            : "version unknown"}
                    </td>
                    <td className={`${td} font-mono text-xs`}>{u.removed.replacement}</td>
                    <td className={td}>
                      <Link href={u.ownerUrl} className="underline">
                        {u.owner.kind} {u.owner.namespace}/{u.owner.name}
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="mt-1 text-sm">No resource in a Flux inventory uses a removed or deprecated API.</p>
        )}
      </section>

      <section aria-labelledby="insights" className="mt-6">
        <h2 id="insights" className="text-lg font-semibold">
          EKS upgrade insights
        </h2>
        {v.insights.length ? (
          <ul className="mt-2 space-y-1 text-sm">
            {v.insights.map((i) => (
              <li key={i.name}>
                <span
                  className={`mr-2 inline-block rounded px-1.5 text-xs font-medium ${i.status === "PASSING" ? "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200" : i.status === "ERROR" ? "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200" : "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"}`}
                >
                  {i.status}
                </span>
                {i.name}
                {i.kubernetesVersion ? <span className="text-zinc-500"> (for {i.kubernetesVersion})</span> : null}
                {i.reason ? <span className="text-zinc-600 dark:text-zinc-400">: {i.reason}</span> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-sm">No insights recorded (the collector reads them with ListInsights / DescribeInsight).</p>
        )}
      </section>
    </>
  );
}
