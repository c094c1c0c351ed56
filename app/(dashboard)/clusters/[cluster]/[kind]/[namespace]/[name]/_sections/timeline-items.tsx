// An object's transitions and webhook events as timeline entries (shared by the server section and the
// live island, so it carries no directive).
import { TransitionHeading, type TimelineItem } from "@/app/_components/history-timeline";
import type { TimelineEntry } from "@/lib/db/queries/objects";

export function objectTimelineItems(timeline: TimelineEntry[]): TimelineItem[] {
  return timeline.map((t, i) => ({
    key: `${t.type}-${t.at}-${i}`,
    at: t.at,
    attributes: {
      "data-type": t.type,
      "data-health": t.type === "transition" ? t.health : undefined,
      "data-previous-health": t.type === "transition" ? (t.previousHealth ?? undefined) : undefined,
    },
    heading:
      t.type === "transition" ? (
        <TransitionHeading change={t.change} previousHealth={t.previousHealth} health={t.health} reason={t.reason} />
      ) : (
        <>
          <span className="rounded bg-zinc-200 px-1.5 py-0.5 text-xs dark:bg-zinc-800">webhook · {t.severity}</span>
          <span className="font-medium">{t.reason}</span>
          {t.reportingController ? <span className="text-xs text-zinc-500">{t.reportingController}</span> : null}
        </>
      ),
    message: t.message,
    revision: t.revision,
  }));
}
