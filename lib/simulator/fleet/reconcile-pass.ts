// How Flux's controllers write a reconcile that changes nothing: kustomize-controller v1.9 `reconcile` and
// helm-controller v1.6 `reconcileRelease` write the status as they go, every spec.interval, whether anything
// changed or not:
//
//   Kustomization: Ready Unknown "Reconciliation in progress" + Reconciling "Fetching manifests for revision R
//     with a timeout of T" → "Building manifests …" (lastAttemptedRevision R) → "Detecting drift …" → with
//     health checks, "Running health checks …" (Healthy Unknown) → Ready True "Applied revision: R" (a new
//     lastTransitionTime), Reconciling gone, history[0]'s lastReconciled, duration and count moved.
//   HelmRelease: Reconciling True "Fulfilling prerequisites" added → removed again (Ready stays True).
//
// A failing Kustomization whose status.history[0] records the failure of its lastAttemptedRevision retries
// it every spec.retryInterval (spec.interval without one) through the same steps, and fails again the same
// way: Ready False with the same reason and message, Reconciling True `ProgressingWithRetry` (finalizeStatus).
// A mark (absolute fields, like churn marks) says where one object's pass stands; applied over whatever the
// model says, re-renders keep it. Used by the API servers' routine reconciles (kube/reconciles.ts) and by
// the model's scenarios.
import { goDuration } from "./random";
import type { KubeObject } from "../contract";

type Status = Record<string, unknown>;
type Condition = Record<string, unknown>;

export type RoutineStep = "fetching" | "building" | "drift" | "health" | "prerequisites";

/** Where one object's routine reconcile stands: a step in progress, or (step null) the last pass done. */
export interface RoutineMark {
  step: RoutineStep | null;
  /** The revision the pass is of (a Kustomization's lastAppliedRevision when it began). */
  revision: string;
  /** Simulated epoch ms: when the pass began and when its current step began. */
  startedAt: number;
  stepAt: number;
  /** Passes finished so far (added to history[0].totalReconciliations). */
  passes: number;
  /** Simulated epoch ms the last pass finished (null: none yet). */
  finishedAt: number | null;
  /** A failing Kustomization's retry: the failure it ends in again (Ready False's reason and message). */
  failed?: { reason: string; message: string } | null;
}

/** What a pass that starts now is of: the revision, and for a retry the failure it repeats. */
export interface RoutinePass {
  revision: string;
  failed: { reason: string; message: string } | null;
}

/** Simulated milliseconds from a pass's start to each of its steps (the last entry: the pass ends). */
const KUSTOMIZATION_STEPS: readonly (readonly [RoutineStep, number])[] = [
  ["fetching", 0],
  ["building", 400],
  ["drift", 900],
];
const HEALTH_STEP_AT = 1_600;
const KUSTOMIZATION_DONE_AT = 2_500;
const KUSTOMIZATION_WITH_HEALTH_DONE_AT = 4_000;
const HELMRELEASE_DONE_AT = 1_200;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const conditionsOf = (status: Status): Condition[] => (Array.isArray(status.conditions) ? (status.conditions as Condition[]) : []);
const find = (status: Status, type: string) => conditionsOf(status).find((c) => c.type === type);

/**
 * Sets a condition as Flux's conditions helpers do: the transition time moves only when the status does
 * (`flipped`: it did in between, though the base the mark is applied over cannot show it).
 */
function setCondition(
  status: Status,
  type: string,
  value: string,
  reason: string,
  message: string,
  at: number,
  generation: unknown,
  flipped = false,
) {
  const conditions = conditionsOf(status);
  const before = conditions.find((c) => c.type === type);
  const kept = !flipped && before?.status === value && typeof before.lastTransitionTime === "string";
  const next: Condition = {
    type,
    status: value,
    reason,
    message,
    lastTransitionTime: kept ? before.lastTransitionTime : iso(at),
    ...(generation !== undefined && { observedGeneration: generation }),
  };
  status.conditions = before ? conditions.map((c) => (c === before ? next : c)) : [...conditions, next];
}

function deleteCondition(status: Status, type: string) {
  status.conditions = conditionsOf(status).filter((c) => c.type !== type);
}

/** Whole seconds of a Go duration as Flux specs write them ("10m0s", "1h", "45s"); null when it is not one. */
export function durationSeconds(text: unknown): number | null {
  const m = typeof text === "string" ? /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text) : null;
  return m && m[0] ? Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0) : null;
}

/** Go's Duration.String() for whole seconds: "10m0s", "1h0m0s", "45s" (10m0s when not given). */
function goTimeout(text: unknown): string {
  const seconds = durationSeconds(text) ?? 600;
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h ? `${h}h${min}m${s}s` : min ? `${min}m${s}s` : `${s}s`;
}

const VERB: Record<RoutineStep, string> = {
  fetching: "Fetching manifests",
  building: "Building manifests",
  drift: "Detecting drift",
  health: "Running health checks",
  prerequisites: "Fulfilling prerequisites",
};

