import { describe, expect, it } from "vitest";
import {
  effectiveHealth,
  objectVerdict,
  retryReconcile,
  routineReconcile,
  type ObjectStatusInput,
  parseGoDuration,
  parseHealth,
  unclaimedForSeconds,
  UNCLAIMED_AFTER_SECONDS,
  type ConditionLike,
} from "./status";

const cond = (type: string, status: string, reason = "", message = ""): ConditionLike => ({ type, status, reason, message });

describe("objectVerdict", () => {
  it.each([
    ["Ready=True", { suspended: false, conditions: [cond("Ready", "True", "ReconciliationSucceeded")] }, "ready"],
    ["Ready=False", { suspended: false, conditions: [cond("Ready", "False", "BuildFailed")] }, "failing"],
    [
      "Ready=False while retrying",
      { suspended: false, conditions: [cond("Ready", "False", "UpgradeFailed"), cond("Reconciling", "True", "ProgressingWithRetry")] },
      "failing",
    ],
    ["Ready=Unknown", { suspended: false, conditions: [cond("Ready", "Unknown", "Progressing")] }, "progressing"],
    ["conditions but no Ready yet", { suspended: false, conditions: [cond("Reconciling", "True", "Progressing")] }, "progressing"],
    [
      "Stalled wins over Ready=False",
      { suspended: false, conditions: [cond("Ready", "False", "UpgradeFailed"), cond("Stalled", "True", "RetriesExceeded")] },
      "stalled",
    ],
    ["suspended wins over everything", { suspended: true, conditions: [cond("Stalled", "True", "RetriesExceeded")] }, "suspended"],
    [
      "Ready=True for an old generation",
      { suspended: false, generation: 3, observedGeneration: 2, conditions: [cond("Ready", "True")] },
      "progressing",
    ],
    [
      "Ready=True for the current generation",
      { suspended: false, generation: 3, observedGeneration: 3, conditions: [cond("Ready", "True")] },
      "ready",
    ],
  ] as const)("%s → %s", (_name, input, want) => {
    expect(objectVerdict({ ...input, conditions: [...input.conditions] }).health).toBe(want);
  });

  // Shapes read back from a real kube-apiserver with the Flux CRDs (the CRD defaults status on read).
  it.each([
    ["a new object: the CRD default status", { statusKeys: ["observedGeneration"], observedGeneration: -1 }, "new", null],
    ["a new object read without defaulting", { statusKeys: null, observedGeneration: null }, "new", null],
    ["an emptied status on any other kind", { statusKeys: [], observedGeneration: null }, "new", null],
    [
      "first controller patch keeps -1 next to Ready Unknown",
      { statusKeys: ["observedGeneration", "conditions"], observedGeneration: -1, conditions: [cond("Ready", "Unknown", "Progressing")] },
      "progressing",
      null,
    ],
    ["a status with an artifact but no conditions is not new", { statusKeys: ["artifact"], observedGeneration: null }, "progressing", null],
  ] as const)("%s → %s", (_name, input, health, detail) => {
    const conditions = "conditions" in input ? [...input.conditions] : [];
    expect(objectVerdict({ kind: "Kustomization", suspended: false, ...input, conditions })).toEqual({ health, detail });
  });

  it("an OCI HelmRepository with status {} is healthy and static; with the CRD default it is new", () => {
    const oci = { kind: "HelmRepository", sourceType: "oci", suspended: false, conditions: [] };
    expect(objectVerdict({ ...oci, statusKeys: [] })).toEqual({ health: "ready", detail: "static" });
    expect(objectVerdict({ ...oci, statusKeys: ["observedGeneration"], observedGeneration: -1 })).toEqual({ health: "new", detail: null });
    // An https HelmRepository with an emptied status is not static: it is simply not reconciled.
    expect(objectVerdict({ ...oci, sourceType: "default", statusKeys: [] })).toEqual({ health: "new", detail: null });
    // Suspended still wins.
    expect(objectVerdict({ ...oci, suspended: true, statusKeys: [] }).health).toBe("suspended");
  });

  it("Ready with Drifted=True is ready and drifted, never failing; Drifted=False is plain ready", () => {
    const upgraded = cond("Ready", "True", "UpgradeSucceeded");
    expect(objectVerdict({ suspended: false, conditions: [upgraded, cond("Drifted", "True", "DriftDetected")] })).toEqual({
      health: "ready",
      detail: "drifted",
    });
    expect(objectVerdict({ suspended: false, conditions: [upgraded, cond("Drifted", "False", "NoDriftDetected")] })).toEqual({
      health: "ready",
      detail: null,
    });
    // Failing wins over drift: the failure is what to act on.
    expect(objectVerdict({ suspended: false, conditions: [cond("Ready", "False"), cond("Drifted", "True")] })).toEqual({
      health: "failing",
      detail: null,
    });
  });
});

