"use client";

// The fleet table from /api/fleet with the page's filters, refreshed as soon as the change stream says anything
// changed (every 15 s without the stream, every minute with it).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/app/_components/fetch-json";
import Link from "next/link";
import { HealthBadge } from "@/app/_components/health-badge";
import { RelativeTime } from "@/app/_components/relative-time.client";
import type { Fleet, FleetCluster, HealthCounts } from "@/lib/db/queries/fleet";
import { HEALTHS } from "@/lib/fleet/status";
import { pollInterval, useLiveChanges } from "@/app/_components/live-changes.client";
import { queryKeys } from "@/lib/query-keys";

const KIND_COLUMNS: Array<{ label: string; slugs: string[]; onlyWhenPresent?: boolean }> = [
  { label: "Kustomizations", slugs: ["kustomization"] },
  { label: "HelmReleases", slugs: ["helmrelease"] },
  { label: "Sources", slugs: ["gitrepository", "ocirepository", "helmrepository", "helmchart"] },
  // Counted where they live (usually the hub), like Flux objects that deploy elsewhere; a Flux-only fleet has no such column.
  { label: "Argo CD apps", slugs: ["application", "applicationset"], onlyWhenPresent: true },
];

/** The kind columns this fleet needs: the Argo CD one only when some cluster holds Argo CD objects. */
function kindColumns(clusters: FleetCluster[]) {
  return KIND_COLUMNS.filter(
    (k) => !k.onlyWhenPresent || clusters.some((c) => k.slugs.some((slug) => Object.values(c.counts[slug] ?? {}).some((n) => n > 0))),
  );
}

function sum(counts: Record<string, HealthCounts>, slugs: string[]): HealthCounts {
  const out = Object.fromEntries(HEALTHS.map((h) => [h, 0])) as HealthCounts;
  for (const s of slugs) for (const [h, n] of Object.entries(counts[s] ?? {})) out[h as keyof HealthCounts] += n;
  return out;
}

/** "12 ready · 2 failing · 1 stalled": non-zero counts, problems first, coloured and worded. */
export function Counts({ counts }: { counts: HealthCounts }) {
  const parts: Array<[keyof HealthCounts, string, string?]> = [
    ["failing", "text-health-failing font-semibold"],
    ["stalled", "text-health-stalled font-semibold"],
    ["unclaimed", "text-health-failing font-semibold", "not picked up"],
    ["stale", "text-health-stale"],
    ["suspended", "text-health-suspended"],
    ["progressing", "text-health-progressing"],
    ["new", "text-health-progressing", "new"],
    ["unknown", "text-health-unknown"],
    ["ready", "text-health-ready dark:text-green-400"],
  ];
  const shown = parts.filter(([h]) => counts[h] > 0);
  if (!shown.length) return <span className="text-zinc-500">–</span>;
  return (
    <span className="flex flex-wrap gap-x-2 text-xs">
      {shown.map(([h, cls, label]) => (
        <span key={h} className={cls} data-count={h}>
          {counts[h]} {label ?? h}
        </span>
      ))}
    </span>
  );
}

function SupportNote({ c }: { c: FleetCluster }) {
  const s = c.support;
  if (!s?.versionStatus) return null;
  if (s.versionStatus === "STANDARD_SUPPORT") {
    const days = s.daysToEndOfStandardSupport;
    return (
      <span className={`block text-xs ${days != null && days <= 90 ? "text-health-stale" : "text-zinc-500"}`}>
        standard{days != null ? `, ${days} d left` : ""}
      </span>
    );
  }
  return (
    <span className="block text-xs font-semibold text-health-failing">
      {s.versionStatus === "EXTENDED_SUPPORT" ? "extended support" : "unsupported"}
    </span>
  );
}

/** The control-plane version, where it came from when not the usual source, or what is asked for while created. */
function VersionCell({ c }: { c: FleetCluster }) {
  const k = c.versionKnowledge;
  if (k.source === "desired") return <span className="font-mono text-xs">{k.version ? `${k.version} desired` : "–"}</span>;
  const text = c.eksVersion ? `EKS ${c.eksVersion}` : (c.kubernetesVersion ?? "–");
  return (
    <>
      <span className="font-mono text-xs">{text}</span>
      {k.from === "crossplane" ? <span className="block text-xs text-zinc-500">from Crossplane</span> : null}
      {k.upgradeInProgress ? <span className="block text-xs text-health-progressing">→ {k.desiredVersion} in progress</span> : null}
    </>
  );
}

