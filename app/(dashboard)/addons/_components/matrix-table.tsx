// The matrix itself. Hovering or focusing a cell shows desired, applied and latest versions (CSS only:
// the cell is focusable and its details are tied to it with aria-describedby).
import Link from "next/link";
import type { MatrixCluster } from "@/lib/db/queries/addons";
import { objectPath } from "@/lib/fleet/urls";
import type { MatrixCell, MatrixRow } from "@/lib/upgrades/addon-matrix";
import { StandingBadge } from "@/app/_components/upgrade-badges";

const KIND_LABEL: Record<MatrixRow["kind"], string> = { helm: "Helm", eks: "EKS add-on", flux: "Flux" };
const BASIS_LABEL = {
  upstream: "upstream repository",
  "eks-catalog": "newest compatible (DescribeAddonVersions)",
  fleet: "newest in the fleet",
} as const;

function Cell({ row, cell, id }: { row: MatrixRow; cell: MatrixCell; id: string }) {
  if (cell.standing === "missing") {
    return (
      <td
        className="border-b border-zinc-100 px-2 py-1.5 text-center text-zinc-400 dark:border-zinc-800 dark:text-zinc-600"
        data-standing="missing"
      >
        <span aria-hidden="true">—</span>
        <span className="sr-only">not installed</span>
      </td>
    );
  }
  const tip = `tip-${id}`;
  return (
    <td
      className={`border-b border-zinc-100 px-2 py-1.5 align-top dark:border-zinc-800 ${cell.skewed ? "bg-amber-50 dark:bg-amber-950/40" : ""}`}
      data-cluster={cell.cluster}
      data-standing={cell.standing}
      data-skewed={cell.skewed ? "true" : undefined}
    >
      <div tabIndex={0} aria-describedby={tip} className="group relative rounded focus:outline-2 focus:outline-sky-500">
        <div className="whitespace-nowrap font-mono text-xs">{cell.applied ?? "?"}</div>
        <StandingBadge standing={cell.standing} />
        {cell.skewed ? <span className="ml-1 text-xs font-medium text-amber-800 dark:text-amber-300">skew</span> : null}
        <div
          role="tooltip"
          id={tip}
          className="invisible absolute left-0 top-full z-20 mt-1 w-72 rounded-md border border-zinc-200 bg-white p-2 text-xs text-zinc-900 shadow-lg group-focus-within:visible group-hover:visible dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5">
            <dt className="text-zinc-500">Desired</dt>
            <dd className="font-mono">{cell.desired ?? (row.kind === "helm" ? "latest (no version in spec)" : "–")}</dd>
            <dt className="text-zinc-500">Applied</dt>
            <dd className="font-mono">{cell.applied ?? "unknown"}</dd>
            <dt className="text-zinc-500">Latest</dt>
            <dd className="font-mono">{cell.latest ?? (row.upstreamError ? `unknown (${row.upstreamError})` : "unknown")}</dd>
            {cell.latestAllowed && cell.latest && cell.latestAllowed !== cell.latest ? (
              <>
                <dt className="text-zinc-500">Spec allows</dt>
                <dd className="font-mono">{cell.latestAllowed}</dd>
              </>
            ) : null}
            {row.fleetNewest && cell.skewed ? (
              <>
                <dt className="text-zinc-500">Fleet newest</dt>
                <dd className="font-mono">{row.fleetNewest}</dd>
              </>
            ) : null}
          </dl>
          {cell.object ? (
            <Link
              className="mt-1 inline-block underline"
              href={objectPath({ cluster: cell.cluster, kind: "HelmRelease", namespace: cell.object.namespace, name: cell.object.name })}
            >
              HelmRelease {cell.object.namespace}/{cell.object.name}
            </Link>
          ) : null}
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
                {row.repository ? (
                  <div className="max-w-64 truncate font-mono text-xs text-zinc-500" title={row.repository}>
                    {row.repository}
                  </div>
                ) : null}
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
