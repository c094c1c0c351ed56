import { describe, expect, it } from "vitest";
import { objectKey, toFluxObject } from "../kube/flux";
import { createFleetModel } from "../simulator/fleet/index";
import type { FluxObjectRecord } from "../kube/types";
import type { KnownObject } from "../db/types";
import { applyRoutineMark, type RoutineMark } from "../simulator/fleet/reconcile-pass";
import { APPLIED_REVISION, healthyKustomization } from "../simulator/kube/test-objects";
import {
  applyPlan,
  changedFields,
  changesWhatPagesShow,
  healthCounts,
  planObjectWrites,
  planWatchedChanges,
  showsOnPages,
} from "./changes";

function makeKustomization(
  opts: {
    name?: string;
    ready?: "True" | "False" | "Unknown";
    reason?: string;
    message?: string;
    ltt?: string;
    revision?: string;
    suspend?: boolean;
    lastReconciled?: string;
    created?: string;
  } = {},
): FluxObjectRecord {
  const revision = opts.revision ?? "main@sha1:aaaa";
  return toFluxObject("Kustomization", {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name: opts.name ?? "apps", namespace: "flux-system", generation: 1, uid: "u-1", creationTimestamp: opts.created },
    spec: { interval: "10m", sourceRef: { kind: "GitRepository", name: "flux-system" }, suspend: opts.suspend },
    status: {
      observedGeneration: 1,
      lastAppliedRevision: revision,
      lastAttemptedRevision: revision,
      conditions: [
        {
          type: "Ready",
          status: opts.ready ?? "True",
          reason: opts.reason ?? "ReconciliationSucceeded",
          message: opts.message ?? `Applied revision: ${revision}`,
          lastTransitionTime: opts.ltt ?? "2026-11-21T10:00:00Z",
        },
      ],
      history: opts.lastReconciled
        ? [{ digest: "sha256:1", lastReconciled: opts.lastReconciled, firstReconciled: opts.lastReconciled }]
        : undefined,
    },
  });
}

const ALL = new Set(["Kustomization", "HelmRelease", "GitRepository", "OCIRepository", "HelmRepository", "HelmChart"] as const);
const T0 = "2026-11-21T12:00:00.000Z";
const T1 = "2026-11-21T12:01:00.000Z";

function remember(records: FluxObjectRecord[], at = T0): Map<string, KnownObject> {
  const known = new Map<string, KnownObject>();
  const plan = planObjectWrites(known, records, ALL, at);
  applyPlan(known, plan, new Map(plan.upserts.map((u, i) => [u.key, String(i + 1)])));
  return known;
}

