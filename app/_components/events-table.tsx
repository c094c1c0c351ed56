// Kubernetes Events kept for an object, newest first: when last seen, type, reason, message and count.
// Extra columns (a revision, the reporting controller) are appended by the page that has them.
import type { ReactNode } from "react";
import { DataTable, type Column } from "./data-table";
import { MessageText, type SecondaryPlace } from "./message-text";
import { RelativeTime } from "./relative-time.client";

interface KeptEvent {
  type: string;
  reason: string;
  message: string;
  count: number;
  lastTimestamp: string;
}

export function EventsTable<E extends KeptEvent>({
  events,
  caption,
  emptyText,
  extraColumns = [],
  secondary,
}: {
  events: E[];
  caption: string;
  emptyText: ReactNode;
  extraColumns?: Column<E>[];
  /** Where the page shows long messages in full: here they are one-line excerpts. */
  secondary?: SecondaryPlace;
}) {
  return (
    <DataTable
      caption={caption}
      rows={events}
      rowKey={(_, i) => String(i)}
      emptyText={emptyText}
      columns={[
        { header: "Last seen", className: "whitespace-nowrap text-xs", cell: (e) => <RelativeTime value={e.lastTimestamp} /> },
        { header: "Type", cell: (e) => e.type },
        { header: "Reason", cell: (e) => e.reason },
        {
          header: "Message",
          className: "max-w-xl",
          cell: (e) => <MessageText message={e.message} secondary={secondary} />,
        },
        { header: "Count", cell: (e) => e.count },
        ...extraColumns,
      ]}
    />
  );
}
