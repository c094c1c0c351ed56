// The add-on × cluster matrix: one row per add-on (a Helm chart by name, whatever repository each cluster
// pulls it from; an EKS managed add-on; Flux itself), one cell per cluster summarising every installation
// of it there ("3.4.2 ×435 · 3.5.0 ×185 · 1 not installed yet") with the standing of the oldest one.
import { fleetNewest, hasSkew, standingOf, STANDINGS, type Standing } from "./standing";
import { compareVersions, newestSatisfying, newestVersion, parseVersion, sameVersion, withoutBuild } from "./versions";

export type AddonKind = "helm" | "eks" | "flux";
/** What the cell's "latest" is measured against. */
export type LatestBasis = "upstream" | "eks-catalog" | "fleet";

export interface HelmInstallation {
  /** The cluster the release installs into: its column. */
  cluster: string;
  /** The cluster holding the HelmRelease, when it is another one (a hub release with spec.kubeConfig). */
  objectCluster?: string | null;
  namespace: string;
  name: string;
  chart: string;
  /** URL of the HelmRepository / OCIRepository the release's chart comes from; null if unresolved. */
  repositoryUrl: string | null;
  /** spec.chart.spec.version: exact version or semver range; null = latest. */
  desired: string | null;
  /** Chart version of the last deployed release (status.history); null = not installed yet. */
  applied: string | null;
  failing: boolean;
}

export interface UpstreamInfo {
  latestVersion: string | null;
  versions: string[];
  error: string | null;
  fetchedAt: string | null;
}

export interface ManagedAddonInstallation {
  cluster: string;
  name: string;
  version: string | null;
  failing: boolean;
  /** Newest version compatible with the cluster's Kubernetes version (DescribeAddonVersions). */
  latestCompatible: string | null;
  /** The default version for the cluster's Kubernetes version (DescribeAddonVersions). */
  defaultCompatible?: string | null;
}

export interface FluxInstallation {
  cluster: string;
  version: string | null;
}

/** An object a cell links to (a HelmRelease, possibly in the hub). */
export interface CellObject {
  cluster: string;
  namespace: string;
  name: string;
  fromHub: boolean;
}

/** Objects listed per cell; the rest are counted (objectCount). */
export const CELL_OBJECT_LIMIT = 5;

export interface MatrixCell {
  cluster: string;
  /** Oldest installed version (the one that needs work); null when nothing is installed. */
  applied: string | null;
  /** Installed versions, build metadata stripped, oldest first, with how many installations run each. */
  versions: { version: string; count: number }[];
  /** Releases whose install never succeeded (no deployed release in their history). */
  notInstalled: number;
  desired: string | null;
  latest: string | null;
  /** Newest version the desired spec allows (a pinned range may hold a release back). */
  latestAllowed: string | null;
  standing: Standing;
  /**
   * Helm and Flux: runs a version other than the newest applied elsewhere in the fleet. EKS add-ons, whose
   * build follows each cluster's Kubernetes version: runs neither the default nor the latest build for it.
   */
  skewed: boolean;
  objects: CellObject[];
  objectCount: number;
  /** Installations deployed from the hub (spec.kubeConfig) rather than by the cluster's own Flux. */
  fromHub: number;
  /** Repositories this cell pulls the chart from that differ from the row's main one. */
  otherSources: string[];
}

export interface MatrixRow {
  key: string;
  kind: AddonKind;
  label: string;
  /** Main repository URL for Helm rows (the one most installations use). */
  repository: string | null;
  /** Every repository the chart is pulled from, with how many installations use it. */
  sources: { url: string; installations: number }[];
  latest: string | null;
  latestBasis: LatestBasis | null;
  /** Upstream could not be read: reported, never guessed. */
  upstreamError: string | null;
  upstreamFetchedAt: string | null;
  /** Helm / Flux: versions differ across the clusters running it. EKS: some cluster is off its default/latest build. */
  skew: boolean;
  fleetNewest: string | null;
  cells: Record<string, MatrixCell>;
  counts: Record<Standing, number>;
}

