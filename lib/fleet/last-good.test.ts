import { describe, expect, it } from "vitest";
import { lastGoodFromStatus } from "./last-good";

describe("lastGoodFromStatus", () => {
  it("takes a Kustomization's newest successful reconciliation from status.history", () => {
    const history = [
      { lastReconciledStatus: "HealthCheckFailed", lastReconciled: "2026-11-21T12:10:00Z", metadata: { revision: "main@sha1:bad" } },
      { lastReconciledStatus: "ReconciliationFailed", lastReconciled: "2026-11-21T12:00:00Z", metadata: { revision: "main@sha1:bad0" } },
      { lastReconciledStatus: "ReconciliationSucceeded", lastReconciled: "2026-11-21T11:00:00Z", metadata: { revision: "main@sha1:good" } },
      {
        lastReconciledStatus: "ReconciliationSucceeded",
        lastReconciled: "2026-11-20T11:00:00Z",
        metadata: { revision: "main@sha1:older" },
      },
    ];
    expect(lastGoodFromStatus("Kustomization", history)).toEqual({ revision: "main@sha1:good", at: "2026-11-21T11:00:00Z" });
  });

  it("takes a HelmRelease's newest deployed or superseded release", () => {
    expect(
      lastGoodFromStatus("HelmRelease", [
        { status: "failed", chartVersion: "79.5.0", lastDeployed: "2026-11-21T12:05:00Z" },
        { status: "superseded", chartVersion: "77.14.0", lastDeployed: "2026-11-01T00:00:00Z" },
      ]),
    ).toEqual({ revision: "77.14.0", at: "2026-11-01T00:00:00Z" });
  });

  it("says nothing when the status has no success (or no history)", () => {
    expect(lastGoodFromStatus("HelmRelease", [{ status: "failed", chartVersion: "0.27.2" }])).toBeNull();
    expect(lastGoodFromStatus("Kustomization", [{ lastReconciledStatus: "ReconciliationSucceeded", metadata: {} }])).toBeNull();
    expect(lastGoodFromStatus("Kustomization", null)).toBeNull();
    expect(lastGoodFromStatus("GitRepository", [{ status: "deployed", chartVersion: "1" }])).toBeNull();
  });
});
