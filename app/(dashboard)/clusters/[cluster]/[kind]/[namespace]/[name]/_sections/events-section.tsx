// The Kubernetes Events kept for this object (the cluster forgets them after about an hour).
import { EventsTable } from "@/app/_components/events-table";
import { Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";

export function EventsSection({ events }: { events: ObjectDetail["events"] }) {
  return (
    <Section id="events" title="Kubernetes events">
      <EventsTable
        events={events}
        caption="Events kept for this object"
        emptyText="No events kept (events are collected while an object is not ready)."
      />
    </Section>
  );
}
