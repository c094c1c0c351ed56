"use client";

// Failure groups, root causes first with their followers nested, refreshed as soon as the change stream says
// anything changed (every 15 s without the stream, every minute with it).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/app/_components/fetch-json";
import Link from "next/link";
import { HealthBadge } from "@/app/_components/health-badge";
import { HealthDetailBadge } from "@/app/_components/health-detail-badge";
import { MessageText } from "@/app/_components/message-text";
import { RelativeTime } from "@/app/_components/relative-time.client";
import type { Failures } from "@/lib/db/queries/failures";
import type { FailureGroup } from "@/lib/fleet/failures";
import { pollInterval, useLiveChanges } from "@/app/_components/live-changes.client";
import { concernsClusterFilter } from "@/lib/live/changes";
import { queryKeys } from "@/lib/query-keys";
import { formatDuration } from "@/lib/time";

const MEMBERS_SHOWN = 12;

const seconds = (s: number | null) => (s == null ? "–" : formatDuration(s * 1000));

/** What a member waits on: an object, a failed Crossplane resource, or a cluster still being created. */
function rootCauseText(r: NonNullable<FailureGroup["members"][number]["rootCause"]>, memberCluster: string): string {
  if (r.kind === "Cluster" && !r.namespace && r.name === r.cluster && r.health === "progressing")
    return `waits on cluster ${r.cluster} (Crossplane is creating it)`;
  const where = r.cluster !== memberCluster && r.cluster !== r.name ? ` in ${r.cluster}` : "";
  return `waits on ${r.kind} ${r.namespace ? `${r.namespace}/` : ""}${r.name}${where}`;
}

/** What the group is, in words, for cluster-level problems. */
const PROBLEM_TITLES: Partial<Record<FailureGroup["problem"], string>> = {
  "create-failed": "Crossplane failed to create the cluster",
  crossplane: "Crossplane resource failing",
};

function Members({ group }: { group: FailureGroup }) {
  const rows = (list: FailureGroup["members"]) =>
    list.map((m) => (
      <tr key={m.url} className="border-t border-zinc-100 align-top dark:border-zinc-800">
        <td className="px-2 py-1.5">
          <Link href={`/clusters/${encodeURIComponent(m.cluster)}`} className="underline-offset-2 hover:underline">
            {m.cluster}
          </Link>
        </td>
        <th scope="row" className="px-2 py-1.5 font-normal">
          {m.problem === "unreachable" ? (
            <Link href={m.url} className="text-sky-700 underline-offset-2 hover:underline dark:text-sky-400">
              cluster
            </Link>
          ) : (
            <Link href={m.url} className="break-all text-sky-700 underline-offset-2 hover:underline dark:text-sky-400">
              {m.namespace ? `${m.namespace}/` : ""}
              {m.name}
            </Link>
          )}
          {m.health === "unknown" ? <span className="ml-2 text-xs text-zinc-500">(last known; cluster unreachable)</span> : null}
        </th>
        <td className="px-2 py-1.5 whitespace-nowrap">{seconds(m.failingForSeconds)}</td>
        <td className="px-2 py-1.5">
          {m.rootCause ? (
            <Link href={m.rootCause.url} className="text-xs underline-offset-2 hover:underline" data-testid="root-cause">
              {rootCauseText(m.rootCause, m.cluster)}
            </Link>
          ) : null}
        </td>
      </tr>
    ));
  const head = group.members.slice(0, MEMBERS_SHOWN);
  const rest = group.members.slice(MEMBERS_SHOWN);
  const table = (body: React.ReactNode, caption: string) => (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs text-zinc-500">
          <tr>
            <th scope="col" className="px-2 py-1">
              Cluster
            </th>
            <th scope="col" className="px-2 py-1">
              Object
            </th>
            <th scope="col" className="px-2 py-1">
              Failing for
            </th>
            <th scope="col" className="px-2 py-1">
              Root cause
            </th>
          </tr>
        </thead>
        <tbody>{body}</tbody>
      </table>
    </div>
  );
  return (
    <>
      {table(rows(head), `Objects with this failure`)}
      {rest.length ? (
        <details className="mt-1">
          <summary className="cursor-pointer text-sm text-sky-700 dark:text-sky-400">Show {rest.length} more</summary>
          {table(rows(rest), `More objects with this failure`)}
        </details>
      ) : null}
      {group.objectCount > group.members.length ? (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {group.objectCount - group.members.length} more not listed here: narrow the filters (cluster, search) to see them.
        </p>
      ) : null}
    </>
  );
}

