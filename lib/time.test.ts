import { describe, expect, it } from "vitest";
import { formatDuration, formatAgo, formatUtc } from "./time";

describe("formatDuration", () => {
  it.each([
    [0, "0 s"],
    [45_000, "45 s"],
    [60_000, "1 min"],
    [(3 * 3600 + 12 * 60 + 30) * 1000, "3 h 12 min"],
    [(2 * 86400 + 4 * 3600) * 1000, "2 d 4 h"],
    [(86400 + 59) * 1000, "1 d"],
    [-5_000, "0 s"],
  ])("%d ms → %s", (ms, want) => expect(formatDuration(ms)).toBe(want));
});

describe("formatAgo", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");
  it.each([
    ["2026-11-21T11:59:55Z", "just now"],
    ["2026-11-21T11:57:00Z", "3 min ago"],
    ["2026-11-21T08:48:00Z", "3 h 12 min ago"],
    // A past event stamped ahead of the browser's clock (skew) is never "in 10 s".
    ["2026-11-21T12:00:10Z", "just now"],
    ["2026-11-23T12:00:00Z", "just now"],
    ["nonsense", "invalid date"],
  ])("%s → %s", (value, want) => expect(formatAgo(value, now)).toBe(want));
});

describe("formatUtc", () => {
  it("prints minutes in UTC whatever the input offset", () => {
    expect(formatUtc("2026-11-21T14:03:59+02:00")).toBe("2026-11-21 12:03 UTC");
  });
});

describe("dates out of any sane range (a bad row must never break a page)", () => {
  const yearOneBc = new Date("0000-01-01T00:00:00Z"); // ISO year 0 is 1 BC
  const extremes = [
    yearOneBc,
    new Date(8.64e15),
    new Date(-8.64e15),
    new Date(Number.NaN),
    "0000-01-01T00:00:00Z",
    "-000001-01-01T00:00:00Z",
  ];

  it("formatUtc names the year instead of printing a broken string or throwing", () => {
    expect(formatUtc(yearOneBc)).toBe("year 1 BC (out of range)");
    expect(formatUtc(new Date(8.64e15))).toBe("year 275760 (out of range)");
    expect(formatUtc(new Date(Number.NaN))).toBe("invalid date");
    expect(formatUtc("0999-12-31T23:59:00Z")).toBe("year 999 (out of range)");
    expect(formatUtc("2026-11-21T14:03:00Z")).toBe("2026-11-21 14:03 UTC");
  });

  it("formatAgo says so instead of counting hundreds of thousands of days", () => {
    const now = Date.parse("2026-11-21T12:00:00Z");
    for (const value of extremes) expect(() => formatAgo(value, now)).not.toThrow();
    expect(formatAgo(yearOneBc, now)).toBe("year 1 BC (out of range)");
    expect(formatAgo(new Date(8.64e15), now)).toBe("year 275760 (out of range)");
  });
});
