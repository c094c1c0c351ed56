"use client";

import { formatDuration } from "@/lib/time";
import { useNow } from "./use-now.client";

/**
 * "failing for 3 h 12 min", counted on the same clock as the page's other relative times so it agrees
 * with "failing since … ago"; the server's figure until the page is hydrated.
 */
export function FailingFor({ since, seconds, prefix = "failing for" }: { since: string | null; seconds: number; prefix?: string }) {
  const now = useNow();
  const ms = now !== null && since ? Math.max(0, now - Date.parse(since)) : seconds * 1000;
  return (
    <>
      {prefix} {formatDuration(ms)}
    </>
  );
}
