// A history as a timeline, newest first: when, what changed (health before → after, reason), the message
// and the revision. The object page lists its transitions and webhook events; the cluster page lists
// its objects' transitions. Carries no directive, so it renders on the server and inside live islands.
import type { ReactNode } from "react";
import { HealthBadge } from "./health-badge";
import { RelativeTime } from "./relative-time.client";

export interface TimelineItem {
  key: string;
  at: string;
  /** data-* attributes of the entry, e.g. its type and health, for tests and styles. */
  attributes?: Record<`data-${string}`, string | undefined>;
  /** What happened, shown after the time on the first line. */
  heading: ReactNode;
  message?: ReactNode;
  revision?: string | null;
}

export function HistoryTimeline({
  items,
  emptyText,
  testId,
  live = false,
}: {
  items: TimelineItem[];
  emptyText: string;
  testId?: string;
  /** Announce new entries to screen readers (the page updates while open). */
  live?: boolean;
}) {
  if (!items.length) return <p className="text-sm text-zinc-600 dark:text-zinc-400">{emptyText}</p>;
  return (
    <ol className="space-y-3" data-testid={testId} aria-live={live ? "polite" : undefined}>
      {items.map((t) => (
        <li key={t.key} {...t.attributes} className="timeline-entry">
          <div className="flex flex-wrap items-center gap-2">
            <RelativeTime value={t.at} className="text-xs text-zinc-500" />
            {t.heading}
          </div>
          {t.message ? <div className="mt-1 text-zinc-700 dark:text-zinc-300">{t.message}</div> : null}
          {t.revision ? <p className="mt-0.5 break-all font-mono text-xs text-zinc-500">revision {t.revision}</p> : null}
        </li>
      ))}
    </ol>
  );
}

const CHANGE_LABELS: Record<string, string> = { "first-seen": "first seen", created: "created", deleted: "deleted" };

/** "ready → failing HealthCheckFailed": the health before (when it differs), after, and the reason. */
export function TransitionHeading({
  change,
  previousHealth,
  health,
  reason,
  note,
}: {
  change?: string;
  previousHealth: string | null;
  health: string;
  reason: string | null;
  /** What changed when the health did not (drift found or gone, a new revision). */
  note?: ReactNode;
}) {
  const label = change ? CHANGE_LABELS[change] : undefined;
  return (
    <>
      {label ? <span className="text-xs uppercase text-zinc-500">{label}</span> : null}
      {previousHealth && previousHealth !== health ? (
        <>
          <HealthBadge health={previousHealth} /> <span aria-label="to">→</span>
        </>
      ) : null}
      <HealthBadge health={health} />
      {note}
      {reason ? <span className="font-medium">{reason}</span> : null}
    </>
  );
}
