import { describe, expect, it } from "vitest";
import { effectiveHealth, healthFromConditions, parseGoDuration, parseHealth, type ConditionLike } from "./status";

const cond = (type: string, status: string, reason = "", message = ""): ConditionLike => ({ type, status, reason, message });

describe("healthFromConditions", () => {
  it.each([
    ["Ready=True", { suspended: false, conditions: [cond("Ready", "True", "ReconciliationSucceeded")] }, "ready"],
    ["Ready=False", { suspended: false, conditions: [cond("Ready", "False", "BuildFailed")] }, "failing"],
    [
      "Ready=False while retrying",
      { suspended: false, conditions: [cond("Ready", "False", "UpgradeFailed"), cond("Reconciling", "True", "ProgressingWithRetry")] },
      "failing",
    ],
    ["Ready=Unknown", { suspended: false, conditions: [cond("Ready", "Unknown", "Progressing")] }, "progressing"],
    ["no conditions yet", { suspended: false, conditions: [] }, "progressing"],
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
    expect(healthFromConditions({ ...input, conditions: [...input.conditions] })).toBe(want);
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