export interface MatrixInput {
  clusters: readonly string[];
  helm: readonly HelmInstallation[];
  /** Keyed by upstreamKey(repositoryUrl, chart). */
  upstream: ReadonlyMap<string, UpstreamInfo>;
  managed: readonly ManagedAddonInstallation[];
  flux: readonly FluxInstallation[];
}

/** Key of the upstream versions of one chart in one repository (chart_upstream). */
export function upstreamKey(repositoryUrl: string, chart: string): string {
  return `${normaliseRepositoryUrl(repositoryUrl)}#${chart}`;
}

/** Trailing slashes and case of scheme/host do not make a different repository. */
export function normaliseRepositoryUrl(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, "");
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/]+)(.*)$/i.exec(trimmed);
  return m ? `${m[1].toLowerCase()}${m[2].toLowerCase()}${m[3]}` : trimmed;
}

function emptyCounts(): Record<Standing, number> {
  return Object.fromEntries(STANDINGS.map((s) => [s, 0])) as Record<Standing, number>;
}

function missingCell(cluster: string, latest: string | null): MatrixCell {
  return {
    cluster,
    applied: null,
    versions: [],
    notInstalled: 0,
    desired: null,
    latest,
    latestAllowed: null,
    standing: "missing",
    skewed: false,
    objects: [],
    objectCount: 0,
    fromHub: 0,
    otherSources: [],
  };
}

/** Installed versions grouped with build metadata stripped, oldest first. */
function versionCounts(applied: readonly string[]): { version: string; count: number }[] {
  const groups = new Map<string, { version: string; count: number }>();
  for (const v of applied) {
    const key = withoutBuild(v);
    const g = groups.get(key) ?? { version: key, count: 0 };
    g.count++;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => compareVersions(a.version, b.version));
}

/** The oldest of the versions (unparseable ones never win over real ones). */
function oldest(versions: readonly string[]): string | null {
  const real = versions.filter((v) => parseVersion(v));
  if (!real.length) return versions[0] ?? null;
  return real.reduce((a, b) => (compareVersions(b, a) < 0 ? b : a));
}

/** "3.4.2 ×435 · 3.5.0 ×185 · 1 not installed yet"; a single installation is just its version. */
export function cellSummary(cell: Pick<MatrixCell, "versions" | "notInstalled">): string {
  const parts = cell.versions.map((v) =>
    v.count > 1 || cell.versions.length > 1 || cell.notInstalled ? `${v.version} ×${v.count}` : v.version,
  );
  if (cell.notInstalled) parts.push(`${cell.notInstalled} not installed yet`);
  return parts.join(" · ");
}

/**
 * One cluster's cell for a Helm chart from all its releases there. The standing is the oldest installed
 * release's (the one that needs work), or failing when any release fails; a release that was never
 * installed is counted, never taken for the oldest version.
 */
export function helmCell(
  cluster: string,
  installs: readonly HelmInstallation[],
  upstreamOf: (repositoryUrl: string | null) => UpstreamInfo | undefined,
  mainSource: string | null,
): MatrixCell {
  const installed = installs.filter((h) => h.applied);
  const applied = oldest(installed.map((h) => h.applied!));
  const needsWork = installed.find((h) => h.applied === applied) ?? installs[0];
  const repos = [...new Set(installs.map((h) => h.repositoryUrl))];
  const ups = repos.map((r) => upstreamOf(r)).filter((u): u is UpstreamInfo => !!u);
  const latest = newestVersion(ups.map((u) => u.latestVersion).filter((v): v is string => !!v));
  const up = upstreamOf(needsWork.repositoryUrl);
  const failing = installs.some((h) => h.failing);
  const standing: Standing = failing ? "failing" : applied ? standingOf({ installed: true, failing: false, applied, latest }) : "unknown";
  const ordered = [...installs].sort(
    (a, b) => Number(!!a.applied) - Number(!!b.applied) || compareVersions(a.applied, b.applied) || a.name.localeCompare(b.name),
  );
  return {
    cluster,
    applied,
    versions: versionCounts(installed.map((h) => h.applied!)),
    notInstalled: installs.length - installed.length,
    desired: needsWork.desired,
    latest,
    latestAllowed: up ? newestSatisfying(up.versions, needsWork.desired) : null,
    standing,
    skewed: false,
    objects: ordered.slice(0, CELL_OBJECT_LIMIT).map((h) => ({
      cluster: h.objectCluster ?? h.cluster,
      namespace: h.namespace,
      name: h.name,
      fromHub: !!h.objectCluster && h.objectCluster !== h.cluster,
    })),
    objectCount: installs.length,
    fromHub: installs.filter((h) => h.objectCluster && h.objectCluster !== h.cluster).length,
    otherSources: repos.filter((r): r is string => !!r && r !== mainSource),
  };
}

