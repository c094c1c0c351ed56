// The add-on × cluster matrix: one row per add-on (a Helm chart from one repository, an EKS managed
// add-on, Flux itself), one cell per cluster with the applied version and its standing.
import { fleetNewest, hasSkew, standingOf, STANDINGS, type Standing } from "./standing";
import { compareVersions, newestSatisfying, sameVersion } from "./versions";

export type AddonKind = "helm" | "eks" | "flux";
/** What the cell's "latest" is measured against. */
export type LatestBasis = "upstream" | "eks-catalog" | "fleet";

export interface HelmInstallation {
  cluster: string;
  namespace: string;
  name: string;
  chart: string;
  /** URL of the HelmRepository / OCIRepository the release's chart comes from; null if unresolved. */
  repositoryUrl: string | null;
  /** spec.chart.spec.version: exact version or semver range; null = latest. */
  desired: string | null;
  /** Chart version of the last deployed release (status.history). */
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
}

export interface FluxInstallation {
  cluster: string;
  version: string | null;
}

export interface MatrixCell {
  cluster: string;
  applied: string | null;
  desired: string | null;
  latest: string | null;
  /** Newest version the desired spec allows (a pinned range may hold a release back). */
  latestAllowed: string | null;
  standing: Standing;
  /** Applied differs from the newest version applied elsewhere in the fleet. */
  skewed: boolean;
  /** HelmRelease namespace/name, when it is one. */
  object: { namespace: string; name: string } | null;
}

export interface MatrixRow {
  key: string;
  kind: AddonKind;
  label: string;
  /** Repository URL for Helm rows. */
  repository: string | null;
  latest: string | null;
  latestBasis: LatestBasis | null;
  /** Upstream could not be read: reported, never guessed. */
  upstreamError: string | null;
  upstreamFetchedAt: string | null;
  /** Versions differ across the clusters running it. */
  skew: boolean;
  fleetNewest: string | null;
  cells: Record<string, MatrixCell>;
  counts: Record<Standing, number>;
}

export interface MatrixInput {
  clusters: readonly string[];
  helm: readonly HelmInstallation[];
  upstream: ReadonlyMap<string, UpstreamInfo>;
  managed: readonly ManagedAddonInstallation[];
  flux: readonly FluxInstallation[];
}

/** One key per (repository, chart): the same chart name from two repositories is two add-ons. */
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

function finishRow(row: Omit<MatrixRow, "skew" | "fleetNewest" | "counts">, clusters: readonly string[]): MatrixRow {
  const applied = Object.values(row.cells)
    .filter((c) => c.standing !== "missing")
    .map((c) => c.applied);
  const newest = fleetNewest(applied);
  const counts = emptyCounts();
  for (const cluster of clusters) {
    row.cells[cluster] ??= {
      cluster,
      applied: null,
      desired: null,
      latest: row.latest,
      latestAllowed: null,
      standing: "missing",
      skewed: false,
      object: null,
    };
    const cell = row.cells[cluster];
    cell.skewed = cell.standing !== "missing" && !!cell.applied && !!newest && !sameVersion(cell.applied, newest);
    counts[cell.standing]++;
  }
  return { ...row, skew: hasSkew(applied), fleetNewest: newest, counts };
}

