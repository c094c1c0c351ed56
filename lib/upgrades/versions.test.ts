import { describe, expect, it } from "vitest";
import {
  compareVersions,
  controlPlaneMinor,
  isRange,
  kubernetesMinor,
  minorsBehind,
  newestSatisfying,
  newestVersion,
  nextMinor,
  nextVersionOf,
  parseVersion,
  satisfiesSpec,
  withoutBuild,
} from "./versions";
import { hasSkew, standingOf, versionGap } from "./standing";

describe("parseVersion", () => {
  it.each([
    ["1.33", { major: 1, minor: 33, patch: 0, prerelease: [] }],
    ["v1.33.4-eks-3025e55", { major: 1, minor: 33, patch: 4, prerelease: ["eks-3025e55"] }],
    ["3.2.1+abc123", { major: 3, minor: 2, patch: 1, prerelease: [] }],
    ["v1.20.5-eksbuild.1", { major: 1, minor: 20, patch: 5, prerelease: ["eksbuild", 1] }],
    ["1.33.5-20261110", { major: 1, minor: 33, patch: 5, prerelease: [20261110] }],
    [" 1.0.0-rc.1 ", { major: 1, minor: 0, patch: 0, prerelease: ["rc", 1] }],
  ])("%s", (text, expected) => {
    expect(parseVersion(text)).toMatchObject(expected);
  });
  it.each(["", "latest", "~1.2", "1.2.3.4", "abc", ">=1.0.0"])("rejects %j", (text) => {
    expect(parseVersion(text)).toBeNull();
  });
});

describe("compareVersions", () => {
  it.each([
    ["3.2.1+abc123", "3.2.1", 0],
    ["3.2.1+abc123", "3.2.1+def456", 0],
    ["v1.19.1", "1.19.1", 0],
    ["1.33", "1.33.0", 0],
    ["1.10.0", "1.9.9", 1],
    ["1.0.0-rc.1", "1.0.0", -1],
    ["1.0.0-rc.2", "1.0.0-rc.10", -1],
    ["1.0.0-alpha", "1.0.0-1", 1],
    ["v1.20.5-eksbuild.2", "v1.20.5-eksbuild.1", 1],
    ["v1.20.5-eksbuild.3", "v1.21.0-eksbuild.1", -1],
    ["junk", "0.0.1", -1],
  ])("%s vs %s → %d", (a, b, expected) => {
    expect(Math.sign(compareVersions(a, b))).toBe(expected);
  });
});

describe("Kubernetes minors", () => {
  it.each([
    ["1.33", "1.33"],
    ["v1.33.4-eks-3025e55", "1.33"],
    ["1.32.9-20261110", "1.32"],
    ["nope", null],
  ])("kubernetesMinor(%s) = %s", (text, expected) => {
    expect(kubernetesMinor(text)).toBe(expected);
  });
  it.each([
    ["1.34", "v1.35.2-eks-1d7b9f3", "1.35"], // the API server moved first
    ["1.35", "v1.34.4-eks-c8e2a41", "1.35"],
    [null, "v1.33.7-eks-3025e55", "1.33"],
    ["1.31", null, "1.31"],
    [null, null, null],
  ])("controlPlaneMinor(%j, %j) = %j", (eks, server, expected) => {
    expect(controlPlaneMinor(eks, server)).toBe(expected);
  });
  it("next minor and distance", () => {
    expect(nextMinor("v1.33.4-eks-1")).toBe("1.34");
    expect(nextMinor("1.9")).toBe("1.10");
    expect(minorsBehind("1.30", "1.33")).toBe(3);
    expect(minorsBehind("1.34", "1.33")).toBe(-1);
  });
});

describe("ranges in spec.chart.spec.version", () => {
  const versions = ["1.20.0", "1.19.2+abc", "1.19.1", "1.19.0", "1.18.9", "2.0.0-rc.1"];
  it.each([
    ["~1.19.0", "1.19.2+abc"],
    ["1.19.x", "1.19.2+abc"],
    [">=1.0.0 <1.20.0", "1.19.2+abc"],
    ["*", "1.20.0"],
    [null, "1.20.0"],
    ["1.18.9", "1.18.9"],
    ["v1.19.1", "1.19.1"],
    ["^3.0.0", null],
  ])("newest satisfying %j is %j", (spec, expected) => {
    expect(newestSatisfying(versions, spec)).toBe(expected);
  });
  it.each([
    ["~1.19.0", true],
    ["1.2.x", true],
    ["*", true],
    ["1.19.1", false],
    ["v1.19.1", false],
    ["", false],
  ])("isRange(%j) = %s", (spec, expected) => {
    expect(isRange(spec)).toBe(expected);
  });
  it("build metadata does not affect satisfaction", () => {
    expect(satisfiesSpec("3.2.1+abc123", "3.2.1")).toBe(true);
    expect(satisfiesSpec("3.2.1+abc123", "~3.2.0")).toBe(true);
    expect(withoutBuild("3.2.1+abc123")).toBe("3.2.1");
  });
  it("newest release wins over a pre-release", () => {
    expect(newestVersion(versions)).toBe("1.20.0");
    expect(newestVersion(versions, { includePrerelease: true })).toBe("2.0.0-rc.1");
  });
});

describe("standing", () => {
  it.each([
    ["3.2.1+abc", "3.2.1", "current"],
    ["3.2.2", "3.2.1", "current"],
    ["3.2.0", "3.2.1", "patch"],
    ["3.1.9", "3.2.1", "minor"],
    ["2.9.9", "3.2.1", "major"],
    ["v1.19.0", "v1.19.1", "patch"],
    ["0.37.7", "1.8.1", "major"],
  ])("%s against %s → %s", (applied, latest, expected) => {
    expect(versionGap(applied, latest)).toBe(expected);
    expect(standingOf({ installed: true, failing: false, applied, latest })).toBe(expected);
  });
  it("missing, failing and unknown", () => {
    expect(standingOf({ installed: false, failing: false, applied: null, latest: "1.0.0" })).toBe("missing");
    expect(standingOf({ installed: true, failing: true, applied: "1.0.0", latest: "1.0.0" })).toBe("failing");
    expect(standingOf({ installed: true, failing: false, applied: "1.0.0", latest: null })).toBe("unknown");
  });
  it("skew ignores build metadata and the v prefix", () => {
    expect(hasSkew(["1.2.3+a", "v1.2.3", "1.2.3+b", null])).toBe(false);
    expect(hasSkew(["1.2.3", "1.2.4"])).toBe(true);
  });
});

describe("N+1 exists whenever anything knows a newer version", () => {
  const calendar = ["1.23", "1.34", "1.35"];
  it.each([
    // current, known versions, next
    ["1.27", calendar, "1.28"], // an old version: the calendar knows newer ones
    ["v1.34.4-eks-c8e2a41", calendar, "1.35"],
    ["1.35", calendar, null], // the newest version known anywhere
    ["1.35", [...calendar, "1.36"], "1.36"], // DescribeClusterVersions lists 1.36
    ["1.35", [...calendar, "v1.37.0-eks-0000000"], "1.36"], // a cluster already runs 1.37: 1.36 exists, one minor at a time
    ["1.36", calendar, null],
    [null, calendar, null],
  ])("%s with %j → %s", (current, known, next) => {
    expect(nextVersionOf(current, known)).toBe(next);
  });
});
