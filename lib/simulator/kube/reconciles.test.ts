// Routine reconciles: the status writes of kustomize-controller's and helm-controller's every-interval
// reconcile, step by step, as watchers see them, and what the collector's status rule makes of each.
import { describe, expect, it } from "vitest";
import { toFluxObject } from "../../kube/flux";
import type { FluxKind } from "../../kube/types";
import type { KubeObject } from "../contract";
import type { ChurnCluster } from "./churn";
import { FleetChurn } from "./churn";
import { routinePass } from "../fleet/reconcile-pass";
import { FleetReconciles } from "./reconciles";
import { ClusterStore, type StoreEvent } from "./store";
import { APPLIED_REVISION, healthyHelmRelease, healthyKustomization } from "./test-objects";

const NOW = Date.parse("2026-11-23T12:00:00Z");
const REV = APPLIED_REVISION;

type Status = Record<string, unknown>;
type Condition = { type: string; status: string; reason: string; message: string; lastTransitionTime: string };

const kustomization = (name: string, opts: { healthChecks?: boolean; suspend?: boolean } = {}) =>
  healthyKustomization(name, { ...opts, history: true });
const helmRelease = healthyHelmRelease;

const FAILED_REVISION = "main@sha1:2222222222222222222222222222222222222222";
const FAILURE = `health check failed after 5m0.04s: timeout waiting for: [Deployment/apps/podinfo status: 'InProgress']`;

/** Applied REV, then failed the health checks of FAILED_REVISION (three times); retried every 2 minutes. */
function failingKustomization(name: string): KubeObject {
  const object = kustomization(name, { healthChecks: true });
  (object.spec as Status).retryInterval = "2m0s";
  const status = object.status as Status & { conditions: Condition[]; history: Status[] };
  status.lastAttemptedRevision = FAILED_REVISION;
  const failed = { status: "False", reason: "HealthCheckFailed", message: FAILURE, lastTransitionTime: "2026-11-23T11:50:00Z" };
  status.conditions = [
    { type: "Ready", ...failed },
    { type: "Healthy", ...failed },
    {
      type: "Reconciling",
      status: "True",
      reason: "ProgressingWithRetry",
      message: `Running health checks for revision ${FAILED_REVISION} with a timeout of 10m0s`,
      lastTransitionTime: "2026-11-23T11:45:00Z",
    },
  ];
  status.history = [
    {
      digest: "sha256:bbbb",
      lastReconciled: "2026-11-23T11:58:00Z",
      lastReconciledStatus: "HealthCheckFailed",
      metadata: { revision: FAILED_REVISION },
      totalReconciliations: 3,
    },
    ...status.history,
  ];
  return object;
}

function fleet(objects: KubeObject[]) {
  let sim = NOW;
  const store = new ClusterStore("a", undefined, 100);
  store.sync(objects, NOW);
  const cluster: ChurnCluster = { name: "a", store, reachable: () => true, load: () => undefined };
  const reconciles = new FleetReconciles([cluster], 7, () => sim);
  const events: StoreEvent[] = [];
  store.subscribe((event) => events.push(event));
  return {
    store,
    cluster,
    reconciles,
    events,
    /** Moves the simulated clock in small steps, making what is due at each. */
    run(ms: number, stepMs = 100) {
      for (let t = 0; t < ms; t += stepMs) {
        sim += stepMs;
        reconciles.step();
      }
    },
    now: () => sim,
  };
}

const statusOf = (event: StoreEvent) => event.version.object.status as Status;
const conditionsOf = (event: StoreEvent) => statusOf(event).conditions as Condition[];
const condition = (event: StoreEvent, type: string) => conditionsOf(event).find((c) => c.type === type);
const verdict = (event: StoreEvent) => {
  const record = toFluxObject(event.version.object.kind as FluxKind, event.version.object);
  return { health: record.health, detail: record.healthDetail };
};

