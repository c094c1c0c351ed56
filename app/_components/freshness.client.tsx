"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import type { Freshness } from "@/lib/db/queries/freshness";
import { useLiveChanges } from "./live-changes.client";
import { queryKeys } from "@/lib/query-keys";
import { RelativeTime } from "./relative-time.client";
import { useNow } from "./use-now.client";

/**
 * "Data from 40 s ago · 11/12 clusters reachable", kept current while the page is open. Where the layout
 * shows the badge twice (wide and narrow screens), one copy follows the change stream: the copies share
 * one query, and two refreshes of it at once would cancel each other.
 */
export function FreshnessBadge({ initial, followsChanges = true }: { initial: Freshness; followsChanges?: boolean }) {
  // Every write moves the data's age: keep it in step with the sections the stream refreshes.
  const queryClient = useQueryClient();
  useLiveChanges(
    () => followsChanges,
    () => queryClient.refetchQueries({ queryKey: queryKeys.freshness() }),
  );
  const { data, isError } = useQuery({
    queryKey: queryKeys.freshness(),
    queryFn: () => fetchJson<Freshness>("/api/freshness", "freshness"),
    initialData: initial,
    refetchInterval: 15_000,
  });
  const now = useNow();
  const f = data ?? initial;
  const stale = now !== null && (f.lastSuccessAt ? now - Date.parse(f.lastSuccessAt) > 5 * 60_000 : true);
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-400" aria-live="polite" data-testid="freshness">
      {f.clusters === 0 ? (
        <span>No data collected yet</span>
      ) : (
        <>
          <span className={stale ? "font-semibold text-health-stale" : undefined}>
            Data from <RelativeTime value={f.lastSuccessAt} />
          </span>
          <span aria-hidden="true"> · </span>
          <span>
            {f.reachableClusters}/{f.clusters} clusters reachable
          </span>
        </>
      )}
      {isError ? <span className="ml-2 text-health-failing">(cannot refresh)</span> : null}
    </p>
  );
}
