import { describe, expect, it } from "vitest";
import { formatHelmVersions, helmVersions, sameChartVersion, stripBuildMetadata } from "./helm-versions";

describe("helmVersions: deployed is not attempted", () => {
  it("says the deployed version and the failed attempt apart", () => {
    const v = helmVersions({
      deployed: "2.13.2",
      attempted: "2.14.0",
      latest: { chartVersion: "2.14.0", status: "failed" },
      health: "failing",
    });
    expect(v).toEqual({ deployed: "2.13.2", attempt: { version: "2.14.0", outcome: "failed" } });
    expect(formatHelmVersions(v)).toBe("2.13.2 deployed · 2.14.0 failed");
  });

  it("reads the stall after rollbacks: the rollback is deployed, the newest snapshot failed", () => {
    const v = helmVersions({
      deployed: "77.14.0",
      attempted: "79.5.0",
      latest: { chartVersion: "79.5.0", status: "failed" },
      health: "stalled",
    });
    expect(formatHelmVersions(v)).toBe("77.14.0 deployed · 79.5.0 failed");
  });

  it("shows only the deployed version when the last attempt was that version (build metadata ignored)", () => {
    const v = helmVersions({
      deployed: "6.6.1+0cc9a8446c95",
      attempted: "6.6.1",
      latest: { chartVersion: "6.6.1+0cc9a8446c95", status: "deployed" },
      health: "ready",
    });
    expect(v).toEqual({ deployed: "6.6.1+0cc9a8446c95", attempt: null });
    expect(formatHelmVersions(v)).toBe("6.6.1+0cc9a8446c95");
  });

  it("tells an attempt running from one Helm never recorded", () => {
    expect(
      helmVersions({
        deployed: "1.0.0",
        attempted: "1.1.0",
        latest: { chartVersion: "1.1.0", status: "pending-upgrade" },
        health: "progressing",
      }).attempt,
    ).toEqual({ version: "1.1.0", outcome: "in progress" });
    // The chart could not be pulled: no release stored, the object fails.
    expect(
      helmVersions({ deployed: "1.0.0", attempted: "1.1.0", latest: { chartVersion: "1.0.0", status: "deployed" }, health: "failing" })
        .attempt,
    ).toEqual({
      version: "1.1.0",
      outcome: "failed",
    });
  });

  it("never installed: nothing deployed, the install failed", () => {
    const v = helmVersions({
      deployed: null,
      attempted: "0.27.2",
      latest: { chartVersion: "0.27.2", status: "failed" },
      health: "stalled",
    });
    expect(formatHelmVersions(v)).toBe("nothing deployed · 0.27.2 failed");
    // Nothing attempted at all (source not ready): nothing to say.
    expect(formatHelmVersions(helmVersions({ deployed: null, attempted: null, latest: null, health: "failing" }))).toBeNull();
  });

  it("strips build metadata for comparison only", () => {
    expect(stripBuildMetadata("6.6.1+0cc9a8446c95")).toBe("6.6.1");
    expect(sameChartVersion("6.6.1+0cc9a8446c95", "6.6.1+aaaaaaaaaaaa")).toBe(true);
    expect(sameChartVersion("6.6.1", "6.6.2")).toBe(false);
    expect(sameChartVersion(null, "6.6.1")).toBe(false);
  });
});
