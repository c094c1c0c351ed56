import { describe, expect, it } from "vitest";
import { conditionMessage, conditionsToStore, excerpt, FLUX_CONDITION_MESSAGE_LIMIT, isLongMessage, sameMessage } from "./message";

// The shape a health check on many resources gives (fluxcd/pkg ssa WaitForSet, wrapped by kustomize-controller).
const untrimmed =
  "health check failed after 10m0.03s: timeout waiting for: [" +
  Array.from({ length: 700 }, (_, i) => `Deployment/tenant-${String(i).padStart(3, "0")}/web status: 'InProgress'`).join(", ") +
  "]";
const trimmed = untrimmed.slice(0, FLUX_CONDITION_MESSAGE_LIMIT - 3) + "...";

describe("isLongMessage", () => {
  it("is false for the usual one-line messages and true for long or many-line ones", () => {
    expect(isLongMessage("dependency 'flux-system/infra-configs' is not ready")).toBe(false);
    expect(isLongMessage(trimmed)).toBe(true);
    expect(isLongMessage("a\n".repeat(9))).toBe(true);
    expect(isLongMessage("a\n".repeat(5))).toBe(false);
  });
});

describe("excerpt", () => {
  it("keeps a short one-line message as it is", () => {
    expect(excerpt("Applied revision: main@sha1:abc")).toBe("Applied revision: main@sha1:abc");
  });
  it("cuts at the first line and at the limit, and says so", () => {
    expect(excerpt("Helm test failed\n\t* pod a failed")).toBe("Helm test failed…");
    const e = excerpt(trimmed);
    expect(e.length).toBeLessThanOrEqual(160);
    expect(e.endsWith("…")).toBe(true);
    expect(trimmed.startsWith(e.slice(0, -1))).toBe(true);
  });
});

describe("sameMessage", () => {
  it("matches equal messages and a trimmed condition message with the untrimmed Event message", () => {
    expect(sameMessage("boom", "boom")).toBe(true);
    expect(sameMessage(trimmed, untrimmed)).toBe(true);
    expect(sameMessage(untrimmed, trimmed)).toBe(true);
  });
  it("does not match different messages, short ones ending in dots, or nothing", () => {
    expect(sameMessage("retrying...", "retrying... in 30s")).toBe(false);
    expect(sameMessage(trimmed, untrimmed.replace("tenant-001", "tenant-999"))).toBe(false);
    expect(sameMessage(null, "x")).toBe(false);
    expect(sameMessage("", "")).toBe(false);
  });
});

describe("conditionsToStore and conditionMessage", () => {
  const conditions = [
    { type: "Reconciling", status: "True", message: "Running health checks for revision main@sha1:1 with a timeout of 10m0s" },
    { type: "Ready", status: "False", message: trimmed },
    { type: "Healthy", status: "False", message: trimmed },
  ];

  it("keeps one copy of a long message Ready and Healthy share: the Ready message beside them", () => {
    const stored = conditionsToStore(conditions, trimmed);
    expect(JSON.stringify(stored).length).toBeLessThan(1_000);
    expect(stored.map((c) => c.message === null)).toEqual([false, true, true]);
    expect(stored.map((c) => conditionMessage(c, trimmed))).toEqual(conditions.map((c) => c.message));
  });

  it("leaves short messages and other texts as they are", () => {
    const short = [{ type: "Ready", status: "False", message: "dependency 'flux-system/infra' is not ready" }];
    expect(conditionsToStore(short, short[0].message)).toEqual(short);
    expect(conditionsToStore(conditions, null)).toEqual(conditions);
    expect(conditionMessage({ message: "" }, trimmed)).toBeNull();
  });
});
