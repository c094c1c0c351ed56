// How the collector reaches the cluster (secrets, EKS), and the Crossplane resources that provision it.
import { DataTable } from "@/app/_components/data-table";
import { HealthBadge } from "@/app/_components/health-badge";
import { MessageText } from "@/app/_components/message-text";
import { Section } from "@/app/_components/triage-section";
import type { ClusterDetail } from "@/lib/db/queries/clusters";

type Provisioner = ClusterDetail["access"]["provisioners"][number];

const conditionHealth = (status: string | null) => (status === "True" ? "ready" : status === "False" ? "failing" : "unknown");

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
      {access.provisioners.map((p) => (
        <ProvisionerCard key={`${p.kind}/${p.namespace}/${p.name}`} p={p} />
      ))}
    </Section>
  );
}

function ProvisionerCard({ p }: { p: Provisioner }) {
  return (
    <div className="mt-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-900">
      <p>
        Provisioned by Crossplane <strong>{p.kind}</strong>{" "}
        <span className="font-mono">
          {p.namespace ? `${p.namespace}/` : ""}
          {p.name}
        </span>{" "}
        <span className="text-xs text-zinc-500">({p.apiVersion})</span>
      </p>
      <p className="mt-1 flex flex-wrap gap-2">
        <HealthBadge health={conditionHealth(p.ready)} label={`Ready ${p.ready ?? "?"}${p.readyReason ? ` (${p.readyReason})` : ""}`} />
        <HealthBadge
          health={conditionHealth(p.synced)}
          label={`Synced ${p.synced ?? "?"}${p.syncedReason ? ` (${p.syncedReason})` : ""}`}
        />
        {p.secretName ? (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">
            connection secret {p.secretNamespace}/{p.secretName}
          </span>
        ) : null}
      </p>
      {p.conditions.some((x) => x.message) ? (
        <ul className="mt-2 list-disc pl-5 text-xs">
          {p.conditions
            .filter((x) => x.message)
            .map((x) => (
              <li key={x.type} className="break-words">
                {x.type}: <MessageText message={x.message} />
              </li>
            ))}
        </ul>
      ) : null}
    </div>
  );
}
