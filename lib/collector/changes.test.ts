import { describe, expect, it } from "vitest";
import { objectKey, toFluxObject } from "../kube/flux";
import type { FluxObjectRecord } from "../kube/types";
import type { KnownObject } from "../db/types";
import { applyPlan, changedFields, healthCounts, planObjectWrites } from "./changes";

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
  } = {},
): FluxObjectRecord {
  const revision = opts.revision ?? "main@sha1:aaaa";
  return toFluxObject("Kustomization", {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name: opts.name ?? "apps", namespace: "flux-system", generation: 1, uid: "u-1" },
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
  it("creates new objects with a 'created' transition", () => {
    const plan = planObjectWrites(new Map(), [makeKustomization()], ALL, T0);
    expect(plan.upserts).toHaveLength(1);
    expect(plan.transitions).toMatchObject([{ change: "created", at: T0, previousHealth: null }]);
    expect(plan.upserts[0]).toMatchObject({ lastReadyAt: T0, lastGoodRevision: "main@sha1:aaaa", firstFailedAt: null });
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
    expect(planObjectWrites(known, [makeKustomization({ revision: "main@sha1:bbbb" })], ALL, T1).transitions[0].fields).toEqual([
      "message",
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