export function FleetLive({ initial, queryString, showAllHref }: { initial: Fleet; queryString: string; showAllHref: string }) {
  const queryClient = useQueryClient();
  const live = useLiveChanges(
    () => true,
    () => queryClient.refetchQueries({ queryKey: queryKeys.fleet(queryString) }),
  );
  const { data, isError } = useQuery({
    queryKey: queryKeys.fleet(queryString),
    queryFn: () => fetchJson<Fleet>(`/api/fleet${queryString}`, "fleet"),
    initialData: initial,
    refetchInterval: pollInterval(live.streaming, 15_000),
  });
  const fleet = data ?? initial;
  const columns = kindColumns(fleet.clusters);
  const s = fleet.summary;
  return (
    <>
      <section aria-labelledby="fleet-summary" className="mt-4">
        <h2 id="fleet-summary" className="sr-only">
          Summary
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" aria-live="polite" data-testid="fleet-summary">
          {[
            ["Clusters", `${s.clusters}`, `${s.unreachable} unreachable${s.provisioning ? ` · ${s.provisioning} provisioning` : ""}`],
            ["Failing", `${s.byHealth.failing}`, s.byHealth.unclaimed ? `objects · ${s.byHealth.unclaimed} not picked up` : "objects"],
            ["Stalled", `${s.byHealth.stalled}`, "objects"],
            ["Stale / suspended", `${s.byHealth.stale} / ${s.byHealth.suspended}`, "objects"],
            ["NotReady nodes", `${s.notReadyNodes}`, "Ready False or Unknown"],
          ].map(([label, value, note]) => (
            <div
              key={label}
              data-testid={`summary-${label.toLowerCase().replace(/[^a-z]+/g, "-")}`}
              className="rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
            >
              <dt className="text-xs text-zinc-600 dark:text-zinc-400">{label}</dt>
              <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
              <dd className="text-xs text-zinc-500">{note}</dd>
            </div>
          ))}
        </dl>
        {s.drifted ? (
          <p className="mt-2 text-sm" data-testid="fleet-drifted">
            <Link href="/failures?problem=drifted" className="text-sky-700 underline-offset-2 hover:underline dark:text-sky-400">
              {s.drifted} drifted {s.drifted === 1 ? "object" : "objects"}
            </Link>{" "}
            <span className="text-zinc-600 dark:text-zinc-400">
              ready, but the cluster differs from the release (not counted as failing)
            </span>
          </p>
        ) : null}
        {isError ? <p className="mt-2 text-sm text-health-failing">Could not refresh; showing the last data.</p> : null}
      </section>

      <div className="mt-6 overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <table className="w-full min-w-[56rem] text-left text-sm">
          <caption className="sr-only">Clusters, worst first</caption>
          <thead className="border-b border-zinc-200 text-xs uppercase text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
            <tr>
              <th scope="col" className="px-3 py-2">
                Cluster
              </th>
              <th scope="col" className="px-3 py-2">
                Reachability
              </th>
              {columns.map((k) => (
                <th key={k.label} scope="col" className="px-3 py-2">
                  {k.label}
                </th>
              ))}
              <th scope="col" className="px-3 py-2">
                Kubernetes
              </th>
              <th scope="col" className="px-3 py-2">
                Flux
              </th>
            </tr>
          </thead>
          <tbody>
            {fleet.clusters.map((c) => (
              <tr
                key={c.name}
                className="border-b border-zinc-100 align-top last:border-0 dark:border-zinc-800"
                data-cluster={c.name}
                data-env={c.env ?? ""}
              >
                <th scope="row" className="px-3 py-2 font-medium">
                  <Link href={c.url} className="text-sky-700 underline-offset-2 hover:underline dark:text-sky-400">
                    {c.name}
                  </Link>
                  <span className="block text-xs font-normal text-zinc-500">{[c.env, c.team, c.region].filter(Boolean).join(" · ")}</span>
                </th>
                <td className="px-3 py-2">
                  <HealthBadge health={c.reachability} label={c.provisioning === "failed" ? "failed to create" : undefined} />
                  {c.provisioning ? (
                    <span className="mt-1 block text-xs text-zinc-500">by Crossplane, no data yet</span>
                  ) : (
                    <span className="mt-1 block text-xs text-zinc-500">
                      data <RelativeTime value={c.lastSuccessAt} />
                    </span>
                  )}
                </td>
                {columns.map((k) => (
                  <td key={k.label} className="px-3 py-2">
                    <Counts counts={sum(c.counts, k.slugs)} />
                  </td>
                ))}
                <td className="px-3 py-2">
                  <VersionCell c={c} />
                  <SupportNote c={c} />
                  {c.notReadyNodes ? (
                    <span className="block text-xs font-semibold text-health-failing" data-testid="not-ready-nodes">
                      {c.notReadyNodes} {c.notReadyNodes === 1 ? "node" : "nodes"} NotReady
                    </span>
                  ) : null}
                </td>
                <td className="px-3 py-2 font-mono text-xs">{c.fluxVersion ?? "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {fleet.clusters.length === 0 ? <p className="p-4 text-sm text-zinc-600">No cluster matches these filters.</p> : null}
        {fleet.matching > fleet.clusters.length ? (
          <p className="border-t border-zinc-200 p-3 text-sm text-zinc-700 dark:border-zinc-800 dark:text-zinc-300">
            Showing the {fleet.clusters.length} clusters that need attention most, of {fleet.matching}. Narrow with the filters or{" "}
            <a href={showAllHref} className="text-sky-700 underline dark:text-sky-400">
              show all
            </a>
            .
          </p>
        ) : null}
      </div>
    </>
  );
}
