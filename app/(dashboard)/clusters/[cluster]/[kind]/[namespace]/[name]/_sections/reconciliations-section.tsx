// The last reconciliations a Kustomization reports in status.history.
import { DataTable } from "@/app/_components/data-table";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";

export function ReconciliationsSection({ reconciliations }: { reconciliations: ObjectDetail["reconciliations"] }) {
  if (!reconciliations.length) return null;
  return (
    <Section id="reconciliations" title="Last reconciliations">
      <DataTable
        caption="Last reconciliations as the controller reports them"
        rows={reconciliations}
        rowKey={(_, i) => String(i)}
        columns={[
          { header: "Revision", className: "break-all font-mono text-xs", cell: (r) => r.revision ?? "–" },
          { header: "Result", cell: (r) => r.status ?? "–" },
          { header: "Runs", cell: (r) => r.total ?? "–" },
          { header: "Last", className: "text-xs", cell: (r) => (r.lastReconciled ? <RelativeTime value={r.lastReconciled} /> : "–") },
        ]}
      />
    </Section>
  );
}