/** The object's status with a routine mark applied. */
export function applyRoutineMark(object: KubeObject, mark: RoutineMark): Status {
  const status: Status = { ...((object.status as Status | undefined) ?? {}) };
  const generation = object.metadata.generation;
  if (object.kind === "HelmRelease") {
    if (mark.step) setCondition(status, "Reconciling", "True", "Progressing", VERB.prerequisites, mark.startedAt, generation);
    else deleteCondition(status, "Reconciling");
    return status;
  }
  const spec = (object.spec ?? {}) as Status;
  const timeout = goTimeout(spec.timeout ?? spec.interval);
  if (mark.step) {
    const message = `${VERB[mark.step]} for revision ${mark.revision} with a timeout of ${timeout}`;
    setCondition(status, "Ready", "Unknown", "Progressing", "Reconciliation in progress", mark.startedAt, generation);
    setCondition(status, "Reconciling", "True", "Progressing", message, mark.startedAt, generation);
    if (mark.step === "health") setCondition(status, "Healthy", "Unknown", "Progressing", message, mark.stepAt, generation);
    if (mark.step !== "fetching") status.lastAttemptedRevision = mark.revision;
    return status;
  }
  if (mark.finishedAt === null) return status;
  const took = mark.finishedAt - mark.startedAt;
  if (mark.failed) return endRetry(status, object, mark, mark.failed, took, timeout);
  // Ready was Unknown during the pass: it flipped back at its end.
  setCondition(status, "Ready", "True", "ReconciliationSucceeded", `Applied revision: ${mark.revision}`, mark.finishedAt, generation, true);
  deleteCondition(status, "Reconciling");
  if (find(status, "Healthy")) {
    const message = `Health check passed in ${goDuration(took - HEALTH_STEP_AT)}`;
    setCondition(status, "Healthy", "True", "Succeeded", message, mark.finishedAt, generation, true);
  }
  status.lastAttemptedRevision = mark.revision;
  status.lastAppliedRevision = mark.revision;
  if (generation !== undefined) status.observedGeneration = generation;
  status.history = historyMoved(status, mark, took, "ReconciliationSucceeded");
  return status;
}

/** The end of a failed retry: the same failure again, as kustomize-controller's finalizeStatus leaves it. */
function endRetry(
  status: Status,
  object: KubeObject,
  mark: RoutineMark,
  failed: { reason: string; message: string },
  took: number,
  timeout: string,
): Status {
  const generation = object.metadata.generation;
  setCondition(status, "Ready", "False", failed.reason, failed.message, mark.finishedAt!, generation, true);
  // Reconciling keeps the last step's message, its reason rewritten.
  const lastStep = find(status, "Healthy") ? VERB.health : VERB.drift;
  const message = `${lastStep} for revision ${mark.revision} with a timeout of ${timeout}`;
  setCondition(status, "Reconciling", "True", "ProgressingWithRetry", message, mark.startedAt, generation);
  if (find(status, "Healthy") && failed.reason === "HealthCheckFailed") {
    setCondition(status, "Healthy", "False", failed.reason, failed.message, mark.finishedAt!, generation, true);
  }
  status.history = historyMoved(status, mark, took, null);
  return status;
}

/** status.history with its first entry (the pass's revision) moved on by the passes made. */
function historyMoved(status: Status, mark: RoutineMark, took: number, result: string | null): unknown {
  const history = Array.isArray(status.history) ? (status.history as Status[]) : [];
  if (!history.length) return status.history;
  const [first, ...rest] = history;
  return [
    {
      ...first,
      lastReconciled: iso(mark.finishedAt!),
      lastReconciledDuration: goDuration(took),
      ...(result && { lastReconciledStatus: result }),
      totalReconciliations: Number(first.totalReconciliations ?? 1) + mark.passes,
    },
    ...rest,
  ];
}

const FAILED_RESULTS = new Set(["ReconciliationFailed", "HealthCheckFailed", "PruneFailed"]);

/** Whether an object as served now can start a pass, and what of (null: not now). */
export function routinePass(object: KubeObject): RoutinePass | null {
  const spec = (object.spec ?? {}) as Status;
  const status = (object.status ?? {}) as Status;
  const ready = find(status, "Ready");
  if (spec.suspend === true) return null;
  if (object.kind === "HelmRelease")
    return ready?.status === "True" ? { revision: String(status.lastAttemptedRevision ?? ""), failed: null } : null;
  const first = (Array.isArray(status.history) ? (status.history as Status[]) : [])[0];
  const firstRevision = (first?.metadata as Status | undefined)?.revision;
  if (ready?.status === "False") {
    // A retry: history[0] must record the failure of the revision last attempted.
    const attempted = status.lastAttemptedRevision;
    if (typeof attempted !== "string" || firstRevision !== attempted || !FAILED_RESULTS.has(String(first?.lastReconciledStatus)))
      return null;
    return { revision: attempted, failed: { reason: String(ready.reason ?? ""), message: String(ready.message ?? "") } };
  }
  if (ready?.status !== "True") return null;
  const applied = status.lastAppliedRevision;
  if (typeof applied !== "string" || applied === "" || status.lastAttemptedRevision !== applied) return null;
  // The pass updates history[0]: it must be the applied revision's entry.
  if (first && firstRevision !== applied) return null;
  return { revision: applied, failed: null };
}

/** The steps of one pass and when each begins (simulated ms after the start), then when it ends. */
export function routineSteps(object: KubeObject): { steps: (readonly [RoutineStep, number])[]; doneAt: number } {
  if (object.kind === "HelmRelease") return { steps: [["prerequisites", 0]], doneAt: HELMRELEASE_DONE_AT };
  const withHealth = find((object.status ?? {}) as Status, "Healthy") !== undefined;
  return withHealth
    ? { steps: [...KUSTOMIZATION_STEPS, ["health", HEALTH_STEP_AT]], doneAt: KUSTOMIZATION_WITH_HEALTH_DONE_AT }
    : { steps: [...KUSTOMIZATION_STEPS], doneAt: KUSTOMIZATION_DONE_AT };
}