describe("planObjectWrites", () => {
  it("records what the first poll of a cluster finds as first seen, once, not as created or as transitions", () => {
    const objects = [makeKustomization({ name: "a", created: "2025-01-01T00:00:00Z" }), makeKustomization({ name: "b" })];
    const plan = planObjectWrites(new Map(), objects, ALL, T0);
    expect(plan.upserts).toHaveLength(2);
    expect(plan.transitions).toMatchObject([
      { change: "first-seen", fields: ["first-seen"], at: T0, previousHealth: null },
      { change: "first-seen", fields: ["first-seen"], at: T0, previousHealth: null },
    ]);
    expect(plan.upserts[0]).toMatchObject({ lastReadyAt: T0, lastGoodRevision: "main@sha1:aaaa", firstFailedAt: null });
    // The next poll finds the same objects: nothing at all to write.
    const known = remember(objects);
    expect(planObjectWrites(known, objects, ALL, T1)).toEqual({ upserts: [], transitions: [], deletions: [] });
  });

  it("records an object that appears after the first poll as created, at its creation time", () => {
    const known = remember([makeKustomization({ name: "a" })]);
    const plan = planObjectWrites(
      known,
      [makeKustomization({ name: "a" }), makeKustomization({ name: "b", created: "2026-11-21T12:00:30Z" })],
      ALL,
      T1,
    );
    expect(plan.transitions).toMatchObject([{ change: "created", at: "2026-11-21T12:00:30.000Z" }]);
    // A creation time after the poll (clock skew) is not believed.
    const skewed = planObjectWrites(known, [makeKustomization({ name: "c", created: "2026-11-22T00:00:00Z" })], ALL, T1);
    expect(skewed.transitions.find((t) => t.change === "created")).toMatchObject({ at: T1 });
    // An empty cluster that was polled before is not a first poll either.
    expect(planObjectWrites(new Map(), [makeKustomization()], ALL, T1, false).transitions).toMatchObject([{ change: "created" }]);
  });

  it("writes no history for a retry whose message differs only in a temporary directory or a duration", () => {
    const failing = (tmp: number, took: string) =>
      makeKustomization({
        ready: "False",
        reason: "BuildFailed",
        message: `kustomize build failed: accumulating resources from './cert-manager': open /tmp/kustomization-${tmp}/infra: no such file or directory (after ${took})`,
        ltt: "2026-11-21T11:30:00Z",
      });
    const known = remember([failing(1464362706, "310ms")]);
    const plan = planObjectWrites(known, [failing(3904117730, "402ms")], ALL, T1);
    expect(plan.upserts).toHaveLength(1); // the current message is kept as the cluster says it
    expect(plan.upserts[0].record.readyMessage).toContain("3904117730");
    expect(plan.transitions).toEqual([]);
  });

  it("writes no history for a retry of the tenants health check: its 32 KiB resource list in another order, trimmed", () => {
    const model = createFleetModel({ clusters: 12, objects: 30, seed: 7, epoch: Date.UTC(2026, 10, 21, 20, 0, 0) });
    const { cluster, namespace, name } = model.facts.hugeMessage!;
    const runtime = { endpointOf: () => "https://127.0.0.1:1", caDataOf: () => "", stsEndpoint: "https://127.0.0.1:2" };
    const tenantsAt = (t: number) => {
      const served = model.objectsAt(cluster, model.epoch + t, runtime).find((o) => o.kind === "Kustomization" && o.metadata.name === name);
      expect(served?.metadata.namespace).toBe(namespace);
      return toFluxObject("Kustomization", served!);
    };
    // Attempts fail every 15 minutes: the next one lists the same Deployments in another order.
    const before = tenantsAt(0);
    const after = tenantsAt(15 * 60_000);
    expect(after.readyMessage).not.toBe(before.readyMessage);
    const plan = planObjectWrites(remember([before]), [after], ALL, T1);
    expect(plan.upserts).toHaveLength(1);
    expect(plan.transitions).toEqual([]);
  });

  it("writes no 'ready → ready' entry when a healthy object only rewords its message", () => {
    const known = remember([makeKustomization({ message: "Applied revision: main@sha1:aaaa" })]);
    const plan = planObjectWrites(
      known,
      [makeKustomization({ message: "Applied revision main@sha1:aaaa (all resources in sync)" })],
      ALL,
      T1,
    );
    expect(plan.upserts).toHaveLength(1);
    expect(plan.transitions).toEqual([]);
  });

  it("records drift found and gone on a ready HelmRelease without a health change", () => {
    const hr = (drifted: "True" | "False") =>
      toFluxObject("HelmRelease", {
        apiVersion: "helm.toolkit.fluxcd.io/v2",
        kind: "HelmRelease",
        metadata: { name: "ingress-nginx", namespace: "ingress-nginx", generation: 2 },
        spec: { interval: "30m", driftDetection: { mode: "warn" } },
        status: {
          observedGeneration: 2,
          conditions: [
            {
              type: "Ready",
              status: "True",
              reason: "UpgradeSucceeded",
              message: "Helm upgrade succeeded",
              lastTransitionTime: "2026-11-20T10:00:00Z",
            },
            { type: "Drifted", status: drifted, reason: drifted === "True" ? "DriftDetected" : "NoDriftDetected", message: "m" },
          ],
        },
      });
    const known = remember([hr("False")]);
    const plan = planObjectWrites(known, [hr("True")], ALL, T1);
    expect(plan.transitions).toMatchObject([
      { change: "changed", fields: ["drift"], previousHealth: "ready", cared: { health: "ready", healthDetail: "drifted" } },
    ]);
  });

  it("writes nothing when nothing changed", () => {
    const known = remember([makeKustomization()]);
    const plan = planObjectWrites(known, [makeKustomization()], ALL, T1);
    expect(plan).toEqual({ upserts: [], transitions: [], deletions: [] });
  });

  it("updates current state but writes no history when only the reconcile time moved", () => {
    const known = remember([makeKustomization({ lastReconciled: "2026-11-21T11:00:00Z" })]);
    const plan = planObjectWrites(known, [makeKustomization({ lastReconciled: "2026-11-21T11:10:00Z" })], ALL, T1);
    expect(plan.upserts).toHaveLength(1);
    expect(plan.transitions).toHaveLength(0);
  });

  it("records a failure at the Ready condition's transition time and keeps first-failed-at", () => {
    const known = remember([makeKustomization()]);
    const failing = makeKustomization({
      ready: "False",
      reason: "BuildFailed",
      message: "kustomize build failed: x",
      ltt: "2026-11-21T11:30:00Z",
    });
    const plan = planObjectWrites(known, [failing], ALL, T1);
    expect(plan.transitions).toEqual([
      expect.objectContaining({
        change: "changed",
        at: "2026-11-21T11:30:00.000Z",
        previousHealth: "ready",
        fields: ["health", "status", "reason", "message"],
      }),
    ]);
    expect(plan.upserts[0]).toMatchObject({
      firstFailedAt: "2026-11-21T11:30:00.000Z",
      lastReadyAt: "2026-11-21T11:30:00.000Z",
      lastGoodRevision: "main@sha1:aaaa",
    });
    applyPlan(known, plan, new Map());
    const again = makeKustomization({
      ready: "False",
      reason: "BuildFailed",
      message: "kustomize build failed: y",
      ltt: "2026-11-21T11:30:00Z",
    });
    const plan2 = planObjectWrites(known, [again], ALL, "2026-11-21T12:05:00.000Z");
    expect(plan2.transitions[0]).toMatchObject({ fields: ["message"], at: "2026-11-21T12:05:00.000Z" });
    expect(plan2.upserts[0].firstFailedAt).toBe("2026-11-21T11:30:00.000Z");
  });

  it("marks vanished objects deleted only for kinds that were listed", () => {
    const known = remember([makeKustomization({ name: "a" }), makeKustomization({ name: "b" })]);
    expect(planObjectWrites(known, [makeKustomization({ name: "a" })], new Set(), T1).deletions).toEqual([]);
    const plan = planObjectWrites(known, [makeKustomization({ name: "a" })], ALL, T1);
    expect(plan.deletions).toEqual([objectKey({ kind: "Kustomization", namespace: "flux-system", name: "b" })]);
    expect(plan.transitions).toMatchObject([{ change: "deleted", at: T1 }]);
    applyPlan(known, plan, new Map());
    expect(planObjectWrites(known, [makeKustomization({ name: "a" })], ALL, T1).deletions).toEqual([]);
    const back = planObjectWrites(known, [makeKustomization({ name: "a" }), makeKustomization({ name: "b" })], ALL, T1);
    expect(back.transitions).toMatchObject([{ change: "created", previousHealth: "ready" }]);
  });

  it("records suspend and revision changes", () => {
    const known = remember([makeKustomization()]);
    expect(planObjectWrites(known, [makeKustomization({ suspend: true })], ALL, T1).transitions[0].fields).toEqual(["health", "suspend"]);
    // "Applied revision: <new>" is the same message once revisions are normalised: the revision is the change.
    expect(planObjectWrites(known, [makeKustomization({ revision: "main@sha1:bbbb" })], ALL, T1).transitions[0].fields).toEqual([
      "revision",
    ]);
  });
});

