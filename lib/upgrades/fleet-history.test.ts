import { describe, expect, it } from "vitest";
import { releaseAt, valueAt, type HistoryRelease } from "./fleet-history";

const t = (iso: string) => new Date(iso).getTime();

describe("a value at an instant from change-only history", () => {
  const changes = [
    { at: new Date("2026-11-10T12:00:00Z"), from: "1.32", to: "1.33" },
    { at: new Date("2026-11-20T00:00:00Z"), from: "1.33", to: "1.34" },
  ];
  it.each([
    ["2026-11-01T00:00:00Z", "1.32"], // before any change: the first change's from
    ["2026-11-10T11:59:59Z", "1.32"],
    ["2026-11-10T12:00:00Z", "1.33"],
    ["2026-11-19T23:59:59Z", "1.33"],
    ["2026-11-20T00:00:00Z", "1.34"], // after the last change: today's value
    ["2026-12-01T00:00:00Z", "1.34"],
  ])("at %s → %s", (at, expected) => {
    expect(valueAt(changes, "1.34", t(at))).toBe(expected);
  });
  it("no history means today's value; after the last change, today's value even if history says otherwise", () => {
    expect(valueAt([], "1.31", t("2020-01-01T00:00:00Z"))).toBe("1.31");
    expect(valueAt(changes, "1.35", t("2026-12-01T00:00:00Z"))).toBe("1.35");
  });
});

describe("a release at an instant", () => {
  const release: HistoryRelease = {
    cluster: "a",
    namespace: "ingress-nginx",
    name: "ingress-nginx",
    chart: "ingress-nginx",
    repositoryUrl: null,
    desired: null,
    applied: "4.13.3",
    failing: false,
    firstSeenAt: new Date("2026-11-01T00:00:00Z"),
    deletedAt: null,
    transitions: [
      { at: new Date("2026-11-01T00:00:00Z"), change: "created", applied: null, failing: true }, // first install failed
      { at: new Date("2026-11-05T00:00:00Z"), change: "changed", applied: "4.12.4", failing: false },
      { at: new Date("2026-11-15T00:00:00Z"), change: "changed", applied: "4.13.3", failing: false },
    ],
  };
  it.each([
    ["2026-10-31T23:59:59Z", null],
    ["2026-11-01T00:00:00Z", { applied: null, failing: true }], // not installed yet: nothing deployed
    ["2026-11-06T00:00:00Z", { applied: "4.12.4", failing: false }],
    ["2026-11-15T00:00:00Z", { applied: "4.13.3", failing: false }],
  ])("at %s", (at, expected) => {
    expect(releaseAt(release, t(at))).toEqual(expected);
  });
  it("deleted", () => {
    const gone = {
      ...release,
      deletedAt: new Date("2026-11-18T00:00:00Z"),
      transitions: [...release.transitions, { at: new Date("2026-11-18T00:00:00Z"), change: "deleted", applied: "4.13.3", failing: false }],
    };
    expect(releaseAt(gone, t("2026-11-19T00:00:00Z"))).toBeNull();
    expect(releaseAt(gone, t("2026-11-17T00:00:00Z"))).toEqual({ applied: "4.13.3", failing: false });
  });
});
