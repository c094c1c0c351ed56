// Which repository a HelmRelease's chart really comes from: the HelmRepository or OCIRepository its
// spec names, in the same cluster. Upstream versions are looked up by this (repository, chart) pair,
// never by chart name alone: two repositories may publish different charts under one name.
import { normaliseRepositoryUrl } from "./addon-matrix";

export interface SourceObject {
  clusterId: number;
  kind: string; // HelmRepository | OCIRepository
  namespace: string;
  name: string;
  /** spec.url */
  url: string | null;
  spec: unknown;
}

export interface ReleaseRef {
  clusterId: number;
  namespace: string;
  chartName: string | null;
  sourceKind: string | null;
  sourceName: string | null;
  sourceNamespace: string | null;
}

export interface ChartSource {
  /** Normalised repository URL: the key in chart_upstream together with the chart name. */
  repositoryUrl: string;
  chart: string;
  protocol: "http" | "oci";
  /** For OCI: registry host and repository path of the chart artifact (whose tags are the versions). */
  oci: { registry: string; repository: string } | null;
  /** spec.insecure: plain HTTP to the registry. */
  insecure: boolean;
  /** For HTTP repositories read through a mirror: where the index is fetched from. */
  fetchUrl?: string;
}

export const sourceKey = (clusterId: number, kind: string, namespace: string, name: string) => `${clusterId}/${kind}/${namespace}/${name}`;

const specField = (spec: unknown, field: string): unknown =>
  spec && typeof spec === "object" ? (spec as Record<string, unknown>)[field] : undefined;

/** oci://host/path → { registry, repository }. Docker Hub's short name is served at registry-1.docker.io. */
export function parseOciUrl(url: string): { registry: string; repository: string } | null {
  const m = /^oci:\/\/([^/]+)\/(.+?)\/*$/.exec(url.trim());
  if (!m) return null;
  const registry = m[1].toLowerCase() === "docker.io" ? "registry-1.docker.io" : m[1].toLowerCase();
  return { registry, repository: m[2] };
}

/**
 * The chart an Argo CD Application with a Helm source installs: its repoURL is the Helm repository itself
 * (https), or an OCI registry path written with or without `oci://` (Argo CD accepts both), the chart
 * beside it. Null without a chart.
 */
export function argoChartSource(app: { chartName: string | null; url: string | null }): ChartSource | null {
  if (!app.chartName || !app.url) return null;
  const url = app.url.trim();
  if (/^https?:\/\//.test(url)) {
    return { repositoryUrl: normaliseRepositoryUrl(url), chart: app.chartName, protocol: "http", oci: null, insecure: false };
  }
  const ociUrl = url.startsWith("oci://") ? url : `oci://${url}`;
  const ref = parseOciUrl(ociUrl);
  if (!ref) return null;
  return {
    repositoryUrl: normaliseRepositoryUrl(ociUrl),
    chart: app.chartName,
    protocol: "oci",
    oci: { registry: ref.registry, repository: `${ref.repository}/${app.chartName}` },
    insecure: false,
  };
}

export function resolveChartSource(release: ReleaseRef, sources: ReadonlyMap<string, SourceObject>): ChartSource | null {
  if (!release.chartName || !release.sourceKind || !release.sourceName) return null;
  const source = sources.get(
    sourceKey(release.clusterId, release.sourceKind, release.sourceNamespace ?? release.namespace, release.sourceName),
  );
  const url = source?.url ?? (specField(source?.spec, "url") as string | undefined) ?? null;
  if (!source || !url) return null;
  const insecure = specField(source.spec, "insecure") === true;
  const repositoryUrl = normaliseRepositoryUrl(url);
  const isOci = url.startsWith("oci://") || specField(source.spec, "type") === "oci";
  if (!isOci) return { repositoryUrl, chart: release.chartName, protocol: "http", oci: null, insecure };
  const ref = parseOciUrl(url);
  if (!ref) return null;
  // An OCIRepository points at the chart artifact itself; an OCI HelmRepository at the folder holding charts.
  const repository = source.kind === "OCIRepository" ? ref.repository : `${ref.repository}/${release.chartName}`;
  return { repositoryUrl, chart: release.chartName, protocol: "oci", oci: { registry: ref.registry, repository }, insecure };
}
