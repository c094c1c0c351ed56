"use client";

// Keeps a server-rendered page current without duplicating it in the browser: polls the page's JSON route
// with the version the page was rendered from (If-None-Match), and when the data has changed re-renders
// the whole page on the server (router.refresh), so every section moves together. The check runs at once when
// the change stream names the page's cluster (or "*"); the timer is the fallback, slower while the stream is open.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useTransition } from "react";
import { concernsCluster } from "@/lib/live/changes";
import { queryKeys } from "@/lib/query-keys";
import { pollInterval, useLiveChanges } from "./live-changes.client";

/** HEAD: only the ETag travels, never the JSON (a 1,300-object cluster's is a megabyte). */
async function latestVersion(apiPath: string, held: string): Promise<string> {
  const res = await fetch(apiPath, { method: "HEAD", cache: "no-store", headers: { "if-none-match": held } });
  if (res.status === 304) return held;
  if (!res.ok) throw new Error(`${apiPath}: HTTP ${res.status}`);
  return res.headers.get("etag") ?? held;
}

export function LiveRefresh({
  apiPath,
  version,
  cluster,
  intervalMs = 15_000,
}: {
  apiPath: string;
  version: string;
  /** The cluster the page shows: its changes (and fleet-wide ones) trigger a check. */
  cluster: string;
  intervalMs?: number;
}) {
  const router = useRouter();
  const [refreshing, startTransition] = useTransition();
  const queryClient = useQueryClient();
  const live = useLiveChanges(
    (changed) => concernsCluster(changed, cluster),
    () => queryClient.refetchQueries({ queryKey: queryKeys.pageVersion(apiPath) }),
  );
  const {
    data: latest,
    dataUpdatedAt,
    isError,
  } = useQuery({
    queryKey: queryKeys.pageVersion(apiPath),
    queryFn: () => latestVersion(apiPath, version),
    initialData: version,
    refetchOnMount: false,
    refetchInterval: pollInterval(live.streaming, intervalMs),
  });
  // Each poll that reports another version than the one rendered asks for a fresh render (again after
  // the next poll if that render raced with a newer change).
  useEffect(() => {
    if (latest !== version) startTransition(() => router.refresh());
  }, [latest, version, dataUpdatedAt, router]);
  return (
    <p
      role="status"
      data-testid="live-refresh"
      data-version={version}
      data-stream={live.streaming ? "open" : "closed"}
      data-refreshing={refreshing || undefined}
      className={isError ? "mt-2 text-sm text-health-failing" : "sr-only"}
    >
      {isError ? "Could not check for updates; showing the last data." : ""}
    </p>
  );
}
