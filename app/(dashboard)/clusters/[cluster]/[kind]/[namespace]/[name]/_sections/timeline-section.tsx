// Transitions, webhook events and everything else that happened to the object, newest first.
import { HistoryTimeline } from "@/app/_components/history-timeline";
import { Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";
import { objectTimelineItems } from "./timeline-items";

export function TimelineSection({ timeline }: { timeline: ObjectDetail["timeline"] }) {
  return (
    <Section id="timeline" title="Timeline">
      <HistoryTimeline items={objectTimelineItems(timeline)} emptyText="Nothing recorded yet." testId="timeline" live />
    </Section>
  );
}