describe("effectiveHealth", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  it.each([
    ["unreachable cluster → unknown", { stored: "failing", clusterReachable: false }, "unknown"],
    [
      "ready and recent",
      { stored: "ready", intervalSeconds: 600, lastReconcileAt: "2026-11-21T11:50:00Z", clusterReachable: true },
      "ready",
    ],
    [
      "ready, 2×interval + margin not yet passed",
      { stored: "ready", intervalSeconds: 600, lastReconcileAt: "2026-11-21T11:35:01Z", clusterReachable: true },
      "ready",
    ],
    [
      "ready, no reconcile for 2×interval + margin",
      { stored: "ready", intervalSeconds: 600, lastReconcileAt: "2026-11-21T11:34:59Z", clusterReachable: true },
      "stale",
    ],
    [
      "failing stays failing however old",
      { stored: "failing", intervalSeconds: 60, lastReconcileAt: "2026-11-01T00:00:00Z", clusterReachable: true },
      "failing",
    ],
    [
      "suspended is never stale",
      { stored: "suspended", intervalSeconds: 60, lastReconcileAt: "2026-11-01T00:00:00Z", clusterReachable: true },
      "suspended",
    ],
    [
      "unknown reconcile time → not stale",
      { stored: "ready", intervalSeconds: 60, lastReconcileAt: null, clusterReachable: true },
      "ready",
    ],
    [
      "a quiet Kustomization is stale",
      { stored: "ready", kind: "Kustomization", intervalSeconds: 600, lastReconcileAt: "2026-11-21T11:00:00Z", clusterReachable: true },
      "stale",
    ],
    [
      "a quiet HelmRelease is not (its times move only on change)",
      { stored: "ready", kind: "HelmRelease", intervalSeconds: 600, lastReconcileAt: "2026-11-21T11:00:00Z", clusterReachable: true },
      "ready",
    ],
    [
      "a quiet GitRepository is not",
      { stored: "ready", kind: "GitRepository", intervalSeconds: 60, lastReconcileAt: "2026-11-21T11:00:00Z", clusterReachable: true },
      "ready",
    ],
  ] as const)("%s", (_name, input, want) => {
    expect(effectiveHealth({ ...input, now })).toBe(want);
  });
});

describe("new and unclaimed", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  const created = (secondsAgo: number) => new Date(now.getTime() - secondsAgo * 1000).toISOString();
  it("a new object stays new until the threshold, then is unclaimed (not picked up by its controller)", () => {
    expect(effectiveHealth({ stored: "new", createdAt: created(30), clusterReachable: true, now })).toBe("new");
    expect(effectiveHealth({ stored: "new", createdAt: created(UNCLAIMED_AFTER_SECONDS), clusterReachable: true, now })).toBe("new");
    expect(effectiveHealth({ stored: "new", createdAt: created(UNCLAIMED_AFTER_SECONDS + 1), clusterReachable: true, now })).toBe(
      "unclaimed",
    );
    // Unknown creation time: never guessed into a problem.
    expect(effectiveHealth({ stored: "new", createdAt: null, clusterReachable: true, now })).toBe("new");
    // An unreachable cluster says unknown, as for every other health.
    expect(effectiveHealth({ stored: "new", createdAt: created(3600), clusterReachable: false, now })).toBe("unknown");
  });

  it("counts the wait from creation, for new and unclaimed objects only", () => {
    expect(unclaimedForSeconds("unclaimed", created(1500), now)).toBe(1500);
    expect(unclaimedForSeconds("new", created(20), now)).toBe(20);
    expect(unclaimedForSeconds("failing", created(20), now)).toBeNull();
    expect(unclaimedForSeconds("new", null, now)).toBeNull();
  });
});

describe("parseHealth", () => {
  it("keeps known healths and reads anything else as unknown", () => {
    expect(parseHealth("failing")).toBe("failing");
    expect(parseHealth("stale")).toBe("stale");
    expect(parseHealth("Ready")).toBe("unknown");
    expect(parseHealth(null)).toBe("unknown");
  });
});

