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
        emptyText="No events kept (Warnings always; every Event while the object is not ready or once it is deleted)."
        extraColumns={[
          {
            header: "Revision",
            className: "max-w-48 break-all font-mono text-xs",
            cell: (e) => e.revision ?? "–",
          },
        ]}
      />
    </Section>
  );
}
