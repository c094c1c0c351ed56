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
  };
}
