// EKS managed add-ons against DescribeAddonVersions: the default and the newest compatible version for
// the control plane's version now and for N+1.
import { compareVersions, newestVersion, sameVersion } from "./versions";

/** One add-on's catalog for one Kubernetes version, as stored ([{ addonVersion, defaultVersion }]). */
export interface CatalogVersion {
  addonVersion: string;
  defaultVersion?: boolean;
}

export interface ManagedAddonInput {
  name: string;
  version: string | null;
  status?: string | null;
}

export interface ManagedAddonStanding {
  name: string;
  version: string | null;
  status: string | null;
  defaultNow: string | null;
  latestNow: string | null;
  defaultNext: string | null;
  latestNext: string | null;
  /** true / false; null when the N+1 catalog was not fetched. */
  compatibleWithNext: boolean | null;
  /** The N+1 catalog lists no version at all for this add-on. */
  noVersionForNext: boolean;
  /** Behind the newest version compatible with the current Kubernetes version. */
  behindLatestNow: boolean;
  failing: boolean;
  /** What to do about this add-on for N → N+1; never "update to the version already installed". */
  advice: AddonAdvice;
}

/**
 * "before": update to `to` before the control plane (it runs on both N and N+1). "after": no version runs
 * on both, or the installed one already does: update right after the control plane, to `to`. "none":
 * nothing to do. "unknown": the N+1 catalog has not been fetched.
 */
export interface AddonAdvice {
  when: "before" | "after" | "none" | "unknown";
  to: string | null;
}

export function toCatalogVersions(json: unknown): CatalogVersion[] | null {
  if (!Array.isArray(json)) return null;
  return json
    .map((v) => (typeof v === "string" ? { addonVersion: v } : (v as CatalogVersion)))
    .filter((v) => v && typeof v.addonVersion === "string");
}

const defaultOf = (c: CatalogVersion[] | null) => c?.find((v) => v.defaultVersion)?.addonVersion ?? null;
const latestOf = (c: CatalogVersion[] | null) =>
  c
    ? newestVersion(
        c.map((v) => v.addonVersion),
        { includePrerelease: true },
      )
    : null;

const FAILING_STATUSES = new Set(["CREATE_FAILED", "UPDATE_FAILED", "DEGRADED", "DELETE_FAILED"]);

/** The newest version both catalogs list: it runs on N and on N+1. */
export function versionForBoth(catalogNow: CatalogVersion[] | null, catalogNext: CatalogVersion[] | null): string | null {
  if (!catalogNow || !catalogNext) return null;
  const both = catalogNow.map((v) => v.addonVersion).filter((v) => catalogNext.some((n) => sameVersion(n.addonVersion, v)));
  return newestVersion(both, { includePrerelease: true });
}

export function addonAdvice(
  installed: string | null,
  catalogNow: CatalogVersion[] | null,
  catalogNext: CatalogVersion[] | null,
): AddonAdvice {
  if (catalogNext === null || !installed) return { when: "unknown", to: null };
  const newer = (v: string | null) => (v && compareVersions(v, installed) > 0 && !sameVersion(v, installed) ? v : null);
  const runsOnNext = catalogNext.some((v) => sameVersion(v.addonVersion, installed));
  const afterTarget = newer(defaultOf(catalogNext)) ?? (runsOnNext ? null : newer(latestOf(catalogNext)));
  if (runsOnNext) return afterTarget ? { when: "after", to: afterTarget } : { when: "none", to: null };
  const bridge = newer(versionForBoth(catalogNow, catalogNext));
  if (bridge) return { when: "before", to: bridge };
  return afterTarget ? { when: "after", to: afterTarget } : { when: "none", to: null };
}

export function managedAddonStanding(
  addon: ManagedAddonInput,
  catalogNow: CatalogVersion[] | null,
  catalogNext: CatalogVersion[] | null,
): ManagedAddonStanding {
  const latestNow = latestOf(catalogNow);
  return {
    name: addon.name,
    version: addon.version,
    status: addon.status ?? null,
    defaultNow: defaultOf(catalogNow),
    latestNow,
    defaultNext: defaultOf(catalogNext),
    latestNext: latestOf(catalogNext),
    compatibleWithNext: catalogNext === null || !addon.version ? null : catalogNext.some((v) => sameVersion(v.addonVersion, addon.version)),
    noVersionForNext: catalogNext !== null && catalogNext.length === 0,
    behindLatestNow: !!(addon.version && latestNow && compareVersions(addon.version, latestNow) < 0),
    failing: FAILING_STATUSES.has((addon.status ?? "").toUpperCase()),
    advice: addonAdvice(addon.version, catalogNow, catalogNext),
  };
}
