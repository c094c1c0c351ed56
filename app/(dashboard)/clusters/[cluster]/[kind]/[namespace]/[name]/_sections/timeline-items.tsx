// An object's transitions and webhook events as timeline entries.
import { HealthDetailBadge } from "@/app/_components/health-detail-badge";
import { TransitionHeading, type TimelineItem } from "@/app/_components/history-timeline";
import { MessageText, type SecondaryPlace } from "@/app/_components/message-text";
import type { TimelineEntry } from "@/lib/db/queries/objects";

/** Long messages are excerpts here: the page shows the current one in full under Status. */
export function objectTimelineItems(timeline: TimelineEntry[], secondary: SecondaryPlace): TimelineItem[] {
  return timeline.map((t, i) => ({
    key: `${t.type}-${t.at}-${i}`,
    at: t.at,
    attributes: {
      "data-type": t.type,
      "data-health": t.type === "transition" ? t.health : undefined,
      "data-previous-health": t.type === "transition" ? (t.previousHealth ?? undefined) : undefined,
      "data-change": t.type === "transition" ? t.change : undefined,
    },
    heading:
      t.type === "transition" ? (
        <TransitionHeading
          change={t.change}
          previousHealth={t.previousHealth}
          health={t.health}
          reason={t.reason}
          note={
            t.fields.includes("drift") ? (
              t.healthDetail === "drifted" ? (
                <HealthDetailBadge detail="drifted" />
              ) : (
                <span className="text-xs text-zinc-600 dark:text-zinc-400">drift gone</span>
              )
            ) : t.change === "changed" && t.previousHealth === t.health && t.fields.includes("revision") ? (
              <span className="text-xs text-zinc-600 dark:text-zinc-400">new revision</span>
            ) : null
          }
        />
      ) : (
        <>
          <span className="rounded bg-zinc-200 px-1.5 py-0.5 text-xs dark:bg-zinc-800">webhook · {t.severity}</span>
          <span className="font-medium">{t.reason}</span>
          {t.reportingController ? <span className="text-xs text-zinc-500">{t.reportingController}</span> : null}
        </>
      ),
    message: t.message ? <MessageText message={t.message} secondary={secondary} /> : null,
    revision: t.revision,
  }));
}