describe("changedFields", () => {
  it("is empty for equal fields", () => {
    const r = makeKustomization();
    expect(changedFields(r, { ...r })).toEqual([]);
  });
});

describe("healthCounts", () => {
  const known = (kind: string, health: string, deleted = false): KnownObject => ({
    id: "1",
    kind,
    hash: "h",
    cared: {
      health,
      healthDetail: null,
      readyStatus: null,
      readyReason: null,
      readyMessage: null,
      attemptedRevision: null,
      appliedRevision: null,
      chartVersion: null,
      appVersion: null,
      suspended: false,
    },
    firstFailedAt: null,
    lastReadyAt: null,
    lastGoodRevision: null,
    lastReconcileAt: null,
    deleted,
  });

  it("counts live objects per kind and stored health, leaving deleted ones out", () => {
    const map = new Map<string, KnownObject>([
      ["a", known("Kustomization", "ready")],
      ["b", known("Kustomization", "ready")],
      ["c", known("Kustomization", "failing")],
      ["d", known("HelmRelease", "stalled")],
      ["e", known("HelmRelease", "ready", true)],
    ]);
    expect(healthCounts(map)).toEqual({ Kustomization: { ready: 2, failing: 1 }, HelmRelease: { stalled: 1 } });
    expect(healthCounts(new Map())).toEqual({});
  });
});

