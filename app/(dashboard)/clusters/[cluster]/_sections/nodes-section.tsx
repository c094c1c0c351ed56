// Nodes whose Ready condition is False or Unknown: which node group, which kubelet, since when and why,
// with the NodeNotReady Events kept for them.
import { DataTable } from "@/app/_components/data-table";
import { HealthBadge } from "@/app/_components/health-badge";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { Section } from "@/app/_components/triage-section";
import type { ClusterDetail } from "@/lib/db/queries/clusters";

export function NodesSection({ nodes }: { nodes: ClusterDetail["nodes"] }) {
  if (!nodes.total) return null;
  return (
    <Section
      id="nodes"
      title="Nodes"
      actions={
        <span className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="node-counts">
          {nodes.total} nodes · {nodes.notReady.length} NotReady
          {nodes.outsideNodeGroups ? ` · ${nodes.outsideNodeGroups} outside managed node groups` : ""}
        </span>
      }
    >
      <DataTable
        caption="NotReady nodes"
        captionVisible
        rows={nodes.notReady}
        rowKey={(n) => n.name}
        rowAttributes={(n) => ({ "data-node": n.name })}
        emptyText="Every node is Ready."
        columns={[
          { header: "Node", rowHeader: true, className: "break-all font-mono text-xs font-medium", cell: (n) => n.name },
          { header: "Node group", className: "text-xs", cell: (n) => n.nodeGroup ?? "none (not a managed node group)" },
          { header: "Kubelet", className: "font-mono text-xs", cell: (n) => n.kubeletVersion ?? "–" },
          {
            header: "Ready",
            cell: (n) => (
              <>
                <HealthBadge health="not-ready" label={n.readyStatus ? `Ready ${n.readyStatus}` : "never reported"} />
                <span className="mt-1 block text-xs text-zinc-500">
                  since <RelativeTime value={n.since} />
                </span>
              </>
            ),
          },
          {
            header: "Why",
            className: "max-w-md text-xs",
            cell: (n) => (
              <>
                {n.readyReason ? <span className="font-medium">{n.readyReason}: </span> : null}
                <span className="break-words">{n.readyMessage}</span>
                {n.events.length ? (
                  <ul className="mt-1 list-disc pl-4 text-zinc-600 dark:text-zinc-400" data-testid="node-events">
                    {n.events.map((e, i) => (
                      <li key={i}>
                        <RelativeTime value={e.lastTimestamp} /> {e.type} {e.reason}
                        {e.reportingController ? ` (${e.reportingController})` : ""}: {e.message}
                        {e.count > 1 ? ` ×${e.count}` : ""}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </>
            ),
          },
        ]}
      />
    </Section>
  );
}
