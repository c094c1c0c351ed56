"use client";

import { useEffect, useState } from "react";
import { formatRelative, formatUtc } from "@/lib/time";

/** "3 min ago", with the absolute UTC time on hover and for screen readers; refreshes itself. */
export function RelativeTime({ value, className }: { value: string | null | undefined; className?: string }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(id);
  }, []);
  if (!value) return <span className={className}>never</span>;
  const absolute = formatUtc(value);
  // Until mounted, render the absolute time so server and client markup agree.
  return (
    <time dateTime={value} title={absolute} className={className}>
      {now === null ? absolute : formatRelative(value, now)}
    </time>
  );
}