describe("routine reconciles", () => {
  it("write a Kustomization's status as kustomize-controller does, every interval, and the collector's rule keeps it ready", () => {
    const f = fleet([kustomization("apps", { healthChecks: true })]);
    f.reconciles.setEnabled(true);
    f.run(10 * 60_000 + 5_000);
    const steps = f.events.filter((e) => e.version.name === "apps");
    // One pass in the first interval: fetching, building, drift, health checks, done.
    expect(steps.map((e) => condition(e, "Reconciling")?.message ?? null)).toEqual([
      `Fetching manifests for revision ${REV} with a timeout of 10m0s`,
      `Building manifests for revision ${REV} with a timeout of 10m0s`,
      `Detecting drift for revision ${REV} with a timeout of 10m0s`,
      `Running health checks for revision ${REV} with a timeout of 10m0s`,
      null,
    ]);
    const [fetching, building, , health, done] = steps;
    expect(condition(fetching, "Ready")).toMatchObject({ status: "Unknown", reason: "Progressing", message: "Reconciliation in progress" });
    // Ready moved to Unknown when the pass began and stays there, with the same transition time.
    expect(condition(health, "Ready")!.lastTransitionTime).toBe(condition(fetching, "Ready")!.lastTransitionTime);
    expect(condition(health, "Healthy")).toMatchObject({ status: "Unknown", reason: "Progressing" });
    expect(statusOf(building).lastAttemptedRevision).toBe(REV);
    // The end: Ready True again with a new transition time, Reconciling gone, history[0] moved on.
    const ready = condition(done, "Ready")!;
    expect(ready).toMatchObject({ status: "True", reason: "ReconciliationSucceeded", message: `Applied revision: ${REV}` });
    expect(Date.parse(ready.lastTransitionTime)).toBeGreaterThan(Date.parse(condition(fetching, "Ready")!.lastTransitionTime));
    expect(condition(done, "Healthy")).toMatchObject({ status: "True", reason: "Succeeded" });
    const history = (statusOf(done).history as Status[])[0];
    expect(history).toMatchObject({
      lastReconciledStatus: "ReconciliationSucceeded",
      totalReconciliations: 41,
      metadata: { revision: REV },
    });
    expect(Date.parse(history.lastReconciled as string)).toBe(Date.parse(ready.lastTransitionTime));
    // What the collector makes of each step: ready throughout, "reconciling" while the pass runs.
    expect(steps.map(verdict)).toEqual([
      ...Array.from({ length: 4 }, () => ({ health: "ready", detail: "reconciling" })),
      { health: "ready", detail: null },
    ]);
    // The next interval: another pass, counted on.
    f.run(10 * 60_000);
    const later = f.events.filter((e) => e.version.name === "apps");
    expect(later).toHaveLength(10);
    expect((statusOf(later[9]).history as Status[])[0].totalReconciliations).toBe(42);
    expect(f.reconciles.state()).toMatchObject({ enabled: true, started: 2, finished: 2, writes: 10 });
  });

  it("add and remove a HelmRelease's Reconciling condition, Ready untouched", () => {
    const f = fleet([helmRelease("podinfo")]);
    f.reconciles.setEnabled(true);
    f.run(10 * 60_000 + 2_000);
    const [start, end] = f.events;
    expect(f.events).toHaveLength(2);
    expect(condition(start, "Reconciling")).toMatchObject({ status: "True", reason: "Progressing", message: "Fulfilling prerequisites" });
    expect(condition(start, "Ready")).toEqual(condition(end, "Ready"));
    expect(condition(end, "Reconciling")).toBeUndefined();
    expect([verdict(start), verdict(end)]).toEqual([
      { health: "ready", detail: null },
      { health: "ready", detail: null },
    ]);
  });

  it("leave suspended, unrecorded failures and just-changed objects alone, and stop a pass that a churn change ends", () => {
    // Failing, but history[0] is the last success: the failure came before a checksum (a build error).
    const buildFailed = kustomization("broken");
    (buildFailed.status as { conditions: Condition[] }).conditions[0] = {
      type: "Ready",
      status: "False",
      reason: "BuildFailed",
      message: "kustomize build failed",
      lastTransitionTime: "2026-11-20T10:00:00Z",
    };
    expect(routinePass(buildFailed)).toBeNull();
    expect(routinePass(kustomization("paused", { suspend: true }))).toBeNull();
    const newRevision = kustomization("moving");
    (newRevision.status as Status).lastAttemptedRevision = "main@sha1:2222222222222222222222222222222222222222";
    expect(routinePass(newRevision)).toBeNull();
    expect(routinePass(kustomization("apps"))).toEqual({ revision: REV, failed: null });

    const f = fleet([kustomization("apps")]);
    f.reconciles.setEnabled(true);
    // Run until the pass has begun, then change the object through the churn knob.
    while (!f.events.length) f.run(100);
    const churn = new FleetChurn([f.cluster], 7, f.now);
    churn.changeObject("a", "Kustomization", "flux-system", "apps");
    const afterChurn = f.events.length;
    f.run(5_000);
    // The pass is over: no more steps of it were written over the churn's result.
    expect(f.events.length).toBe(afterChurn);
    expect(verdict(f.events[f.events.length - 1]).health).toBe("failing");
    expect(f.reconciles.state()).toMatchObject({ started: 1, finished: 0 });
  });

  it("are off until enabled, and turning them off ends the passes in progress and stops them", () => {
    const f = fleet([kustomization("apps"), helmRelease("podinfo")]);
    f.run(20 * 60_000, 1_000);
    expect(f.events).toHaveLength(0);
    f.reconciles.setEnabled(true);
    const last = () => f.events.filter((e) => e.version.name === "apps").at(-1);
    // Until the Kustomization is in the middle of a pass, then off: the pass ends at once, not half-way.
    while (!last() || condition(last()!, "Ready")!.status !== "Unknown") f.run(100);
    f.reconciles.setEnabled(false);
    expect(condition(last()!, "Ready")).toMatchObject({ status: "True", reason: "ReconciliationSucceeded" });
    expect(condition(last()!, "Reconciling")).toBeUndefined();
    const before = f.events.length;
    f.run(20 * 60_000, 1_000);
    expect(f.events.length).toBe(before);
  });

  it("retry a failing Kustomization's revision every retryInterval and fail the same way again; the collector keeps it failing", () => {
    const failing = failingKustomization("apps");
    expect(routinePass(failing)).toEqual({ revision: FAILED_REVISION, failed: { reason: "HealthCheckFailed", message: FAILURE } });
    const f = fleet([failing]);
    f.reconciles.setEnabled(true);
    f.run(2 * 60_000 + 5_000);
    const steps = f.events.filter((e) => e.version.name === "apps");
    expect(steps).toHaveLength(5);
    const [fetching, , , , done] = steps;
    expect(condition(fetching, "Ready")).toMatchObject({ status: "Unknown", reason: "Progressing", message: "Reconciliation in progress" });
    expect(condition(fetching, "Reconciling")!.message).toBe(`Fetching manifests for revision ${FAILED_REVISION} with a timeout of 10m0s`);
    const ready = condition(done, "Ready")!;
    expect(ready).toMatchObject({ status: "False", reason: "HealthCheckFailed", message: FAILURE });
    expect(Date.parse(ready.lastTransitionTime)).toBeGreaterThan(Date.parse(condition(fetching, "Ready")!.lastTransitionTime));
    expect(condition(done, "Reconciling")).toMatchObject({
      status: "True",
      reason: "ProgressingWithRetry",
      message: `Running health checks for revision ${FAILED_REVISION} with a timeout of 10m0s`,
    });
    expect(condition(done, "Healthy")).toMatchObject({ status: "False", reason: "HealthCheckFailed" });
    expect(statusOf(done)).toMatchObject({ lastAppliedRevision: REV, lastAttemptedRevision: FAILED_REVISION });
    expect((statusOf(done).history as Status[])[0]).toMatchObject({ lastReconciledStatus: "HealthCheckFailed", totalReconciliations: 4 });
    // What the collector makes of it: failing throughout, "retrying" while the retry runs.
    expect(steps.map(verdict)).toEqual([
      ...Array.from({ length: 4 }, () => ({ health: "failing", detail: "retrying" })),
      { health: "failing", detail: null },
    ]);
  });
});
