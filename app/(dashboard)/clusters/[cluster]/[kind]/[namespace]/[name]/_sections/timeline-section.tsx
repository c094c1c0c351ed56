// Transitions, webhook events and everything else that happened to the object, newest first.
import { HistoryTimeline } from "@/app/_components/history-timeline";
import type { SecondaryPlace } from "@/app/_components/message-text";
import { Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";
import { objectTimelineItems } from "./timeline-items";

export function TimelineSection({ timeline, secondary }: { timeline: ObjectDetail["timeline"]; secondary: SecondaryPlace }) {
  return (
    <Section id="timeline" title="Timeline">
      <HistoryTimeline items={objectTimelineItems(timeline, secondary)} emptyText="Nothing recorded yet." testId="timeline" live />
    </Section>
  );
}