export function buildAddonMatrix(input: MatrixInput): MatrixRow[] {
  const rows: MatrixRow[] = [];

  // Helm: grouped by (repository, chart). A release whose source could not be resolved is its own row.
  const groups = new Map<string, HelmInstallation[]>();
  for (const h of input.helm) {
    const key = h.repositoryUrl ? upstreamKey(h.repositoryUrl, h.chart) : `?#${h.chart}`;
    groups.set(key, [...(groups.get(key) ?? []), h]);
  }
  for (const [key, installs] of groups) {
    const first = installs[0];
    const up = first.repositoryUrl ? input.upstream.get(key) : undefined;
    const latest = up?.latestVersion ?? null;
    const cells: Record<string, MatrixCell> = {};
    // Several releases of one chart in one cluster: show the oldest (the one that needs work).
    const perCluster = new Map<string, HelmInstallation>();
    for (const h of installs) {
      const seen = perCluster.get(h.cluster);
      if (!seen || compareVersions(h.applied, seen.applied) < 0) perCluster.set(h.cluster, h);
    }
    for (const h of perCluster.values()) {
      cells[h.cluster] = {
        cluster: h.cluster,
        applied: h.applied,
        desired: h.desired,
        latest,
        latestAllowed: up ? newestSatisfying(up.versions, h.desired) : null,
        standing: standingOf({ installed: true, failing: h.failing, applied: h.applied, latest }),
        skewed: false,
        object: { namespace: h.namespace, name: h.name },
      };
    }
    const upstreamError = !first.repositoryUrl
      ? "source repository not found"
      : !up
        ? "not fetched yet"
        : (up.error ?? (up.latestVersion ? null : "no versions in repository"));
    rows.push(
      finishRow(
        {
          key: `helm:${key}`,
          kind: "helm",
          label: first.chart,
          repository: first.repositoryUrl,
          latest,
          latestBasis: latest ? "upstream" : null,
          upstreamError,
          upstreamFetchedAt: up?.fetchedAt ?? null,
          cells,
        },
        input.clusters,
      ),
    );
  }

  // EKS managed add-ons: the newest version compatible with each cluster's Kubernetes version.
  const managed = new Map<string, ManagedAddonInstallation[]>();
  for (const m of input.managed) managed.set(m.name, [...(managed.get(m.name) ?? []), m]);
  for (const [name, installs] of managed) {
    const cells: Record<string, MatrixCell> = {};
    for (const m of installs) {
      cells[m.cluster] = {
        cluster: m.cluster,
        applied: m.version,
        desired: null,
        latest: m.latestCompatible,
        latestAllowed: m.latestCompatible,
        standing: standingOf({ installed: true, failing: m.failing, applied: m.version, latest: m.latestCompatible }),
        skewed: false,
        object: null,
      };
    }
    rows.push(
      finishRow(
        {
          key: `eks:${name}`,
          kind: "eks",
          label: name,
          repository: null,
          latest: null,
          latestBasis: "eks-catalog",
          upstreamError: null,
          upstreamFetchedAt: null,
          cells,
        },
        input.clusters,
      ),
    );
  }

  // Flux itself: no upstream feed is read, so the newest version in the fleet is the reference.
  const fluxInstalls = input.flux.filter((f) => f.version);
  if (fluxInstalls.length) {
    const newest = fleetNewest(fluxInstalls.map((f) => f.version));
    const cells: Record<string, MatrixCell> = {};
    for (const f of fluxInstalls) {
      cells[f.cluster] = {
        cluster: f.cluster,
        applied: f.version,
        desired: null,
        latest: newest,
        latestAllowed: null,
        standing: standingOf({ installed: true, failing: false, applied: f.version, latest: newest }),
        skewed: false,
        object: null,
      };
    }
    rows.push(
      finishRow(
        {
          key: "flux",
          kind: "flux",
          label: "Flux",
          repository: null,
          latest: newest,
          latestBasis: "fleet",
          upstreamError: null,
          upstreamFetchedAt: null,
          cells,
        },
        input.clusters,
      ),
    );
  }

  const order: Record<AddonKind, number> = { flux: 0, eks: 1, helm: 2 };
  return rows.sort(
    (a, b) => order[a.kind] - order[b.kind] || a.label.localeCompare(b.label) || (a.repository ?? "").localeCompare(b.repository ?? ""),
  );
}

/** Share of installed cells (failing counted as not current) whose standing is current. */
export function shareCurrent(rows: readonly MatrixRow[]): { current: number; installed: number } {
  let current = 0;
  let installed = 0;
  for (const r of rows) {
    for (const c of Object.values(r.cells)) {
      if (c.standing === "missing" || c.standing === "unknown") continue;
      installed++;
      if (c.standing === "current") current++;
    }
  }
  return { current, installed };
}
