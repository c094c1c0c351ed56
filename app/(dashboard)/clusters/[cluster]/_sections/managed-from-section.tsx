// Objects that live in another cluster (the hub) and apply to this one through spec.kubeConfig.
import Link from "next/link";
import { DataTable } from "@/app/_components/data-table";
import { HealthBadge } from "@/app/_components/health-badge";
import { link, Section } from "@/app/_components/triage-section";
import type { ClusterDetail } from "@/lib/db/queries/clusters";

export function ManagedFromSection({ objects }: { objects: ClusterDetail["managedFrom"] }) {
  if (!objects.length) return null;
  const hubs = [...new Set(objects.map((o) => o.cluster))];
  return (
    <Section id="managed-from" title={`Managed from ${hubs.join(", ")}`}>
      <DataTable
        caption={`Objects in ${hubs.join(", ")} that apply to this cluster`}
        rows={objects}
        rowKey={(o) => o.url}
        rowAttributes={(o) => ({ "data-object": `${o.cluster}/${o.kind}/${o.namespace}/${o.name}` })}
        columns={[
          {
            header: "Object",
            rowHeader: true,
            cell: (o) => (
              <Link href={o.url} className={link}>
                {o.kind} {o.namespace}/{o.name}
              </Link>
            ),
          },
          {
            header: "Lives in",
            cell: (o) => (
              <Link href={o.clusterUrl} className={link}>
                {o.cluster}
              </Link>
            ),
          },
          { header: "Health", cell: (o) => <HealthBadge health={o.health} /> },
        ]}
      />
    </Section>
  );
}