describe("planWatchedChanges (what a watch delivered since the last flush)", () => {
  const stored = () => {
    const known = new Map<string, KnownObject>();
    const first = planObjectWrites(
      known,
      [makeKustomization(), makeKustomization({ name: "infra" })],
      new Set(["Kustomization"]),
      "2026-11-21T10:00:00Z",
    );
    applyPlan(known, first, new Map(first.upserts.map((u, i) => [u.key, String(i + 1)])));
    return known;
  };

  it("writes nothing for a replayed object (a resume or relist hands back what is stored)", () => {
    const plan = planWatchedChanges(stored(), [makeKustomization()], [], "2026-11-21T11:00:00Z");
    expect(plan).toEqual({ upserts: [], transitions: [], deletions: [] });
  });

  it("leaves objects the watch did not mention alone, and records a deletion once", () => {
    const known = stored();
    const failing = makeKustomization({ ready: "False", reason: "HealthCheckFailed", ltt: "2026-11-21T10:30:00Z" });
    const plan = planWatchedChanges(known, [failing], ["Kustomization/flux-system/infra"], "2026-11-21T11:00:00Z");
    expect(plan.upserts.map((u) => u.key)).toEqual(["Kustomization/flux-system/apps"]);
    expect(plan.deletions).toEqual(["Kustomization/flux-system/infra"]);
    expect(plan.transitions.map((t) => [t.key, t.change])).toEqual([
      ["Kustomization/flux-system/apps", "changed"],
      ["Kustomization/flux-system/infra", "deleted"],
    ]);
    applyPlan(known, plan, new Map());
    // The same deletion delivered again (a relist after a 410) is not a second one.
    expect(planWatchedChanges(known, [], ["Kustomization/flux-system/infra"], "2026-11-21T11:01:00Z").transitions).toEqual([]);
  });
});

describe("a routine reconcile (Ready Unknown and back, every interval) writes the object but no history", () => {
  const REV = APPLIED_REVISION;
  const base = healthyKustomization("apps", { history: true });
  const at = (step: RoutineMark["step"], passes: number, startedAt: number, finishedAt: number | null): FluxObjectRecord => {
    const mark: RoutineMark = { step, revision: REV, startedAt, stepAt: startedAt, passes, finishedAt };
    return toFluxObject("Kustomization", { ...base, status: applyRoutineMark(base, mark) });
  };

  it("plans upserts for every step and no transition over two passes, the last reconcile time moving on", () => {
    const known = remember([toFluxObject("Kustomization", base)]);
    const t = Date.parse("2026-11-23T12:00:00Z");
    const passes = [0, 1].flatMap((n) => {
      const start = t + n * 600_000;
      return [
        at("fetching", n, start, n ? start - 597_500 : null),
        at("building", n, start, n ? start - 597_500 : null),
        at("drift", n, start, n ? start - 597_500 : null),
        at(null, n + 1, start, start + 2_500),
      ];
    });
    let transitions = 0;
    let upserts = 0;
    for (const record of passes) {
      const plan = planWatchedChanges(known, [record], [], new Date().toISOString());
      transitions += plan.transitions.length;
      upserts += plan.upserts.length;
      applyPlan(known, plan, new Map());
    }
    expect(transitions).toBe(0);
    expect(upserts).toBe(8);
    const stored = known.get(objectKey(passes[0]))!;
    expect(stored.cared).toMatchObject({ health: "ready", healthDetail: null, readyStatus: "True" });
    expect(stored.lastReconcileAt).toBe("2026-11-23T12:10:02.000Z");
  });

  it("still records a real change: a pass that ends failing, or one of a new revision", () => {
    const known = remember([toFluxObject("Kustomization", base)]);
    const inProgress = at("drift", 0, Date.parse("2026-11-23T12:00:00Z"), null);
    applyPlan(known, planWatchedChanges(known, [inProgress], [], T1), new Map());
    const failed = makeKustomization({
      revision: REV,
      ready: "False",
      reason: "HealthCheckFailed",
      message: "health check failed after 5m0s",
    });
    expect(planWatchedChanges(known, [failed], [], T1).transitions.map((t) => t.cared.health)).toEqual(["failing"]);

    const next = "main@sha1:2222222222222222222222222222222222222222";
    const newRevision = toFluxObject("Kustomization", {
      ...base,
      status: applyRoutineMark(base, { step: "building", revision: next, startedAt: 0, stepAt: 0, passes: 0, finishedAt: null }),
    });
    expect(newRevision.health).toBe("progressing");
    expect(planWatchedChanges(remember([toFluxObject("Kustomization", base)]), [newRevision], [], T1).transitions).toHaveLength(1);
  });
});

