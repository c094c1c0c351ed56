// Where one installation of an add-on stands against the newest version available to it.
import { compareVersions, newestVersion, parseVersion } from "./versions";

/** Ordered from best to worst, so a fleet summary can take the worst cell. */
export const STANDINGS = ["current", "patch", "minor", "major", "unknown", "failing", "missing"] as const;
export type Standing = (typeof STANDINGS)[number];

export const STANDING_LABEL: Record<Standing, string> = {
  current: "current",
  patch: "behind by patch",
  minor: "behind by minor",
  major: "behind by major",
  unknown: "latest unknown",
  failing: "failing",
  missing: "missing",
};

/** How far `applied` is behind `latest`: current when equal or newer (build metadata ignored). */
export function versionGap(applied: string, latest: string): "current" | "patch" | "minor" | "major" | null {
  const [a, l] = [parseVersion(applied), parseVersion(latest)];
  if (!a || !l) return null;
  if (compareVersions(applied, latest) >= 0) return "current";
  if (a.major !== l.major) return "major";
  if (a.minor !== l.minor) return "minor";
  return "patch";
}

export interface StandingInput {
  /** No installation in this cluster. */
  installed: boolean;
  /** The release is failing or stalled (its applied version may be stale). */
  failing: boolean;
  applied: string | null;
  /** Newest version the reference knows; null when the reference could not be read. */
  latest: string | null;
}

export function standingOf(input: StandingInput): Standing {
  if (!input.installed) return "missing";
  if (input.failing) return "failing";
  if (!input.applied || !input.latest) return "unknown";
  return versionGap(input.applied, input.latest) ?? "unknown";
}

/** Versions differ across the clusters that run the add-on (build metadata ignored). */
export function hasSkew(applied: readonly (string | null)[]): boolean {
  const distinct = new Set(applied.filter((v): v is string => !!v && !!parseVersion(v)).map((v) => canonical(v)));
  return distinct.size > 1;
}

/** Newest applied version across the fleet; cells below it are highlighted as skew. */
export function fleetNewest(applied: readonly (string | null)[]): string | null {
  return newestVersion(
    applied.filter((v): v is string => !!v),
    { includePrerelease: true },
  );
}

function canonical(v: string): string {
  const p = parseVersion(v)!;
  return `${p.major}.${p.minor}.${p.patch}${p.prerelease.length ? `-${p.prerelease.join(".")}` : ""}`;
}
