import { describe, expect, it } from "vitest";
import { excerpt, FLUX_CONDITION_MESSAGE_LIMIT, isLongMessage, sameMessage } from "./message";

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
