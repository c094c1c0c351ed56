// Routine reconciles: a real fleet is never quiet. Every Kustomization and HelmRelease of the reachable
// clusters is reconciled again every spec.interval (a failing Kustomization retried every retryInterval),
// its status written step by step as fleet/reconcile-pass.ts describes, each write one MODIFIED event for
// every watcher. Every object runs at a seed-fixed offset within its interval, on the simulated clock (on the
// real one while the simulated clock is frozen: the model's scenarios stop, its controllers do not). A churn
// change drops an object's mark.
import { hash32 } from "../fleet/random";
import { durationSeconds, routinePass, routineSteps } from "../fleet/reconcile-pass";
import type { KubeObject } from "../contract";
import type { ChurnCluster } from "./churn";
import type { ResourceType } from "./registry";
import { DueQueue } from "./due-queue";

type Status = Record<string, unknown>;
const DEFAULT_INTERVAL_MS = 10 * 60_000;
const readyStatus = (object: KubeObject) =>
  ((((object.status ?? {}) as Status).conditions as Status[] | undefined) ?? []).find((c) => c.type === "Ready")?.status;

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

/** spec.interval, or for a failing object spec.retryInterval when it has one. */
function intervalMsOf(object: KubeObject): number {
  const spec = (object.spec ?? {}) as Status;
  const text = readyStatus(object) === "False" && spec.retryInterval ? spec.retryInterval : spec.interval;
  const seconds = durationSeconds(text);
  return seconds ? seconds * 1000 : DEFAULT_INTERVAL_MS;
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
  private readonly queue = new DueQueue<Due>();
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
   * or stops (passes in progress end at once, as they would have: none is left half-way).
   */
  setEnabled(on: boolean, firstPassWithinMs?: number): void {
    if (on === this.enabled) return;
    this.enabled = on;
    const now = this.simNow();
    for (const due of this.queue.drain()) if (due.step >= 0 && due.cluster.reachable() && this.endPass(due, now)) this.writes++;
    if (!on) return;
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
    this.endPass(due, due.at);
    nextPass(mark.startedAt);
    return true;
  }

  /** Ends an object's pass in progress at `at`; false when a churn change ended it already, or it is gone. */
  private endPass(due: Due, at: number): boolean {
    const { cluster, type, namespace, name } = due;
    const mark = cluster.store.find(type, namespace, name) && cluster.store.routineMark(type, namespace, name);
    if (!mark || mark.step === null) return false;
    this.finished++;
    cluster.store.routine(type, namespace, name, () => ({ ...mark, step: null, passes: mark.passes + 1, finishedAt: at }));
    return true;
  }
}