describe("a failing Kustomization's retry keeps the failure it retries, and writes history only for a new result", () => {
  const FAILED = "main@sha1:2222222222222222222222222222222222222222";
  const FAILURE = "health check failed after 5m0.04s: timeout waiting for: [Deployment/apps/podinfo status: 'InProgress']";
  const failing = (message = FAILURE): FluxObjectRecord => {
    const object = healthyKustomization("apps", { history: true });
    const status = object.status as Record<string, unknown>;
    status.lastAttemptedRevision = FAILED;
    status.conditions = [
      { type: "Ready", status: "False", reason: "HealthCheckFailed", message, lastTransitionTime: "2026-11-23T11:50:00Z" },
      {
        type: "Reconciling",
        status: "True",
        reason: "ProgressingWithRetry",
        message: `Detecting drift for revision ${FAILED} with a timeout of 10m0s`,
      },
    ];
    status.history = [
      {
        digest: "sha256:2",
        lastReconciled: "2026-11-23T11:50:00Z",
        lastReconciledStatus: "HealthCheckFailed",
        metadata: { revision: FAILED },
      },
    ];
    return toFluxObject("Kustomization", object);
  };
  const retrying = (step: "Fetching manifests" | "Detecting drift"): FluxObjectRecord => {
    const record = failing();
    const conditions = [
      {
        type: "Ready",
        status: "Unknown",
        reason: "Progressing",
        message: "Reconciliation in progress",
        lastTransitionTime: "2026-11-23T12:00:00Z",
      },
      { type: "Reconciling", status: "True", reason: "Progressing", message: `${step} for revision ${FAILED} with a timeout of 10m0s` },
    ];
    const object = healthyKustomization("apps", { history: true });
    Object.assign(object.status as object, {
      lastAttemptedRevision: FAILED,
      conditions,
      history: [{ digest: "sha256:2", lastReconciledStatus: "HealthCheckFailed", metadata: { revision: FAILED } }],
    });
    const retry = toFluxObject("Kustomization", object);
    expect([retry.health, retry.healthDetail, record.health]).toEqual(["failing", "retrying", "failing"]);
    return retry;
  };
  const step = (known: Map<string, KnownObject>, record: FluxObjectRecord) => {
    const plan = planWatchedChanges(known, [record], [], T1);
    applyPlan(known, plan, new Map());
    return plan;
  };

  it("stays failing with the failure's reason and message while it retries, and writes no history when it fails the same way", () => {
    const known = remember([failing()]);
    for (const record of [
      retrying("Fetching manifests"),
      retrying("Detecting drift"),
      failing(),
      retrying("Fetching manifests"),
      failing(),
    ]) {
      const plan = step(known, record);
      expect(plan.transitions).toEqual([]);
      for (const upsert of plan.upserts) {
        expect(upsert.record).toMatchObject({
          health: "failing",
          readyStatus: "False",
          readyReason: "HealthCheckFailed",
          readyMessage: FAILURE,
        });
      }
    }
    expect(known.get("Kustomization/flux-system/apps")!.cared).toMatchObject({
      health: "failing",
      healthDetail: null,
      readyMessage: FAILURE,
    });
  });

  it("records a retry that ends in another failure, or in success", () => {
    const known = remember([failing()]);
    step(known, retrying("Detecting drift"));
    expect(step(known, failing("dependency 'flux-system/infra' is not ready")).transitions.map((t) => t.fields)).toEqual([["message"]]);
    const recovered = remember([failing()]);
    step(recovered, retrying("Detecting drift"));
    const ready = makeKustomization({ revision: FAILED });
    expect(step(recovered, ready).transitions.map((t) => [t.previousHealth, t.cared.health])).toEqual([["failing", "ready"]]);
  });
});

