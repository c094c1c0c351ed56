// Where an object's manifests come from, link by link: a HelmRelease → the HelmChart helm-controller
// generated (status.helmChart, in the source's namespace, named "<namespace>-<name>") or the OCIRepository /
// HelmChart of spec.chartRef; a HelmChart → its HelmRepository (or GitRepository, Bucket); a Kustomization →
// its source. A ready consumer of a source in trouble keeps running on the last artifact it got: say so.
import { PROBLEM_HEALTHS, type Health } from "./status";

export interface ChainRef {
  kind: string;
  namespace: string;
  name: string;
}

/** The fields of a stored object that name what it consumes. */
export interface ChainSourceFields {
  kind: string;
  namespace: string;
  name: string;
  sourceKind: string | null;
  sourceNamespace: string | null;
  sourceName: string | null;
  helmChartNamespace?: string | null;
  helmChartName?: string | null;
}

const CHART_SOURCES = new Set(["HelmRepository", "GitRepository", "Bucket"]);

/** The object's direct source: the next link up the chain, or null for a source itself. */
export function upstreamOf(o: ChainSourceFields): ChainRef | null {
  const source =
    o.sourceKind && o.sourceName ? { kind: o.sourceKind, namespace: o.sourceNamespace ?? o.namespace, name: o.sourceName } : null;
  if (o.kind === "HelmRelease") {
    if (o.helmChartName)
      return { kind: "HelmChart", namespace: o.helmChartNamespace ?? source?.namespace ?? o.namespace, name: o.helmChartName };
    // spec.chart: helm-controller names the chart "<namespace>-<name>" in the repository's namespace (no truncation).
    if (source && CHART_SOURCES.has(source.kind))
      return { kind: "HelmChart", namespace: source.namespace, name: `${o.namespace}-${o.name}` };
    return source; // spec.chartRef: an OCIRepository or a HelmChart
  }
  if (o.kind === "Kustomization" || o.kind === "HelmChart") return source;
  return null;
}

export interface ChainLink extends ChainRef {
  health: Health | "missing";
  reason: string | null;
  message: string | null;
}

/**
 * The first link in trouble when the consumer itself is healthy: it runs on the last artifact it fetched,
 * and will not see a new revision until the link recovers. Null when nothing is to be said.
 */
export function troubledSource<L extends ChainLink>(consumerHealth: Health, links: readonly L[]): L | null {
  if (consumerHealth !== "ready") return null;
  return links.find((l) => l.health === "missing" || PROBLEM_HEALTHS.includes(l.health)) ?? null;
}
