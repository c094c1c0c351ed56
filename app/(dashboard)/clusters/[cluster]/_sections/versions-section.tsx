// Kubernetes, EKS and Flux versions, support status, kubelets, node groups and EKS add-ons.
import { DataTable } from "@/app/_components/data-table";
import { Facts, Section } from "@/app/_components/triage-section";
import type { ClusterDetail } from "@/lib/db/queries/clusters";

export function VersionsSection({ c }: { c: ClusterDetail }) {
  const support = c.versions.support;
  return (
    <Section id="versions" title="Versions">
      <Facts
        items={[
          [
            "Kubernetes",
            <span key="k" className="font-mono">
              {c.versions.kubernetes ?? "–"}
            </span>,
          ],
          ["EKS", c.versions.eks ? `${c.versions.eks}${c.versions.platform ? ` (${c.versions.platform})` : ""}` : "–"],
          [
            "Support",
            support?.versionStatus
              ? `${support.versionStatus.replace(/_/g, " ").toLowerCase()}${support.endOfStandardSupport ? `, standard ends ${support.endOfStandardSupport.slice(0, 10)}` : ""}`
              : "–",
          ],
          ["Upgrade policy", c.versions.supportType ?? "–"],
          ["Flux", c.versions.flux ?? "–"],
          ["Kubelets", c.versions.kubelets.length ? c.versions.kubelets.map((k) => `${k.version} × ${k.nodes}`).join(", ") : "–"],
        ]}
      />
      <DataTable
        caption="Node groups"
        captionVisible
        className="mt-3"
        rows={c.nodeGroups}
        rowKey={(n) => n.name}
        columns={[
          { header: "Name", rowHeader: true, className: "font-medium", cell: (n) => n.name },
          { header: "Version", className: "font-mono text-xs", cell: (n) => n.version ?? "–" },
          { header: "Release", className: "font-mono text-xs", cell: (n) => n.releaseVersion ?? "–" },
          { header: "Status", cell: (n) => n.status ?? "–" },
          {
            header: "Capacity",
            className: "text-xs",
            cell: (n) =>
              [n.capacityType, n.instanceTypes.join(", "), n.desiredSize != null ? `${n.desiredSize} nodes` : null]
                .filter(Boolean)
                .join(" · "),
          },
        ]}
      />
      {c.addons.length ? (
        <p className="mt-3 text-sm">
          <span className="font-medium">EKS add-ons: </span>
          {c.addons.map((a) => `${a.name} ${a.version ?? ""}${a.status && a.status !== "ACTIVE" ? ` (${a.status})` : ""}`).join(" · ")}
        </p>
      ) : null}
    </Section>
  );
}
