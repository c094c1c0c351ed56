// The matrix itself. Hovering or focusing a cell shows desired, applied and latest versions (CSS only:
// the cell is focusable and its details are tied to it with aria-describedby).
import Link from "next/link";
import type { MatrixCluster } from "@/lib/db/queries/addons";
import { clusterPath, objectPath } from "@/lib/fleet/urls";
import { cellSummary, type MatrixCell, type MatrixRow } from "@/lib/upgrades/addon-matrix";
import { StandingBadge } from "@/app/_components/upgrade-badges";

const KIND_LABEL: Record<MatrixRow["kind"], string> = { helm: "Helm", eks: "EKS add-on", flux: "Flux" };
const BASIS_LABEL = {
  upstream: "upstream repository",
  "eks-catalog": "newest compatible (DescribeAddonVersions)",
  fleet: "newest in the fleet",
} as const;

/** Where a cell leads: its HelmRelease(s), the cluster's managed add-ons, or the cluster. */
function cellLinks(row: MatrixRow, cell: MatrixCell): { href: string; text: string }[] {
  if (row.kind === "helm") {
    const links = cell.objects.map((o) => ({
      href: objectPath({ cluster: o.cluster, kind: "HelmRelease", namespace: o.namespace, name: o.name }),
      text: `HelmRelease ${o.namespace}/${o.name}${o.fromHub ? ` (in ${o.cluster})` : ""}`,
    }));
    if (cell.objectCount > cell.objects.length)
      links.push({ href: clusterPath(cell.cluster), text: `all ${cell.objectCount} on the cluster page` });
    return links;
  }
  if (row.kind === "eks")
    return [{ href: `/upgrades/${encodeURIComponent(cell.cluster)}#managed`, text: `${row.label} on ${cell.cluster}` }];
  return [{ href: clusterPath(cell.cluster), text: `Flux on ${cell.cluster}` }];
}

/** One line of details (a line of text costs a page of 750 cells far less than a list per cell). */
function tipText(row: MatrixRow, cell: MatrixCell): string {
  const parts = [
    ...(row.kind === "helm" ? [`Desired: ${cell.desired ?? "latest (no version in spec)"}`] : []),
    `Applied (oldest): ${cell.applied ?? "nothing deployed"}`,
    `Latest: ${cell.latest ?? (row.upstreamError ? `unknown (${row.upstreamError})` : "unknown")}`,
  ];
  if (cell.latestAllowed && cell.latest && cell.latestAllowed !== cell.latest) parts.push(`Spec allows: ${cell.latestAllowed}`);
  if (row.fleetNewest && cell.skewed && row.kind !== "eks") parts.push(`Fleet newest: ${row.fleetNewest}`);
  return parts.join(" · ");
}

function Cell({ row, cell, id }: { row: MatrixRow; cell: MatrixCell; id: string }) {
  if (cell.standing === "missing") {
    return (
      <td className="mx-missing" data-standing="missing">
        <span aria-hidden="true">—</span>
        <span className="sr-only">not installed</span>
      </td>
    );
  }
  const tip = `t${id}`;
  const links = cellLinks(row, cell);
  return (
    <td
      className="mx-cell"
      data-cluster={cell.cluster}
      data-standing={cell.standing}
      data-skewed={cell.skewed ? "true" : undefined}
      data-applied={cell.applied ?? ""}
    >
      <div tabIndex={0} aria-describedby={tip} className="mx-focus">
        <a href={links[0].href} className="mx-summary">
          {cellSummary(cell) || "?"}
        </a>
        <StandingBadge standing={cell.standing} />
        {cell.skewed ? <span className="mx-note">{row.kind === "eks" ? "off default" : "skew"}</span> : null}
        {cell.fromHub ? <span className="mx-note">from hub</span> : null}
        {cell.otherSources.length ? (
          <div className="max-w-40 truncate text-xs text-zinc-500" title={cell.otherSources.join(", ")}>
            from {cell.otherSources.join(", ")}
          </div>
        ) : null}
        <div role="tooltip" id={tip} className="mx-tip">
          {tipText(row, cell)}
          {/* One object: the summary already links to it, so its name is enough here (a page holds ~750 cells). */}
          {links.length === 1 ? (
            <span className="block">{links[0].text}</span>
          ) : (
            links.map((l) => (
              <a key={l.href + l.text} href={l.href}>
                {l.text}
              </a>
            ))
          )}
        </div>
      </div>
    </td>
  );
}