/** A single-version cell (EKS add-on, Flux). */
function versionCell(cluster: string, version: string | null, latest: string | null, failing: boolean): MatrixCell {
  return {
    ...missingCell(cluster, latest),
    applied: version,
    versions: version ? [{ version: withoutBuild(version), count: 1 }] : [],
    latestAllowed: latest,
    standing: standingOf({ installed: true, failing, applied: version, latest }),
    objectCount: 1,
  };
}

/** An EKS add-on build off both the default and the latest for the cluster's own Kubernetes version. */
export function offDefaultBuild(m: Pick<ManagedAddonInstallation, "version" | "latestCompatible" | "defaultCompatible">): boolean {
  if (!m.version || (!m.latestCompatible && !m.defaultCompatible)) return false;
  return !sameVersion(m.version, m.latestCompatible) && !sameVersion(m.version, m.defaultCompatible);
}

export function eksCell(m: ManagedAddonInstallation): MatrixCell {
  return { ...versionCell(m.cluster, m.version, m.latestCompatible, m.failing), skewed: offDefaultBuild(m) };
}

export function fluxCell(f: FluxInstallation, newest: string | null): MatrixCell {
  return versionCell(f.cluster, f.version, newest, false);
}

function finishRow(
  row: Omit<MatrixRow, "fleetNewest" | "counts" | "skew"> & { skew?: boolean },
  clusters: readonly string[],
  skewAcrossClusters: boolean,
): MatrixRow {
  const installed = Object.values(row.cells).flatMap((c) => c.versions.map((v) => v.version));
  const newest = fleetNewest(installed);
  const counts = emptyCounts();
  for (const cluster of clusters) {
    row.cells[cluster] ??= missingCell(cluster, row.latest);
    const cell = row.cells[cluster];
    if (skewAcrossClusters) cell.skewed = !!newest && cell.versions.some((v) => !sameVersion(v.version, newest));
    counts[cell.standing]++;
  }
  const skew = skewAcrossClusters ? hasSkew(installed) : Object.values(row.cells).some((c) => c.skewed);
  return { ...row, skew, fleetNewest: newest, counts };
}

/** The repository most installations use (ties: alphabetical), and every repository with its count. */
function sourcesOf(installs: readonly HelmInstallation[]): { main: string | null; sources: { url: string; installations: number }[] } {
  const counts = new Map<string, number>();
  for (const h of installs) if (h.repositoryUrl) counts.set(h.repositoryUrl, (counts.get(h.repositoryUrl) ?? 0) + 1);
  const sources = [...counts].map(([url, installations]) => ({ url, installations }));
  sources.sort((a, b) => b.installations - a.installations || a.url.localeCompare(b.url));
  return { main: sources[0]?.url ?? null, sources };
}

