// What the collector keeps of each stored object between reads (loaded from the database after a restart,
// updated by every write), with its strings pooled: a fleet keeps this for every object it holds.
import { intern } from "../intern";
import type { CaredFields } from "../kube/flux";
import type { KnownObject } from "./types";

/** A kept object; every string goes through the pool (see intern.ts). */
export function keptObject(
  id: string,
  kind: string,
  hash: string,
  cared: CaredFields,
  times: Pick<KnownObject, "firstFailedAt" | "lastReadyAt" | "lastGoodRevision" | "lastReconcileAt">,
  deleted = false,
): KnownObject {
  return {
    id,
    kind: intern(kind),
    hash,
    cared: {
      health: intern(cared.health),
      healthDetail: intern(cared.healthDetail),
      readyStatus: intern(cared.readyStatus),
      readyReason: intern(cared.readyReason),
      readyMessage: intern(cared.readyMessage),
      attemptedRevision: intern(cared.attemptedRevision),
      appliedRevision: intern(cared.appliedRevision),
      chartVersion: intern(cared.chartVersion),
      appVersion: intern(cared.appVersion),
      suspended: cared.suspended,
    },
    firstFailedAt: intern(times.firstFailedAt),
    lastReadyAt: intern(times.lastReadyAt),
    lastGoodRevision: intern(times.lastGoodRevision),
    lastReconcileAt: intern(times.lastReconcileAt),
    deleted,
  };
}
