// Kubernetes conditions as a table: type, status, reason, message and since when. Used for Flux objects
// and for the Crossplane resources that provision clusters.
import { DataTable } from "./data-table";
import { MessageText, type SecondaryPlace } from "./message-text";
import { RelativeTime } from "./relative-time.client";

interface ConditionRow {
  type: string;
  status: string;
  reason: string | null;
  message: string | null;
  lastTransitionTime: string | null;
}

export function ConditionsTable({
  conditions,
  caption = "Conditions",
  className,
  secondary,
}: {
  conditions: ConditionRow[];
  caption?: string;
  className?: string;
  /** Where the page shows long messages in full: here they are one-line excerpts. */
  secondary?: SecondaryPlace;
}) {
  return (
    <DataTable
      caption={caption}
      className={className}
      rows={conditions}
      rowKey={(c) => c.type}
      rowAttributes={(c) => ({ "data-condition": c.type, "data-status": c.status })}
      columns={[
        { header: "Condition", rowHeader: true, className: "font-medium", cell: (c) => c.type },
        { header: "Status", cell: (c) => c.status },
        { header: "Reason", cell: (c) => c.reason ?? "–" },
        { header: "Message", className: "max-w-xl", cell: (c) => <MessageText message={c.message} secondary={secondary} /> },
        {
          header: "Since",
          className: "whitespace-nowrap text-xs",
          cell: (c) => (c.lastTransitionTime ? <RelativeTime value={c.lastTransitionTime} /> : "–"),
        },
      ]}
    />
  );
}