export function helmRow(
  chart: string,
  installs: readonly HelmInstallation[],
  upstream: MatrixInput["upstream"],
  clusters: readonly string[],
): MatrixRow {
  const { main, sources } = sourcesOf(installs);
  const upstreamOf = (url: string | null) => (url ? upstream.get(upstreamKey(url, chart)) : undefined);
  const byCluster = new Map<string, HelmInstallation[]>();
  for (const h of installs) byCluster.set(h.cluster, [...(byCluster.get(h.cluster) ?? []), h]);
  const cells: Record<string, MatrixCell> = {};
  for (const [cluster, list] of byCluster) cells[cluster] = helmCell(cluster, list, upstreamOf, main);

  const ups = sources.map((s) => ({ url: s.url, info: upstreamOf(s.url) }));
  const latest = newestVersion(ups.map((u) => u.info?.latestVersion).filter((v): v is string => !!v));
  const problems = [
    ...(installs.some((h) => !h.repositoryUrl) ? ["source repository not found"] : []),
    ...ups.flatMap((u) => {
      const error = !u.info ? "not fetched yet" : (u.info.error ?? (u.info.latestVersion ? null : "no versions in repository"));
      return error ? [sources.length > 1 ? `${u.url}: ${error}` : error] : [];
    }),
  ];
  return finishRow(
    {
      key: `helm:${chart}`,
      kind: "helm",
      label: chart,
      repository: main,
      sources,
      latest,
      latestBasis: latest ? "upstream" : null,
      upstreamError: problems.length ? problems.join("; ") : null,
      upstreamFetchedAt: ups.map((u) => u.info?.fetchedAt).find((v): v is string => !!v) ?? null,
      cells,
    },
    clusters,
    true,
  );
}

export function buildAddonMatrix(input: MatrixInput): MatrixRow[] {
  const rows: MatrixRow[] = [];

  // Helm: one row per chart name; each cell looks up the latest version in its own repositories.
  const charts = new Map<string, HelmInstallation[]>();
  for (const h of input.helm) charts.set(h.chart, [...(charts.get(h.chart) ?? []), h]);
  for (const [chart, installs] of charts) rows.push(helmRow(chart, installs, input.upstream, input.clusters));

  // EKS managed add-ons: the newest version compatible with each cluster's Kubernetes version.
  const managed = new Map<string, ManagedAddonInstallation[]>();
  for (const m of input.managed) managed.set(m.name, [...(managed.get(m.name) ?? []), m]);
  for (const [name, installs] of managed) {
    rows.push(
      finishRow(
        {
          key: `eks:${name}`,
          kind: "eks",
          label: name,
          repository: null,
          sources: [],
          latest: null,
          latestBasis: "eks-catalog",
          upstreamError: null,
          upstreamFetchedAt: null,
          cells: Object.fromEntries(installs.map((m) => [m.cluster, eksCell(m)])),
        },
        input.clusters,
        false,
      ),
    );
  }

  // Flux itself: no upstream feed is read, so the newest version in the fleet is the reference.
  const fluxInstalls = input.flux.filter((f) => f.version);
  if (fluxInstalls.length) {
    const newest = fleetNewest(fluxInstalls.map((f) => f.version));
    rows.push(
      finishRow(
        {
          key: "flux",
          kind: "flux",
          label: "Flux",
          repository: null,
          sources: [],
          latest: newest,
          latestBasis: "fleet",
          upstreamError: null,
          upstreamFetchedAt: null,
          cells: Object.fromEntries(fluxInstalls.map((f) => [f.cluster, fluxCell(f, newest)])),
        },
        input.clusters,
        true,
      ),
    );
  }

  const order: Record<AddonKind, number> = { flux: 0, eks: 1, helm: 2 };
  return rows.sort((a, b) => order[a.kind] - order[b.kind] || a.label.localeCompare(b.label));
}

/** Whether a cell counts towards "on the latest version", and whether it is on it (one definition for every page). */
export function cellShare(cell: Pick<MatrixCell, "standing">): { counted: boolean; current: boolean } {
  const counted = cell.standing !== "missing" && cell.standing !== "unknown";
  return { counted, current: counted && cell.standing === "current" };
}

/** Share of installed cells (failing counted as not current, unknown left out) whose standing is current. */
export function shareCurrent(rows: readonly MatrixRow[]): { current: number; installed: number } {
  let current = 0;
  let installed = 0;
  for (const r of rows) {
    for (const c of Object.values(r.cells)) {
      const s = cellShare(c);
      if (s.counted) installed++;
      if (s.current) current++;
    }
  }
  return { current, installed };
}
