// Kubernetes, EKS and Flux versions with where each fact came from (EKS API, Crossplane, Kubernetes
// /version), how sure we are of the version, support status, kubelets, node groups and EKS add-ons.
import type { ReactNode } from "react";
import { DataTable } from "@/app/_components/data-table";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { Facts, Section } from "@/app/_components/triage-section";
import type { ClusterDetail } from "@/lib/db/queries/clusters";
import { FACT_SOURCE_LABELS, type FactSource } from "@/lib/fleet/cluster-facts";
import { formatDuration } from "@/lib/time";

function Source({ source }: { source: FactSource | "kubeconfig" | null }) {
  if (!source) return null;
  const label = source === "kubeconfig" ? "connection secret" : FACT_SOURCE_LABELS[source];
  return (
    <span className="ml-1 text-xs text-zinc-500" data-source={source}>
      (from {label})
    </span>
  );
}

/** The version and how sure we are: observed now, last known with its age, desired while created, or unknown and why. */
function Knowledge({ k }: { k: ClusterDetail["versionKnowledge"] }): ReactNode {
  switch (k.source) {
    case "observed":
      return (
        <span data-testid="version-knowledge" data-knowledge={k.source}>
          <span className="font-mono">{k.version}</span>
          <Source source={k.from} />
        </span>
      );
    case "last-known":
      return (
        <span data-testid="version-knowledge" data-knowledge={k.source}>
          <span className="font-mono">{k.version}</span> last known
          {k.ageSeconds != null ? `, ${formatDuration(k.ageSeconds * 1000)} ago` : ""}
          <Source source={k.from} />
          {k.why ? <span className="block text-xs text-zinc-500">not observed now: {k.why}</span> : null}
        </span>
      );
    case "desired":
      return (
        <span data-testid="version-knowledge" data-knowledge={k.source}>
          <span className="font-mono">{k.version}</span> asked for · {k.why}
        </span>
      );
    default:
      return (
        <span data-testid="version-knowledge" data-knowledge={k.source}>
          unknown — {k.why ?? "no data"}
        </span>
      );
  }
}

export function VersionsSection({ c }: { c: ClusterDetail }) {
  const support = c.versions.support;
  const k = c.versionKnowledge;
  return (
    <Section id="versions" title="Versions">
      <Facts
        items={[
          ["Control plane", <Knowledge key="k" k={k} />],
          [
            "Kubernetes (/version)",
            <span key="kv" className="font-mono">
              {c.versions.kubernetes ?? "–"}
            </span>,
          ],
          [
            "EKS",
            <span key="eks" data-testid="eks-version">
              {c.versions.eks ? `${c.versions.eks}${c.versions.platform ? ` (${c.versions.platform})` : ""}` : "–"}
              {c.versions.eksStatus && c.versions.eksStatus !== "ACTIVE" ? ` ${c.versions.eksStatus}` : ""}
              <Source source={c.versions.eksSource} />
            </span>,
          ],
          [
            "Upgrade",
            k.upgradeInProgress ? (
              <span key="u" data-testid="upgrade-in-progress">
                in progress: {k.version} → {k.desiredVersion} (asked of Crossplane)
              </span>
            ) : k.desiredVersion ? (
              `none (Crossplane asks for ${k.desiredVersion})`
            ) : (
              "–"
            ),
          ],
          [
            "EKS API",
            c.versions.eksError ? (
              <span key="ee" className="text-xs" data-testid="eks-error">
                not answering since <RelativeTime value={c.versions.eksError.since} />:{" "}
                <span className="break-words font-mono">{c.versions.eksError.message}</span>
              </span>
            ) : k.eksAccess ? (
              "answering"
            ) : c.provisioning ? (
              "not asked while Crossplane creates it"
            ) : (
              "not asked (no EKS API access configured for this cluster)"
            ),
          ],
          [
            "Support",
            support?.versionStatus
              ? `${support.versionStatus.replace(/_/g, " ").toLowerCase()}${support.endOfStandardSupport ? `, standard ends ${support.endOfStandardSupport.slice(0, 10)}` : ""}`
              : "–",
          ],
          ["Upgrade policy", c.versions.supportType ?? "–"],
          ["Flux", c.versions.flux ?? "–"],
          ["Kubelets", c.versions.kubelets.length ? c.versions.kubelets.map((v) => `${v.version} × ${v.nodes}`).join(", ") : "–"],
        ]}
      />
      <DataTable
        caption="Node groups"
        captionVisible
        className="mt-3"
        rows={c.nodeGroups}
        rowKey={(n) => n.name}
        rowAttributes={(n) => ({ "data-nodegroup": n.name, "data-source": n.source })}
        columns={[
          { header: "Name", rowHeader: true, className: "font-medium", cell: (n) => n.name },
          { header: "Version", className: "font-mono text-xs", cell: (n) => n.version ?? "–" },
          { header: "Release", className: "font-mono text-xs", cell: (n) => n.releaseVersion ?? "–" },
          { header: "Status", cell: (n) => n.status ?? "–" },
          {
            header: "Capacity",
            className: "text-xs",
            cell: (n) =>
              [
                n.capacityType,
                n.instanceTypes.join(", "),
                n.desiredSize != null
                  ? `${n.desiredSize} desired${n.minSize != null && n.maxSize != null ? ` (${n.minSize}–${n.maxSize})` : ""}`
                  : null,
              ]
                .filter(Boolean)
                .join(" · "),
          },
          {
            header: "Nodes",
            className: "text-xs",
            cell: (n) => `${n.nodes}${n.notReadyNodes ? ` (${n.notReadyNodes} NotReady)` : ""}`,
          },
          { header: "From", className: "text-xs", cell: (n) => FACT_SOURCE_LABELS[n.source] },
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