export function MatrixTable({ rows, groups }: { rows: MatrixRow[]; groups: { group: string; clusters: MatrixCluster[] }[] }) {
  const clusters = groups.flatMap((g) => g.clusters);
  const grouped = groups.length > 1 || groups[0]?.group !== "";
  return (
    <div className="relative mt-4 overflow-x-auto rounded-lg border border-zinc-200 bg-white pb-40 dark:border-zinc-800 dark:bg-zinc-900">
      <table className="min-w-full text-sm" aria-label="Add-on versions by cluster">
        <thead className="bg-zinc-50 text-left dark:bg-zinc-950">
          {grouped ? (
            <tr>
              <td className="sticky left-0 bg-zinc-50 dark:bg-zinc-950" />
              {groups.map((g) => (
                <th
                  key={g.group}
                  scope="colgroup"
                  colSpan={g.clusters.length}
                  className="border-l border-zinc-200 px-2 pt-2 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:border-zinc-800 dark:text-zinc-400"
                >
                  {g.group}
                </th>
              ))}
            </tr>
          ) : null}
          <tr>
            <th scope="col" className="sticky left-0 z-10 bg-zinc-50 px-3 py-2 font-medium dark:bg-zinc-950">
              Add-on
            </th>
            {clusters.map((c) => (
              <th key={c.name} scope="col" className="px-2 py-2 font-medium">
                <Link href={c.url} className="whitespace-nowrap underline-offset-2 hover:underline">
                  {c.name}
                </Link>
                <div className="text-xs font-normal text-zinc-500">
                  {c.kubernetesVersion ? `Kubernetes ${c.kubernetesVersion}` : "version unknown"}
                </div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, ri) => (
            <tr key={row.key} data-addon={row.label} data-kind={row.kind} className="hover:bg-zinc-50 dark:hover:bg-zinc-800/40">
              <th
                scope="row"
                className="sticky left-0 z-10 min-w-56 border-b border-zinc-100 bg-white px-3 py-1.5 text-left align-top font-normal dark:border-zinc-800 dark:bg-zinc-900"
              >
                <div className="font-medium">
                  {row.label}{" "}
                  <span className="ml-1 rounded bg-zinc-100 px-1 text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
                    {KIND_LABEL[row.kind]}
                  </span>
                  {row.skew ? (
                    <span className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200">
                      skew
                    </span>
                  ) : null}
                </div>
                {row.sources.map((src) => (
                  <div key={src.url} className="max-w-64 truncate font-mono text-xs text-zinc-500" title={src.url}>
                    {src.url}
                    {row.sources.length > 1 ? ` (${src.installations})` : ""}
                  </div>
                ))}
                <div className="text-xs text-zinc-600 dark:text-zinc-400">
                  {row.latest ? (
                    <>
                      latest <span className="font-mono">{row.latest}</span>{" "}
                      <span className="text-zinc-500">({BASIS_LABEL[row.latestBasis!]})</span>
                    </>
                  ) : row.kind === "eks" ? (
                    "latest: newest compatible per cluster version"
                  ) : (
                    <span className="text-amber-800 dark:text-amber-300">latest unknown: {row.upstreamError}</span>
                  )}
                  {row.latest && row.upstreamError ? (
                    <span className="block text-amber-800 dark:text-amber-300">last refresh failed: {row.upstreamError}</span>
                  ) : null}
                </div>
              </th>
              {clusters.map((c, ci) => (
                <Cell key={c.name} row={row} cell={row.cells[c.name]} id={`${ri}-${ci}`} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
