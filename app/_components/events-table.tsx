// Kubernetes Events kept for an object, newest first: when last seen, type, reason, message and count.
// Extra columns (a revision, the reporting controller) are appended by the page that has them.
import type { ReactNode } from "react";
import { DataTable, type Column } from "./data-table";
import { RelativeTime } from "./relative-time.client";

export interface KeptEvent {
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
}: {
  events: E[];
  caption: string;
  emptyText: ReactNode;
  extraColumns?: Column<E>[];
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
        { header: "Message", className: "max-w-xl whitespace-pre-wrap break-words font-mono text-xs", cell: (e) => e.message },
        { header: "Count", cell: (e) => e.count },
        ...extraColumns,
      ]}
    />
  );
}
