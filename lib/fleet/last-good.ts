// "Last good revision" from the object's own status when our history has none yet (an object first seen
// failing): a Kustomization's status.history lists its last reconciliations newest first, a HelmRelease's
// status.history its Helm releases newest first.

type Entry = Record<string, unknown>;
const obj = (v: unknown): Entry => (v && typeof v === "object" && !Array.isArray(v) ? (v as Entry) : {});
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

export interface LastGood {
  revision: string;
  /** When it was last reconciled / deployed, when the status says. */
  at: string | null;
}

/** Kustomization history statuses that mean the revision was applied and healthy. */
const KUSTOMIZATION_SUCCESS = new Set(["ReconciliationSucceeded"]);
/** Helm release statuses of a release that ran successfully (superseded: a later release replaced it). */
const HELM_SUCCESS = new Set(["deployed", "superseded"]);

export function lastGoodFromStatus(kind: string, history: unknown): LastGood | null {
  if (!Array.isArray(history)) return null;
  for (const entry of history.map(obj)) {
    if (kind === "Kustomization" && KUSTOMIZATION_SUCCESS.has(str(entry.lastReconciledStatus) ?? "")) {
      const revision = str(obj(entry.metadata).revision);
      if (revision) return { revision, at: str(entry.lastReconciled) };
    }
    if (kind === "HelmRelease" && HELM_SUCCESS.has(str(entry.status) ?? "")) {
      const revision = str(entry.chartVersion);
      if (revision) return { revision, at: str(entry.lastDeployed) };
    }
  }
  return null;
}
