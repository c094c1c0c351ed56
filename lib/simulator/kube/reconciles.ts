// Routine reconciles: a real fleet is never quiet. Every Kustomization and HelmRelease is reconciled again
// every spec.interval, and its controller writes its status as it goes whether anything changed or not
// (kustomize-controller v1.9 `reconcile`, helm-controller v1.6 `reconcileRelease`), each write one MODIFIED
// event for every watcher:
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
// Every object runs at a seed-fixed offset within its interval, on the simulated clock (on the real one while
// the simulated clock is frozen: the model's scenarios stop, its controllers do not). A mark per object (absolute fields, like churn marks) is
// applied over whatever the model says, so re-renders keep it; a churn change drops it.
import { goDuration, hash32 } from "../fleet/random";
import type { KubeObject } from "../contract";
import type { ChurnCluster } from "./churn";
import type { ResourceType } from "./registry";

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
const DEFAULT_INTERVAL_MS = 10 * 60_000;

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

/** Go's Duration.String() for whole seconds: "10m0s", "1h0m0s", "45s". */
function goTimeout(text: unknown): string {
  const m = typeof text === "string" ? /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text) : null;
  const seconds = m && m[0] ? Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0) : 600;
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

const ROUTINE_KINDS = new Set(["Kustomization", "HelmRelease"]);

interface Due {
  at: number;
  cluster: ChurnCluster;
  type: ResourceType;
  namespace: string | undefined;
  name: string;
  intervalMs: number;
  /** Index into the pass's steps; steps.length means "end the pass"; -1 means "start a pass". */
  step: number;
}

/** A binary min-heap on `at`. */
class DueQueue {
  private items: Due[] = [];
  get size() {
    return this.items.length;
  }
  peek(): Due | undefined {
    return this.items[0];
  }
  push(item: Due) {
    const a = this.items;
    a.push(item);
    for (let i = a.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (a[parent].at <= a[i].at) break;
      [a[parent], a[i]] = [a[i], a[parent]];
      i = parent;
    }
  }
  pop(): Due | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length && last) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l].at < a[m].at) m = l;
        if (r < a.length && a[r].at < a[m].at) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
  clear() {
    this.items = [];
  }
}

/** spec.interval, or for a failing object spec.retryInterval when it has one. */
function intervalMsOf(object: KubeObject): number {
  const spec = (object.spec ?? {}) as Status;
  const failing = find((object.status ?? {}) as Status, "Ready")?.status === "False";
  const text = failing && spec.retryInterval ? spec.retryInterval : spec.interval;
  const m = typeof text === "string" ? /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text) : null;
  const ms = m && m[0] ? (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000 : 0;
  return ms > 0 ? ms : DEFAULT_INTERVAL_MS;
}

export interface ReconcilesState {
  enabled: boolean;
  /** Passes begun and finished, and the status writes (watch events) they made, since the simulator started. */
  started: number;
  finished: number;
  writes: number;
}

/** The fleet's routine reconciles (off until enabled): steps due on the simulated clock, made by step(). */
export class FleetReconciles {
  private readonly queue = new DueQueue();
  private enabled = false;
  private started = 0;
  private finished = 0;
  private writes = 0;

  constructor(
    private readonly clusters: ChurnCluster[],
    private readonly seed: number,
    private readonly simNow: () => number,
  ) {}

  /**
   * Starts (every Kustomization and HelmRelease of the reachable clusters, each at its offset within its
   * interval, or within `firstPassWithinMs` for the first pass: a test that wants every object's pass now)
   * or stops (a pass in progress stays where it was).
   */
  setEnabled(on: boolean, firstPassWithinMs?: number): void {
    if (on === this.enabled) return;
    this.enabled = on;
    this.queue.clear();
    if (!on) return;
    const now = this.simNow();
    for (const cluster of this.clusters) {
      if (!cluster.reachable()) continue;
      cluster.load();
      for (const { type, version } of cluster.store.versionsOfKinds(ROUTINE_KINDS)) {
        const intervalMs = intervalMsOf(version.object);
        const offset = hash32(`${this.seed}:routine:${cluster.name}:${type.kind}:${version.key}`) % (firstPassWithinMs || intervalMs);
        this.queue.push({ at: now + offset, cluster, type, namespace: version.namespace, name: version.name, intervalMs, step: -1 });
      }
    }
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** Makes the steps due by now (at most `limit`); returns how many status writes it made. */
  step(limit = 20_000): number {
    if (!this.enabled) return 0;
    const now = this.simNow();
    let made = 0;
    for (let n = 0; n < limit; n++) {
      const due = this.queue.peek();
      if (!due || due.at > now) break;
      this.queue.pop();
      if (this.advance(due)) made++;
    }
    this.writes += made;
    return made;
  }

  state(): ReconcilesState {
    return { enabled: this.enabled, started: this.started, finished: this.finished, writes: this.writes };
  }

  /** One step of one object's pass; false when nothing was written (unreachable, gone, not healthy, interrupted). */
  private advance(due: Due): boolean {
    const { cluster, type, namespace, name } = due;
    const nextPass = (from: number) => this.queue.push({ ...due, at: from + due.intervalMs, step: -1 });
    if (!cluster.reachable()) {
      nextPass(due.at);
      return false;
    }
    const served = cluster.store.find(type, namespace, name);
    if (!served) return false; // deleted: no more passes
    const object = served.object;
    const { steps, doneAt } = routineSteps(object);
    if (due.step === -1) {
      const pass = routinePass(object);
      if (pass === null) {
        nextPass(due.at);
        return false;
      }
      this.started++;
      cluster.store.routine(type, namespace, name, (previous) => ({
        step: steps[0][0],
        revision: pass.revision,
        failed: pass.failed,
        startedAt: due.at,
        stepAt: due.at,
        passes: previous?.passes ?? 0,
        finishedAt: previous?.finishedAt ?? null,
      }));
      this.queue.push({ ...due, at: due.at + (steps[1]?.[1] ?? doneAt), step: steps.length > 1 ? 1 : steps.length });
      return true;
    }
    const mark = cluster.store.routineMark(type, namespace, name);
    // A churn change in between dropped the mark: that pass is over.
    if (!mark || mark.step === null) {
      nextPass(due.at);
      return false;
    }
    if (due.step < steps.length) {
      const [step] = steps[due.step];
      cluster.store.routine(type, namespace, name, () => ({ ...mark, step, stepAt: due.at }));
      const next = due.step + 1;
      this.queue.push({ ...due, at: mark.startedAt + (steps[next]?.[1] ?? doneAt), step: next });
      return true;
    }
    this.finished++;
    cluster.store.routine(type, namespace, name, () => ({ ...mark, step: null, passes: mark.passes + 1, finishedAt: due.at }));
    nextPass(mark.startedAt);
    return true;
  }
}
