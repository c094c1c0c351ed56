// Which Kubernetes versions the simulated fleet runs, chosen from the EKS calendar at the simulation's date
// (its t0). The product judges support against the real date, so fixed version strings would change the
// scenarios' meaning as the calendar moves (a spoke "in extended support" silently becoming unsupported).
// Choosing by date keeps each role's meaning for every date the calendar covers, and refuses the dates it
// does not cover instead of building a fleet that means something else.
import { EKS_VERSIONS, nextMinor, previousMinor, versionStatusAt, type EksVersionInfo } from "./catalogue";

/** Kubernetes stops serving flowcontrol.apiserver.k8s.io/v1beta3 in 1.32: the removed-API spoke stays on the minor before. */
export const REMOVED_API_VERSION = "1.31";
/** The spoke left behind, a year past end of extended support (old-cluster.ts). */
export const PAST_EXTENDED_SUPPORT_VERSION = "1.27";
/** Ordinary spokes run the newest versions in standard support, at most this many of them. */
const BASE_VERSION_COUNT = 4;

export interface FleetVersions {
  /** The UTC day the versions were chosen for. */
  date: string;
  /** In standard support at the date, newest first: ordinary spokes run these. */
  standard: string[];
  /** The newest version in standard support. */
  reference: string;
  /** The oldest version in standard support: the platform team keeps its own cluster supported. */
  hub: string;
  /** The oldest version in extended support: the one a fleet pays for first and must leave first. */
  extendedSupport: string;
  /** Control plane just upgraded to the oldest version in standard support; one node group two minors behind. */
  nodeGroupSkew: { controlPlane: string; kubeProxy: string; nodegroup: string };
  /** Upgraded during the run onto the newest version in standard support. */
  scheduledUpgrade: { from: string; to: string };
  /** One minor before the removal its inventory still uses, whatever its support says. */
  removedApi: { version: string; removedIn: string };
  pastExtendedSupport: string;
}

/** The calendar cannot give a role a version with the meaning it needs at that date. */
export class FleetCalendarError extends Error {
  override name = "FleetCalendarError";
}

const minorOf = (version: string) => Number(version.split(".")[1]);

/** Pure: the versions for a fleet whose timeline starts at `at` (epoch ms), from `calendar`. */
export function fleetVersionsAt(at: number, calendar: readonly EksVersionInfo[] = EKS_VERSIONS): FleetVersions {
  const date = new Date(at).toISOString().slice(0, 10);
  const known = new Set(calendar.map((v) => v.version));
  // Not yet released versions are in no support state, whatever their end dates say.
  const released = calendar.filter((v) => v.releaseDate <= at).sort((a, b) => minorOf(a.version) - minorOf(b.version));
  const inState = (state: ReturnType<typeof versionStatusAt>) =>
    released.filter((v) => versionStatusAt(v, at) === state).map((v) => v.version);
  const standard = inState("STANDARD_SUPPORT");
  const extended = inState("EXTENDED_SUPPORT");

  const missing: string[] = [];
  if (!standard.length)
    missing.push(
      "no version in standard support (the reference, the hub, ordinary spokes, node-group-skew and scheduled-upgrade need one)",
    );
  if (!extended.length) missing.push("no version in extended support (the extended-support spoke needs one)");
  const newest = standard.at(-1);
  const oldest = standard[0];
  const need = (version: string | undefined, why: string) => {
    if (version && !known.has(version)) missing.push(`${version} ${why}`);
  };
  need(oldest && previousMinor(oldest), "for the node-group-skew spoke's kube-proxy");
  need(oldest && previousMinor(previousMinor(oldest)), "for the node-group-skew spoke's lagging node group");
  need(newest && previousMinor(newest), "for the scheduled upgrade to start from");
  need(REMOVED_API_VERSION, "for the removed-API spoke");
  need(nextMinor(REMOVED_API_VERSION), "for the removed-API spoke's next version");
  need(PAST_EXTENDED_SUPPORT_VERSION, "for the spoke past end of extended support");
  if (missing.length) {
    const span = `${calendar[0]?.version ?? "nothing"}–${calendar.at(-1)?.version ?? "nothing"}`;
    throw new FleetCalendarError(
      `the simulated fleet cannot start on ${date}: ${missing.join("; ")}. The simulator's EKS calendar ` +
        `(lib/simulator/fleet/catalogue.ts, ${span}) needs the versions EKS released since, with their dates.`,
    );
  }
  return {
    date,
    standard: standard.slice(-BASE_VERSION_COUNT).reverse(),
    reference: newest!,
    hub: oldest,
    extendedSupport: extended[0],
    nodeGroupSkew: { controlPlane: oldest, kubeProxy: previousMinor(oldest), nodegroup: previousMinor(previousMinor(oldest)) },
    scheduledUpgrade: { from: previousMinor(newest!), to: newest! },
    removedApi: { version: REMOVED_API_VERSION, removedIn: nextMinor(REMOVED_API_VERSION) },
    pastExtendedSupport: PAST_EXTENDED_SUPPORT_VERSION,
  };
}