function Group({ group, level }: { group: FailureGroup; level: number }) {
  const Heading = level === 0 ? "h2" : "h3";
  return (
    <li
      id={`group-${group.id}`}
      data-testid="failure-group"
      data-kind={group.kind}
      data-reason={group.reason}
      data-problem={group.problem}
      data-cluster-count={group.clusterCount}
      className={`rounded-lg border bg-white p-4 dark:bg-zinc-900 ${level === 0 ? "border-zinc-200 dark:border-zinc-800" : "border-dashed border-zinc-300 dark:border-zinc-700"}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        {group.problem === "drifted" ? <HealthDetailBadge detail="drifted" /> : <HealthBadge health={group.problem} />}
        <Heading className="text-base font-semibold">
          {PROBLEM_TITLES[group.problem] ? `${PROBLEM_TITLES[group.problem]}: ` : ""}
          {group.kind} · {group.reason}
        </Heading>
        <span className="text-sm text-zinc-600 dark:text-zinc-400">
          <strong className="tabular-nums">{group.clusterCount}</strong> {group.clusterCount === 1 ? "cluster" : "clusters"} ·{" "}
          <span className="tabular-nums">{group.objectCount}</span> {group.objectCount === 1 ? "object" : "objects"}
        </span>
      </div>
      <div className="mt-2 text-zinc-800 dark:text-zinc-200">
        {/* A 32 KiB health-check message stays one line until someone expands it. */}
        {group.message ? <MessageText message={group.message} /> : <span className="font-mono text-xs">(no message)</span>}
      </div>
      {group.problem === "stale" || group.problem === "drifted" ? null : (
        <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
          {group.problem === "unreachable" ? "Unreachable since" : group.problem === "unclaimed" ? "Created" : "First failed"}{" "}
          <RelativeTime value={group.firstFailedAt} /> · longest{" "}
          {group.problem === "unreachable" ? "unreachable" : group.problem === "unclaimed" ? "waiting" : "failing"}{" "}
          {seconds(group.longestFailingSeconds)}
        </p>
      )}
      <div className="mt-2">
        <Members group={group} />
      </div>
      {group.followers.length ? (
        <section
          aria-label={`Failures caused by ${group.kind} ${group.reason}`}
          className="mt-3 border-l-2 border-zinc-300 pl-3 dark:border-zinc-700"
        >
          <p className="mb-2 text-sm font-medium">
            Caused by this ({group.followers.length} {group.followers.length === 1 ? "group" : "groups"}):
          </p>
          <ul className="space-y-3">
            {group.followers.map((f) => (
              <Group key={f.id} group={f} level={level + 1} />
            ))}
          </ul>
        </section>
      ) : null}
    </li>
  );
}

export function FailuresLive({ initial, queryString }: { initial: Failures; queryString: string }) {
  // Unfiltered, any cluster's change may add or clear a group (followers span clusters); filtered to some
  // clusters, only theirs (and fleet-wide changes) can.
  const queryClient = useQueryClient();
  const live = useLiveChanges(
    (changed) => concernsClusterFilter(changed, initial.filters.cluster),
    () => queryClient.refetchQueries({ queryKey: queryKeys.failures(queryString) }),
  );
  const { data, isError } = useQuery({
    queryKey: queryKeys.failures(queryString),
    queryFn: () => fetchJson<Failures>(`/api/failures${queryString}`, "failures"),
    initialData: initial,
    refetchInterval: pollInterval(live.streaming, 15_000),
  });
  const f = data ?? initial;
  // Drift is listed only when asked for, and never called failing.
  const drifted = f.filters.problem === "drifted";
  return (
    <>
      <p
        className="mt-4 text-sm text-zinc-700 dark:text-zinc-300"
        aria-live="polite"
        data-testid="failures-totals"
        data-stream={live.streaming ? "open" : "closed"}
        data-change-events={live.events}
      >
        {f.totals.groups === 0 ? (
          drifted ? (
            "Nothing has drifted."
          ) : (
            "Nothing is failing. 🎉"
          )
        ) : (
          <>
            <strong>{f.totals.objects}</strong> {drifted ? "drifted" : "failing"} {f.totals.objects === 1 ? "item" : "items"} in{" "}
            <strong>{f.totals.clusters}</strong> {f.totals.clusters === 1 ? "cluster" : "clusters"}, {f.totals.groups}{" "}
            {f.totals.groups === 1 ? "cause" : "causes"}
          </>
        )}
        {isError ? <span className="ml-2 text-health-failing">(cannot refresh; showing the last data)</span> : null}
      </p>
      <ul className="mt-4 space-y-4">
        {f.groups.map((g) => (
          <Group key={g.id} group={g} level={0} />
        ))}
      </ul>
    </>
  );
}
