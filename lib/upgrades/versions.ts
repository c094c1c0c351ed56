// Version parsing and comparison for the three spellings the fleet uses:
//   Kubernetes minors        "1.33", "v1.33.4-eks-3025e55" (server gitVersion), "1.33.5-20261110" (AMI release)
//   Helm chart versions      "3.2.1", "v1.19.1", "3.2.1+abc123" (build metadata, e.g. an OCI digest)
//   EKS managed add-ons      "v1.20.5-eksbuild.1"
// Build metadata never takes part in a comparison (SemVer §10). Ranges in a HelmRelease spec
// ("~1.19.0", ">=4.0.0 <5.0.0", "*") are read with the semver package, as Flux reads them.
import semver from "semver";

export interface ParsedVersion {
  major: number;
  minor: number;
  patch: number;
  /** Dot-separated pre-release identifiers ("rc.1" → ["rc", 1]); empty for a release. */
  prerelease: (string | number)[];
  /** The text as given, trimmed. */
  raw: string;
}

const VERSION_RE = /^[vV]?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]*)?$/;

/** Parses a version; a missing minor or patch counts as 0 ("1.33" → 1.33.0). Null when not a version. */
export function parseVersion(text: string | null | undefined): ParsedVersion | null {
  if (text == null) return null;
  const raw = text.trim();
  const m = VERSION_RE.exec(raw);
  if (!m) return null;
  const prerelease = m[4] ? m[4].split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [];
  return { major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0), prerelease, raw };
}

/** Drops build metadata: "3.2.1+abc123" → "3.2.1". */
export function withoutBuild(text: string): string {
  const plus = text.indexOf("+");
  return plus === -1 ? text.trim() : text.slice(0, plus).trim();
}

function comparePrerelease(a: (string | number)[], b: (string | number)[]): number {
  if (!a.length || !b.length) return (b.length ? 1 : 0) - (a.length ? 1 : 0); // release > pre-release
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x < y ? -1 : 1;
    if (typeof x === "number") return -1;
    if (typeof y === "number") return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** SemVer precedence (build metadata ignored). Unparseable versions sort before parseable ones. */
export function compareVersions(a: string | null | undefined, b: string | null | undefined): number {
  const [pa, pb] = [parseVersion(a), parseVersion(b)];
  if (!pa || !pb) return (pa ? 1 : 0) - (pb ? 1 : 0);
  if (pa.major !== pb.major) return pa.major < pb.major ? -1 : 1;
  if (pa.minor !== pb.minor) return pa.minor < pb.minor ? -1 : 1;
  if (pa.patch !== pb.patch) return pa.patch < pb.patch ? -1 : 1;
  return comparePrerelease(pa.prerelease, pb.prerelease);
}

export function sameVersion(a: string | null | undefined, b: string | null | undefined): boolean {
  return parseVersion(a) !== null && compareVersions(a, b) === 0;
}

/** Newest first; unparseable entries last. */
export function sortNewestFirst(versions: readonly string[]): string[] {
  return [...versions].sort((a, b) => compareVersions(b, a));
}

/** The newest release in a list (pre-releases only when there is no release). */
export function newestVersion(versions: readonly string[], options: { includePrerelease?: boolean } = {}): string | null {
  const parsed = versions.filter((v) => parseVersion(v));
  const releases = parsed.filter((v) => parseVersion(v)!.prerelease.length === 0);
  const pool = options.includePrerelease || releases.length === 0 ? parsed : releases;
  return sortNewestFirst(pool)[0] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Kubernetes minors

/** "v1.33.4-eks-3025e55" → "1.33"; null when not a version. */
export function kubernetesMinor(text: string | null | undefined): string | null {
  const p = parseVersion(text);
  return p ? `${p.major}.${p.minor}` : null;
}

/**
 * The control plane's minor from the two places it is read: the EKS API (eksVersion, polled every few
 * minutes) and the API server (gitVersion, polled every cycle). Versions only go up, so the newer one is
 * the fresher reading.
 */
export function controlPlaneMinor(eksVersion: string | null | undefined, serverVersion: string | null | undefined): string | null {
  const [a, b] = [kubernetesMinor(eksVersion), kubernetesMinor(serverVersion)];
  if (!a || !b) return a ?? b;
  return compareVersions(a, b) >= 0 ? a : b;
}

/** The next minor: EKS control planes move one minor at a time. */
export function nextMinor(version: string): string {
  const p = parseVersion(version);
  if (!p) throw new Error(`not a Kubernetes version: ${version}`);
  return `${p.major}.${p.minor + 1}`;
}

/**
 * N+1 when anything we know shows a version newer than N: DescribeClusterVersions, the built-in calendar,
 * or a cluster of the fleet running it (pass them all as `known`). Null only when N is the newest version
 * known anywhere: the end of a built-in table never proves there is no newer version.
 */
export function nextVersionOf(current: string | null | undefined, known: Iterable<string | null | undefined>): string | null {
  const n = kubernetesMinor(current);
  if (!n) return null;
  for (const k of known) {
    const m = kubernetesMinor(k);
    if (m && compareVersions(m, n) > 0) return nextMinor(n);
  }
  return null;
}

/** The newest Kubernetes minor among the given versions. */
export function newestMinor(versions: Iterable<string | null | undefined>): string | null {
  let best: string | null = null;
  for (const v of versions) {
    const m = kubernetesMinor(v);
    if (m && (!best || compareVersions(m, best) > 0)) best = m;
  }
  return best;
}

/** How many minors `older` is behind `newer` (negative when `older` is actually newer). */
export function minorsBehind(older: string, newer: string): number | null {
  const [a, b] = [parseVersion(older), parseVersion(newer)];
  if (!a || !b || a.major !== b.major) return null;
  return b.minor - a.minor;
}

// ---------------------------------------------------------------------------------------------
// Ranges in HelmRelease spec.chart.spec.version

/** True when the text is a range rather than one exact version ("~1.2", "1.x", ">=1 <2", "*"). */
export function isRange(spec: string | null | undefined): boolean {
  if (!spec) return false;
  const exact = parseVersion(spec);
  return exact === null && semver.validRange(withoutBuild(spec), { loose: true }) !== null;
}

/** Whether a version satisfies a spec (exact version or range); build metadata ignored. Empty spec = latest = any. */
export function satisfiesSpec(version: string, spec: string | null | undefined): boolean {
  if (!spec || spec.trim() === "" || spec.trim() === "*") {
    const p = parseVersion(version);
    return p !== null && p.prerelease.length === 0; // "latest" means the latest release, as Helm picks it
  }
  if (!isRange(spec)) return sameVersion(version, spec);
  const clean = semver.clean(withoutBuild(version), { loose: true }) ?? withoutBuild(version).replace(/^[vV]/, "");
  return semver.satisfies(clean, withoutBuild(spec), { loose: true, includePrerelease: false });
}

/** The newest version a spec allows out of the given list, as helm-controller would pick it. */
export function newestSatisfying(versions: readonly string[], spec: string | null | undefined): string | null {
  return sortNewestFirst(versions.filter((v) => parseVersion(v) && satisfiesSpec(v, spec)))[0] ?? null;
}
