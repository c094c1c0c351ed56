// The writes behind operator actions on an Application, as Argo CD's own clients make them (v3.5):
//   refresh  JSON merge patch {"metadata":{"annotations":{"argocd.argoproj.io/refresh":"normal"|"hard"}}}
//            (util/argo RefreshApp, used by `argocd app get --refresh` and the UI); the controller deletes
//            the annotation when it has refreshed: its disappearance is the "done" signal.
//   sync     the `operation` the API server sets (server/application Sync → util/argo SetAppOperation):
//            refused while another operation is set, `status.operationState` cleared with it. Applications
//            have no status subresource, so this is one merge patch on the object itself; carrying the
//            resourceVersion we read makes it conditional, like the API server's Update (409 on a race).
import { REFRESH_ANNOTATION } from "./application";

export type RefreshMode = "normal" | "hard";

export function refreshPatch(mode: RefreshMode = "normal"): { metadata: { annotations: Record<string, string> } } {
  return { metadata: { annotations: { [REFRESH_ANNOTATION]: mode } } };
}

export interface SyncRequest {
  /** Recorded as operation.initiatedBy.username (Argo CD shows it in the UI and history). */
  username: string;
  /** Sync to this revision instead of the spec's (single-source only; empty = the spec's targetRevision). */
  revision?: string;
  prune?: boolean;
  dryRun?: boolean;
  /** "hook" or "apply" as `argocd app sync --strategy`; absent = Argo CD's default. */
  strategy?: "hook" | "apply";
  /** Partial sync: only these resources. */
  resources?: Array<{ group?: string; kind: string; name: string; namespace?: string }>;
  /** Replaces spec.syncPolicy.syncOptions for this sync. */
  syncOptions?: string[];
  /** operation.info items, e.g. [{ name: "Reason", value: "…" }]. */
  info?: Array<{ name: string; value: string }>;
}

export type SyncPatchResult = { ok: true; patch: Record<string, unknown> } | { ok: false; reason: string };

type Raw = Record<string, unknown>;
const obj = (v: unknown): Raw => (v && typeof v === "object" && !Array.isArray(v) ? (v as Raw) : {});

/**
 * The merge patch that starts a sync of `app` (the Application as read from the API server), shaped like the
 * Operation the Argo CD API server writes: source (single-source) or sources (multi-source) copied from the
 * spec, syncOptions and retry from spec.syncPolicy unless the request overrides them, initiatedBy, and
 * Go's encoding (false and empty fields omitted, `initiatedBy` and `retry` always present).
 */
export function syncPatch(app: unknown, request: SyncRequest): SyncPatchResult {
  const application = obj(app);
  if (application.operation !== undefined && application.operation !== null) {
    return { ok: false, reason: "another operation is already in progress" };
  }
  const spec = obj(application.spec);
  const syncPolicy = obj(spec.syncPolicy);
  const multi = Array.isArray(spec.sources) && spec.sources.length > 0;
  if (multi && request.revision) {
    return {
      ok: false,
      reason: "a revision can only be given for a single-source Application (multi-source syncs use each source's targetRevision)",
    };
  }
  const automated = syncPolicy.automated !== undefined && syncPolicy.automated !== null && obj(syncPolicy.automated).enabled !== false;
  if (automated && request.revision && request.revision !== (obj(spec.source).targetRevision || "HEAD") && !request.dryRun) {
    return {
      ok: false,
      reason: `Cannot sync to ${request.revision}: auto-sync currently set to ${String(obj(spec.source).targetRevision ?? "")}`,
    };
  }

  // Keys in the order Go's encoding/json writes SyncOperation.
  const sync: Raw = {};
  if (request.revision) sync.revision = request.revision;
  if (request.prune) sync.prune = true;
  if (request.dryRun) sync.dryRun = true;
  if (request.strategy) sync.syncStrategy = { [request.strategy]: {} };
  if (request.resources?.length) {
    sync.resources = request.resources.map((r) => ({
      ...(r.group ? { group: r.group } : {}),
      kind: r.kind,
      name: r.name,
      ...(r.namespace ? { namespace: r.namespace } : {}),
    }));
  }
  if (!multi && spec.source) sync.source = spec.source;
  const syncOptions = request.syncOptions ?? (Array.isArray(syncPolicy.syncOptions) ? (syncPolicy.syncOptions as string[]) : []);
  if (syncOptions.length) sync.syncOptions = syncOptions;
  if (multi) sync.sources = spec.sources;

  const operation: Raw = {
    sync,
    initiatedBy: { username: request.username },
    ...(request.info?.length ? { info: request.info } : {}),
    retry: syncPolicy.retry && typeof syncPolicy.retry === "object" ? syncPolicy.retry : {},
  };
  const resourceVersion = obj(application.metadata).resourceVersion;
  // Clearing a state that is not there would only leave `status: {}` on a never-reconciled Application.
  const hadState = obj(application.status).operationState !== undefined && obj(application.status).operationState !== null;
  return {
    ok: true,
    patch: {
      ...(typeof resourceVersion === "string" && resourceVersion ? { metadata: { resourceVersion } } : {}),
      operation,
      ...(hadState ? { status: { operationState: null } } : {}),
    },
  };
}
