// Kubernetes conditions as a table: type, status, reason, message and since when. Used for Flux objects
// and for the Crossplane resources that provision clusters.
import { DataTable } from "./data-table";
import { RelativeTime } from "./relative-time.client";

export interface ConditionRow {
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
}: {
  conditions: ConditionRow[];
  caption?: string;
  className?: string;
}) {
  return (
    <DataTable
      caption={caption}
      className={className}
      rows={conditions}
      rowKey={(c) => c.type}
      columns={[
        { header: "Condition", rowHeader: true, className: "font-medium", cell: (c) => c.type },
        { header: "Status", cell: (c) => c.status },
        { header: "Reason", cell: (c) => c.reason ?? "–" },
        { header: "Message", className: "max-w-xl whitespace-pre-wrap break-words font-mono text-xs", cell: (c) => c.message },
        {
          header: "Since",
          className: "whitespace-nowrap text-xs",
          cell: (c) => (c.lastTransitionTime ? <RelativeTime value={c.lastTransitionTime} /> : "–"),
        },
      ]}
    />
  );
}
