import { describe, expect, it } from "vitest";
import { entryRevision } from "./revisions";

describe("entryRevision", () => {
  it("a failure shows the revision that was attempted and failed, not the old applied one", () => {
    expect(
      entryRevision({ kind: "Kustomization", health: "failing", attemptedRevision: "main@sha1:new", appliedRevision: "main@sha1:old" }),
    ).toBe("main@sha1:new");
    expect(
      entryRevision({
        kind: "HelmRelease",
        health: "stalled",
        attemptedRevision: "79.5.0",
        appliedRevision: "77.14.0",
        chartVersion: "79.5.0",
      }),
    ).toBe("79.5.0");
  });
  it("a healthy state shows what is applied (for a HelmRelease the deployed chart)", () => {
    expect(
      entryRevision({ kind: "Kustomization", health: "ready", attemptedRevision: "main@sha1:new", appliedRevision: "main@sha1:new" }),
    ).toBe("main@sha1:new");
    expect(
      entryRevision({ kind: "HelmRelease", health: "ready", attemptedRevision: "1.1.0", appliedRevision: "1.0.0", chartVersion: "1.1.0" }),
    ).toBe("1.0.0");
    // Never applied anything yet: the attempt is all there is.
    expect(entryRevision({ kind: "Kustomization", health: "ready", attemptedRevision: "main@sha1:x", appliedRevision: null })).toBe(
      "main@sha1:x",
    );
  });
});