describe("parseGoDuration", () => {
  it.each([
    ["10m", 600],
    ["1h30m", 5400],
    ["45s", 45],
    ["2.818583s", 2.818583],
    ["10m0s", 600],
    ["500ms", 0.5],
    ["", null],
    ["ten", null],
    ["5x", null],
  ] as const)("%s → %s", (text, want) => {
    expect(parseGoDuration(text)).toBe(want);
  });
});

describe("routineReconcile (kustomize-controller marks Ready Unknown at the start of every reconcile)", () => {
  const REV = "main@sha1:1111111111111111111111111111111111111111";
  const NEXT = "main@sha1:2222222222222222222222222222222222222222";
  const inProgress = (revision: string, step = "Detecting drift") => [
    cond("Ready", "Unknown", "Progressing", "Reconciliation in progress"),
    cond("Reconciling", "True", "Progressing", `${step} for revision ${revision} with a timeout of 5m0s`),
  ];
  const routine = {
    kind: "Kustomization",
    suspended: false,
    generation: 2,
    observedGeneration: 2,
    appliedRevision: REV,
    lastResult: { status: "ReconciliationSucceeded", revision: REV },
    conditions: inProgress(REV),
  };

  it("re-applying the applied revision after a success, for the observed generation, is ready and reconciling", () => {
    for (const step of ["Fetching manifests", "Building manifests", "Detecting drift", "Running health checks"]) {
      expect(objectVerdict({ ...routine, conditions: inProgress(REV, step) })).toEqual({ health: "ready", detail: "reconciling" });
    }
  });

  it.each([
    ["a new revision", { conditions: inProgress(NEXT) }],
    ["a new spec (generation not observed yet)", { generation: 3 }],
    ["a retry after a failure of that revision", { lastResult: { status: "HealthCheckFailed", revision: REV } }],
    ["a last result of another revision", { lastResult: { status: "ReconciliationSucceeded", revision: NEXT } }],
    ["no history to say how the last one ended", { lastResult: null }],
    ["Ready Unknown for another reason", { conditions: [cond("Ready", "Unknown", "DependencyNotReady"), inProgress(REV)[1]] }],
    [
      "a Reconciling message that names no revision",
      { conditions: [inProgress(REV)[0], cond("Reconciling", "True", "Progressing", "Running")] },
    ],
    ["a HelmRelease", { kind: "HelmRelease" }],
  ] as const)("%s is progressing", (_name, change) => {
    const input = { ...routine, ...change } as ObjectStatusInput;
    expect(objectVerdict({ ...input, conditions: [...input.conditions] })).toEqual({
      health: "progressing",
      detail: null,
    });
  });

  it("answers on its own for the same inputs", () => {
    expect(routineReconcile(routine)).toBe(true);
    expect(routineReconcile({ ...routine, appliedRevision: NEXT })).toBe(false);
  });
});

describe("retryReconcile (a failing Kustomization's retry flips Ready to Unknown as well)", () => {
  const REV = "main@sha1:1111111111111111111111111111111111111111";
  const FAILED = "main@sha1:2222222222222222222222222222222222222222";
  const retrying = {
    kind: "Kustomization",
    suspended: false,
    appliedRevision: REV,
    attemptedRevision: FAILED,
    lastResult: { status: "HealthCheckFailed", revision: FAILED },
    conditions: [
      cond("Ready", "Unknown", "Progressing", "Reconciliation in progress"),
      cond("Reconciling", "True", "Progressing", `Building manifests for revision ${FAILED} with a timeout of 5m0s`),
    ],
  };

  it("a retry of the revision whose reconcile failed is failing and retrying", () => {
    for (const result of ["HealthCheckFailed", "ReconciliationFailed", "PruneFailed"]) {
      expect(objectVerdict({ ...retrying, lastResult: { status: result, revision: FAILED } })).toEqual({
        health: "failing",
        detail: "retrying",
      });
    }
    expect(retryReconcile(retrying)).toBe(true);
  });

  it.each([
    ["a new revision (the fix, perhaps)", { attemptedRevision: REV }],
    ["a last result that succeeded", { lastResult: { status: "ReconciliationSucceeded", revision: FAILED } }],
    ["a last result of another revision", { lastResult: { status: "HealthCheckFailed", revision: REV } }],
  ] as const)("%s is progressing", (_name, change) => {
    expect(objectVerdict({ ...retrying, ...change })).toEqual({ health: "progressing", detail: null });
  });
});
