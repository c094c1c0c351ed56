// postBuild substitution variables the cluster's Kustomizations read (never values from Secrets).
import { DataTable } from "@/app/_components/data-table";
import { Section } from "@/app/_components/triage-section";
import type { ClusterDetail } from "@/lib/db/queries/clusters";

export function SubstitutionsSection({ substitutions }: { substitutions: ClusterDetail["substitutions"] }) {
  return (
    <Section id="substitutions" title="Substitution variables">
      <DataTable
        caption="postBuild substitution variables (non-secret)"
        rows={substitutions}
        rowKey={(v) => `${v.from}/${v.name}`}
        emptyText="None recorded (secret values are never shown)."
        columns={[
          { header: "Variable", rowHeader: true, className: "font-mono text-xs font-medium", cell: (v) => v.name },
          { header: "Value", className: "break-all font-mono text-xs", cell: (v) => v.value },
          { header: "From", className: "text-xs", cell: (v) => v.from ?? "–" },
        ]}
      />
    </Section>
  );
}
