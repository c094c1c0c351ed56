"use client";

import { formatAgo, formatUtc } from "@/lib/time";
import { useNow } from "./use-now.client";

/** "3 min ago" (never in the future), with the absolute UTC time on hover and for screen readers; refreshes itself. */
export function RelativeTime({ value, className }: { value: string | null | undefined; className?: string }) {
  const now = useNow();
  if (!value) return <span className={className}>never</span>;
  const absolute = formatUtc(value);
  // On the server, render the absolute time so server and client markup agree until hydrated.
  return (
    <time dateTime={value} title={absolute} className={className}>
      {now === null ? absolute : formatAgo(value, now)}
    </time>
  );
}
