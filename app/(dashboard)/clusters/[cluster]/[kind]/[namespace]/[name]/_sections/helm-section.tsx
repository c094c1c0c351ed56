// A HelmRelease's chart, versions and the release history helm-controller keeps in its status.
import { DataTable } from "@/app/_components/data-table";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { Facts, Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";
import { formatHelmVersions } from "@/lib/fleet/helm-versions";

export function HelmSection({ helm }: { helm: ObjectDetail["helm"] }) {
  if (!helm) return null;
  return (
    <Section id="helm" title="Helm release">
      <Facts
        items={[
          ["Chart", helm.chartName ?? "–"],
          [
            "Version",
            <span key="v" data-testid="helm-versions" className={helm.versions.attempt ? "font-medium text-health-failing" : undefined}>
              {formatHelmVersions(helm.versions) ?? "nothing deployed"}
            </span>,
          ],
          ["App version", helm.appVersion ?? "–"],
          ["Desired version", helm.desiredChartVersion ?? "–"],
        ]}
      />
      <DataTable
        caption="Helm history (newest first)"
        captionVisible
        className="mt-3"
        rows={helm.history}
        rowKey={(_, i) => String(i)}
        columns={[
          { header: "Release", rowHeader: true, cell: (h) => `v${h.version ?? "?"}` },
          { header: "Status", cell: (h) => h.status ?? "–" },
          { header: "Action", cell: (h) => h.action ?? "–" },
          { header: "Chart", className: "font-mono text-xs", cell: (h) => `${h.chartName}@${h.chartVersion}` },
          { header: "App", className: "font-mono text-xs", cell: (h) => h.appVersion ?? "–" },
          { header: "Deployed", className: "text-xs", cell: (h) => (h.lastDeployed ? <RelativeTime value={h.lastDeployed} /> : "–") },
        ]}
      />
    </Section>
  );
}
