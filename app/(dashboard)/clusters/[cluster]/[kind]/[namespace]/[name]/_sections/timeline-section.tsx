// Transitions, webhook events and everything else that happened to the object, newest first.
import { Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";
import { TimelineLive } from "../object-live.client";

export function TimelineSection({ d }: { d: ObjectDetail }) {
  return (
    <Section id="timeline" title="Timeline">
      <TimelineLive initial={d} />
    </Section>
  );
}
