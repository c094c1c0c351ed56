import { describe, expect, it } from "vitest";
import { median, newestReleasedAt, releaseVersionAt, trendSeries, versionAt } from "./timeline";

const d = (iso: string) => new Date(iso);

describe("versionAt", () => {
  const changes = [
    { at: d("2026-11-10T12:00:00Z"), from: "1.32", to: "1.33" },
    { at: d("2026-11-20T00:00:00Z"), from: "1.33", to: "1.34" },
  ];
  it.each([
    ["2026-11-01T00:00:00Z", "1.32"],
    ["2026-11-10T11:59:59Z", "1.32"],
    ["2026-11-10T12:00:00Z", "1.33"],
    ["2026-11-19T23:59:59Z", "1.33"],
    ["2026-11-20T00:00:00Z", "1.34"],
    ["2026-12-01T00:00:00Z", "1.34"],
  ])("at %s → %s", (t, expected) => {
    expect(versionAt(changes, "1.34", d(t))).toBe(expected);
  });
  it("no history means today's value", () => {
    expect(versionAt([], "1.31", d("2020-01-01T00:00:00Z"))).toBe("1.31");
  });
});

describe("releaseVersionAt", () => {
  const release = {
    firstSeenAt: d("2026-11-01T00:00:00Z"),
    deletedAt: null,
    current: "4.13.3",
    transitions: [
      { at: d("2026-11-01T00:00:00Z"), change: "created", chartVersion: "4.12.4" },
      { at: d("2026-11-05T00:00:00Z"), change: "changed", chartVersion: null },
      { at: d("2026-11-15T00:00:00Z"), change: "changed", chartVersion: "4.13.3" },
    ],
  };
  it.each([
    ["2026-10-31T23:59:59Z", false, null],
    ["2026-11-01T00:00:00Z", true, "4.12.4"],
    ["2026-11-06T00:00:00Z", true, "4.12.4"],
    ["2026-11-15T00:00:00Z", true, "4.13.3"],
  ])("at %s", (t, present, version) => {
    expect(releaseVersionAt(release, d(t))).toEqual({ present, version });
  });
  it("deleted", () => {
    const gone = {
      ...release,
      transitions: [...release.transitions, { at: d("2026-11-18T00:00:00Z"), change: "deleted", chartVersion: "4.13.3" }],
    };
    expect(releaseVersionAt(gone, d("2026-11-19T00:00:00Z")).present).toBe(false);
  });
});

describe("trend series", () => {
  it("moves when a cluster is upgraded", () => {
    const clusters = [
      {
        name: "a",
        firstSeenAt: d("2026-11-01T00:00:00Z"),
        goneAt: null,
        currentVersion: "1.32",
        changes: [{ at: d("2026-11-20T10:00:00Z"), from: "1.31", to: "1.32" }],
      },
      { name: "b", firstSeenAt: d("2026-11-01T00:00:00Z"), goneAt: null, currentVersion: "1.34", changes: [] },
      { name: "c", firstSeenAt: d("2026-11-21T00:00:00Z"), goneAt: null, currentVersion: "1.35", changes: [] },
    ];
    const releases = [
      {
        cluster: "a",
        key: "k",
        firstSeenAt: d("2026-11-01T00:00:00Z"),
        deletedAt: null,
        current: "2.0.0",
        transitions: [
          { at: d("2026-11-01T00:00:00Z"), change: "created", chartVersion: "1.0.0" },
          { at: d("2026-11-21T08:00:00Z"), change: "changed", chartVersion: "2.0.0" },
        ],
      },
      { cluster: "b", key: "k", firstSeenAt: d("2026-11-01T00:00:00Z"), deletedAt: null, current: "2.0.0", transitions: [] },
    ];
    const points = trendSeries({
      clusters,
      releases,
      latestByKey: new Map([["k", "2.0.0"]]),
      versionInfo: new Map(),
      from: d("2026-11-19T00:00:00Z"),
      to: d("2026-11-21T00:00:00Z"),
      now: d("2026-11-21T20:00:00Z"),
    });
    expect(points.map((p) => p.date)).toEqual(["2026-11-19", "2026-11-20", "2026-11-21"]);
    expect(points.map((p) => p.byVersion)).toEqual([
      { "1.31": 1, "1.34": 1 },
      { "1.32": 1, "1.34": 1 },
      { "1.32": 1, "1.34": 1, "1.35": 1 },
    ]);
    // 1.31 and 1.32 are in extended support in Nov 2026; 1.34 and 1.35 are standard
    expect(points.map((p) => p.supportedShare)).toEqual([0.5, 0.5, 2 / 3]);
    expect(points.map((p) => p.extended)).toEqual([1, 1, 1]);
    expect(points.map((p) => p.addonLatestShare)).toEqual([0.5, 0.5, 1]);
    // newest released: 1.35 (Jan 2026) → lags 4 and 1 → median 2.5; then 3 and 1 → 2; then 3,1,0 → 1
    expect(points.map((p) => p.medianLag)).toEqual([2.5, 2, 1]);
  });
  it("median and newest released version", () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(newestReleasedAt(new Map(), d("2025-06-01T00:00:00Z"))).toBe("1.33");
    expect(newestReleasedAt(new Map(), d("2025-05-28T23:59:59Z"))).toBe("1.32");
  });
});
