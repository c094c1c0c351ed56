import { describe, expect, it } from "vitest";
import { describeKnowledge, versionKnowledge, type VersionKnowledgeInput } from "./known-version";

const now = new Date("2026-11-23T12:00:00Z");

function makeCluster(over: Partial<VersionKnowledgeInput> = {}): VersionKnowledgeInput {
  return {
    reachability: "reachable",
    version: "1.34",
    lastSuccessAt: "2026-11-23T11:59:00Z",
    lastVersionChangeAt: null,
    lastErrorKind: null,
    lastError: null,
    eksAccess: true,
    ...over,
  };
}

describe("what we know of a cluster's version", () => {
  it("a reachable cluster's version is observed and counts with the fleet", () => {
    const k = versionKnowledge(makeCluster(), now);
    expect(k).toEqual({ version: "1.34", source: "observed", asOf: null, ageSeconds: null, why: null, current: true });
    expect(describeKnowledge(k)).toBe("1.34");
  });

  it.each([
    // reachability, error kind, eks access, why
    ["unreachable", "timeout", true, "API server timed out"],
    ["unreachable", "auth", true, "credentials refused (token expired or not allowed)"],
    ["unreachable", "refused", false, "API server refused the connection; no EKS API access"],
  ] as const)("%s (%s, EKS access %s): last known version with its age, counted apart", (reachability, kind, eksAccess, why) => {
    const k = versionKnowledge(
      makeCluster({ reachability, lastErrorKind: kind, eksAccess, lastSuccessAt: "2026-11-23T09:00:00Z", lastError: "x" }),
      now,
    );
    expect(k).toMatchObject({ version: "1.34", source: "last-known", ageSeconds: 3 * 3600, why, current: false });
    expect(describeKnowledge(k)).toBe("1.34 (last known, 3 h ago)");
  });

  it("a version change the EKS API reported after the last poll makes the knowledge younger", () => {
    const k = versionKnowledge(
      makeCluster({ reachability: "unreachable", lastSuccessAt: "2026-11-20T12:00:00Z", lastVersionChangeAt: "2026-11-23T10:00:00Z" }),
      now,
    );
    expect(k).toMatchObject({ asOf: "2026-11-23T10:00:00.000Z", ageSeconds: 7200 });
  });

  it("never reached, with no version: unknown and why", () => {
    const k = versionKnowledge(makeCluster({ reachability: "pending", version: null, lastSuccessAt: null }), now);
    expect(k).toMatchObject({ version: null, source: "unknown", why: "never reached yet", current: false });
    expect(describeKnowledge(k)).toBe("unknown — never reached yet");
  });

  it("unreachable without EKS access and never read: unknown, with the error", () => {
    const k = versionKnowledge(
      makeCluster({
        reachability: "unreachable",
        version: null,
        lastSuccessAt: null,
        eksAccess: false,
        lastErrorKind: "other",
        lastError: "connect EHOSTUNREACH 10.0.0.1:443\nstack",
      }),
      now,
    );
    expect(describeKnowledge(k)).toBe("unknown — connect EHOSTUNREACH 10.0.0.1:443; no EKS API access");
  });

  it("a cluster Crossplane is still creating shows its desired version, not summed", () => {
    const k = versionKnowledge(makeCluster({ version: null, provisioning: { creating: true, desiredVersion: "1.35" } }), now);
    expect(k).toMatchObject({ version: "1.35", source: "desired", current: false });
    expect(describeKnowledge(k)).toBe("1.35 (desired; being created)");
    expect(versionKnowledge(makeCluster({ provisioning: { creating: true, desiredVersion: null } }), now)).toMatchObject({
      source: "unknown",
      why: "being created by Crossplane; desired version not recorded",
    });
  });
});
