// How the collector reaches the cluster: connection secrets, labelled secrets, the EKS API.
import { DataTable } from "@/app/_components/data-table";
import { Section } from "@/app/_components/triage-section";
import type { ClusterDetail } from "@/lib/db/queries/clusters";

export function AccessSection({ access }: { access: ClusterDetail["access"] }) {
  return (
    <Section id="access" title="How it is reached">
      <DataTable
        caption="Access paths"
        rows={access.paths}
        rowKey={(_, i) => String(i)}
        emptyText="No access path recorded."
        columns={[
          { header: "Via", cell: (p) => p.via },
          {
            header: "Secret",
            className: "font-mono text-xs",
            cell: (p) => (p.secretName ? `${p.secretNamespace ?? ""}/${p.secretName}` : "–"),
          },
          { header: "Key", className: "font-mono text-xs", cell: (p) => p.key ?? "–" },
          {
            header: "Region / role",
            className: "break-all font-mono text-xs",
            cell: (p) => [p.region, p.roleArn].filter(Boolean).join(" · ") || "–",
          },
        ]}
      />
    </Section>
  );
}