describe("without status.history (kustomize-controller before v1.5), what was stored says how the last reconcile ended", () => {
  const FAILURE = "health check failed after 5m0.04s: timeout waiting for: [Deployment/apps/podinfo status: 'InProgress']";
  const withoutHistory = (ready: Record<string, string>, reconciling?: string): FluxObjectRecord => {
    const object = healthyKustomization("apps");
    const status = object.status as Record<string, unknown>;
    status.conditions = [
      { type: "Ready", lastTransitionTime: "2026-11-23T12:00:00Z", ...ready },
      ...(reconciling ? [{ type: "Reconciling", status: "True", reason: "Progressing", message: reconciling }] : []),
    ];
    return toFluxObject("Kustomization", object);
  };
  const inProgress = withoutHistory(
    { status: "Unknown", reason: "Progressing", message: "Reconciliation in progress" },
    `Detecting drift for revision ${APPLIED_REVISION} with a timeout of 10m0s`,
  );
  const ready = withoutHistory({ status: "True", reason: "ReconciliationSucceeded", message: `Applied revision: ${APPLIED_REVISION}` });
  const failing = withoutHistory({ status: "False", reason: "HealthCheckFailed", message: FAILURE });
  const step = (known: Map<string, KnownObject>, record: FluxObjectRecord) => {
    const plan = planWatchedChanges(known, [record], [], T1);
    applyPlan(known, plan, new Map());
    return plan;
  };

  it("a ready one's reconcile of its applied revision stays ready; a failing one's retry stays failing with its failure", () => {
    // On its own the object cannot say: progressing.
    expect(inProgress.health).toBe("progressing");
    const known = remember([ready]);
    for (const record of [inProgress, ready, inProgress, ready]) expect(step(known, record).transitions).toEqual([]);
    expect(step(known, inProgress).upserts[0].record).toMatchObject({ health: "ready", healthDetail: "reconciling" });

    const broken = remember([failing]);
    for (const record of [inProgress, failing]) {
      const plan = step(broken, record);
      expect(plan.transitions).toEqual([]);
      expect(plan.upserts[0]?.record ?? broken.get("Kustomization/flux-system/apps")!.cared).toMatchObject({
        health: "failing",
        readyReason: "HealthCheckFailed",
        readyMessage: FAILURE,
      });
    }
  });

  it("first seen in the middle of one, or on a new revision, it is progressing", () => {
    expect(planObjectWrites(new Map(), [inProgress], ALL, T0).upserts[0].record.health).toBe("progressing");
    const known = remember([ready]);
    const next = withoutHistory(
      { status: "Unknown", reason: "Progressing", message: "Reconciliation in progress" },
      `Fetching manifests for revision main@sha1:2222222222222222222222222222222222222222 with a timeout of 10m0s`,
    );
    expect(step(known, next).transitions.map((t) => t.cared.health)).toEqual(["progressing"]);
  });
});

