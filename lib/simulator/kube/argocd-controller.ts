// A stand-in for Argo CD's application controller answering the two requests clients make on an
// Application: a refresh (it deletes the `argocd.argoproj.io/refresh` annotation when done) and a sync (it
// takes `operation`, runs it, clears `operation` and writes `status.operationState`). The outcome follows
// what the fleet model says about the Application at that moment: a revision whose automated sync fails
// fails a manual sync the same way. The controller writes like any client (merge patches on the object;
// Applications have no status subresource), so its writes bump the generation as on a real cluster.
import type { KubeObject } from "../contract";
import type { ResourceType } from "./registry";

export const REFRESH_ANNOTATION = "argocd.argoproj.io/refresh";

export const isArgoApplication = (type: ResourceType) => type.group === "argoproj.io" && type.kind === "Application";

type Raw = Record<string, unknown>;
const obj = (v: unknown): Raw => (v && typeof v === "object" && !Array.isArray(v) ? (v as Raw) : {});

/** What the controller has to do after a client write, if anything. */
export function argoRequests(before: KubeObject | undefined, after: KubeObject): { refresh: boolean; sync: boolean } {
  const refresh = after.metadata.annotations?.[REFRESH_ANNOTATION];
  const newRefresh = refresh !== undefined && refresh !== before?.metadata.annotations?.[REFRESH_ANNOTATION];
  const operation = after.operation;
  const newSync = operation !== undefined && operation !== null && JSON.stringify(operation) !== JSON.stringify(before?.operation);
  return { refresh: newRefresh, sync: newSync };
}

const RETRY_SUFFIX = / \(retried \d+ times\)\.$|\. Retrying attempt #\d+ at [0-9:]+[AP]M\.$/;

/** The merge patch the controller writes when it has handled the requests on `current` at `nowIso`. */
export function argoControllerPatch(current: KubeObject, requests: { refresh: boolean; sync: boolean }, nowIso: string): Raw | null {
  const patch: Raw = {};
  if (requests.refresh && current.metadata.annotations?.[REFRESH_ANNOTATION] !== undefined) {
    patch.metadata = { annotations: { [REFRESH_ANNOTATION]: null } };
  }
  const operation = obj(current.operation);
  if (requests.sync && current.operation) {
    const status = obj(current.status);
    const sync = obj(status.sync);
    const state = obj(status.operationState);
    const multi = Array.isArray(obj(current.spec).sources);
    const revisions = Array.isArray(sync.revisions)
      ? (sync.revisions as string[])
      : typeof sync.revision === "string"
        ? [sync.revision]
        : [];
    // The model's own verdict on the current revision: an apply error there is an apply error here.
    const failing = state.phase === "Failed" || (state.phase === "Running" && typeof state.finishedAt === "string");
    const failedMessage =
      typeof state.message === "string" ? state.message.replace(RETRY_SUFFIX, "") : "one or more objects failed to apply";
    const requested = obj(operation.sync);
    const result: Raw = {
      operation: current.operation,
      phase: failing ? "Failed" : "Succeeded",
      message: failing ? failedMessage : "successfully synced (all tasks run)",
      startedAt: nowIso,
      finishedAt: nowIso,
    };
    if (!failing) {
      result.syncResult = multi
        ? { revision: "", revisions, sources: obj(current.spec).sources, resources: [] }
        : { revision: (requested.revision as string | undefined) || revisions[0] || "", source: obj(current.spec).source, resources: [] };
    }
    patch.operation = null;
    patch.status = { operationState: result };
  }
  return Object.keys(patch).length ? patch : null;
}

/**
 * Keeps the newest operation: a manual sync's state (in the client overlay) gives way once the model's own
 * controller history has a newer operation (e.g. the automated sync after a fix commit).
 */
export function newestOperationOverlay(base: KubeObject, overlay: unknown): unknown {
  const mine = obj(obj(obj(overlay).status).operationState).startedAt;
  const theirs = obj(obj(base.status).operationState).startedAt;
  if (typeof mine !== "string" || typeof theirs !== "string" || Date.parse(theirs) <= Date.parse(mine)) return overlay;
  const { operationState: _dropped, ...status } = obj(obj(overlay).status);
  return { ...obj(overlay), status };
}
