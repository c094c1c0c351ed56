"use client";

// The parts of an object page that change while someone watches: its health and its timeline.
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/app/_components/fetch-json";
import { HealthBadge } from "@/app/_components/health-badge";
import { HistoryTimeline } from "@/app/_components/history-timeline";
import type { ObjectDetail } from "@/lib/db/queries/objects";
import { objectApiPath } from "@/lib/fleet/urls";
import { queryKeys } from "@/lib/query-keys";
import { formatDuration } from "@/lib/time";
import { objectTimelineItems } from "./_sections/timeline-items";

function useObject(initial: ObjectDetail) {
  const { cluster, kind, namespace, name } = initial.ref;
  return useQuery({
    queryKey: queryKeys.object(cluster, kind, namespace, name),
    queryFn: () => fetchJson<ObjectDetail>(objectApiPath(initial.ref), "object"),
    initialData: initial,
    refetchInterval: 15_000,
  });
}

export function ObjectStatusLive({ initial }: { initial: ObjectDetail }) {
  const { data } = useObject(initial);
  const o = (data ?? initial).object;
  return (
    <span className="flex flex-wrap items-center gap-2" aria-live="polite" data-testid="object-health">
      <HealthBadge health={o.health} />
      {o.health === "unknown" ? <span className="text-sm text-zinc-600 dark:text-zinc-400">last known:</span> : null}
      {o.health === "unknown" ? <HealthBadge health={o.storedHealth} /> : null}
      {o.failingForSeconds != null ? (
        <span className="text-sm font-medium text-health-failing" data-testid="failing-for">
          failing for {formatDuration(o.failingForSeconds * 1000)}
        </span>
      ) : null}
    </span>
  );
}

export function TimelineLive({ initial }: { initial: ObjectDetail }) {
  const { data } = useObject(initial);
  return (
    <HistoryTimeline items={objectTimelineItems((data ?? initial).timeline)} emptyText="Nothing recorded yet." testId="timeline" live />
  );
}