describe("changesWhatPagesShow (which writes are worth a notification to every open page)", () => {
  const now = new Date("2026-11-23T12:00:10Z");
  const routine = (step: RoutineMark["step"], lastReconciled: string) =>
    toFluxObject("Kustomization", {
      ...healthyKustomization("apps", { history: true }),
      status: applyRoutineMark(healthyKustomization("apps", { history: true }), {
        step,
        revision: APPLIED_REVISION,
        startedAt: Date.parse(lastReconciled) - 2_500,
        stepAt: Date.parse(lastReconciled) - 2_500,
        passes: step ? 0 : 1,
        finishedAt: step ? null : Date.parse(lastReconciled),
      }),
    });
  const plan = (known: Map<string, KnownObject>, record: FluxObjectRecord) => planWatchedChanges(known, [record], [], T1);

  it("a routine reconcile's rewrites are not; a new result, a new object, a deletion and drift are", () => {
    const known = remember([toFluxObject("Kustomization", healthyKustomization("apps", { history: true }))]);
    for (const record of [routine("fetching", "2026-11-23T12:00:00Z"), routine(null, "2026-11-23T12:00:02Z")]) {
      const p = plan(known, record);
      expect(p.upserts).toHaveLength(1);
      expect(changesWhatPagesShow(p, known, now)).toBe(false);
      applyPlan(known, p, new Map());
    }
    const failed = makeKustomization({
      revision: APPLIED_REVISION,
      ready: "False",
      reason: "HealthCheckFailed",
      message: "health check failed",
    });
    expect(changesWhatPagesShow(plan(known, failed), known, now)).toBe(true);
    // The same question for one record as it arrives (the session's choice of flush delay).
    const stored = known.get("Kustomization/flux-system/apps");
    expect(showsOnPages(routine("drift", "2026-11-23T12:10:00Z"), stored, now)).toBe(false);
    expect(showsOnPages(failed, stored, now)).toBe(true);
    expect(showsOnPages(failed, undefined, now)).toBe(true);
    expect(changesWhatPagesShow(plan(known, makeKustomization({ name: "new-one" })), known, now)).toBe(true);
    expect(changesWhatPagesShow(planWatchedChanges(known, [], ["Kustomization/flux-system/apps"], T1), known, now)).toBe(true);
    expect(changesWhatPagesShow({ upserts: [], transitions: [], deletions: [] }, known, now)).toBe(false);
  });

  it("a stale Kustomization reconciled again is (it stops being stale on every page)", () => {
    const stale = healthyKustomization("apps", { history: true });
    (stale.status as { history: Record<string, unknown>[] }).history[0].lastReconciled = "2026-11-23T10:00:00Z";
    const known = remember([toFluxObject("Kustomization", stale)]);
    expect(changesWhatPagesShow(plan(known, routine(null, "2026-11-23T12:00:02Z")), known, now)).toBe(true);
  });
});

describe("a build failure's retry (status.history keeps only built revisions): what was stored says how it ended", () => {
  const BROKEN = "main@sha1:3333333333333333333333333333333333333333";
  const kustomization = (ready: Record<string, string>, reconciling?: string): FluxObjectRecord => {
    // history[0] is the last success (the applied revision): the broken one never built, so it has no entry.
    const object = healthyKustomization("apps", { history: true });
    const status = object.status as Record<string, unknown>;
    status.lastAttemptedRevision = BROKEN;
    status.conditions = [
      { type: "Ready", lastTransitionTime: "2026-11-23T12:00:00Z", ...ready },
      ...(reconciling ? [{ type: "Reconciling", status: "True", reason: "Progressing", message: reconciling }] : []),
    ];
    return toFluxObject("Kustomization", object);
  };
  const message = "kustomize build failed: accumulating resources: accumulation err='accumulating resources from './missing''";
  const failed = kustomization({ status: "False", reason: "BuildFailed", message });
  const retrying = kustomization(
    { status: "Unknown", reason: "Progressing", message: "Reconciliation in progress" },
    `Fetching manifests for revision ${BROKEN} with a timeout of 10m0s`,
  );

  it("stays failing with its build error while it retries, and a retry that fails the same way writes no history", () => {
    expect(retrying.health).toBe("progressing"); // the object alone cannot say
    const known = remember([failed]);
    for (const record of [retrying, failed, retrying, failed]) {
      const plan = planWatchedChanges(known, [record], [], T1);
      expect(plan.transitions).toEqual([]);
      applyPlan(known, plan, new Map());
    }
    const plan = planWatchedChanges(known, [retrying], [], T1);
    expect(plan.upserts[0].record).toMatchObject({
      health: "failing",
      healthDetail: "retrying",
      readyReason: "BuildFailed",
      readyMessage: message,
    });
  });
});
