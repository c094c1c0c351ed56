// The Kubernetes Events kept for this object (the cluster forgets them after about an hour).
import { EventsTable } from "@/app/_components/events-table";
import type { SecondaryPlace } from "@/app/_components/message-text";
import { Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";

export function EventsSection({ events, secondary }: { events: ObjectDetail["events"]; secondary: SecondaryPlace }) {
  return (
    <Section id="events" title="Kubernetes events">
      <EventsTable
        events={events}
        caption="Events kept for this object"
        secondary={secondary}
        emptyText="No events kept (events are collected while an object is not ready)."
      />
    </Section>
  );
}
