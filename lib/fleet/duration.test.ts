import { describe, expect, it } from "vitest";
import { formatDuration, formatRelative, formatUtc, secondsSince } from "./duration";

describe("formatDuration", () => {
  it.each([
    [0, "0 s"],
    [45, "45 s"],
    [60, "1 min"],
    [59 * 60 + 59, "59 min"],
    [3 * 3600 + 12 * 60 + 5, "3 h 12 min"],
    [2 * 3600, "2 h"],
    [86_400 * 2 + 3600 * 4 + 99, "2 d 4 h"],
    [86_400 * 400, "400 d"],
    [-5, "0 s"],
  ])("%s s → %s", (s, want) => expect(formatDuration(s)).toBe(want));
  it("is empty for unknown", () => expect(formatDuration(null)).toBe(""));
});

describe("relative and absolute times", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  it("formats past, future and now", () => {
    expect(formatRelative("2026-11-21T08:48:00Z", now)).toBe("3 h 12 min ago");
    expect(formatRelative("2026-11-21T12:05:00Z", now)).toBe("in 5 min");
    expect(formatRelative("2026-11-21T11:59:55Z", now)).toBe("just now");
  });
  it("shows UTC", () => expect(formatUtc("2026-11-21T08:48:00.123Z")).toBe("2026-11-21 08:48:00 UTC"));
  it("counts seconds since", () => {
    expect(secondsSince("2026-11-21T11:00:00Z", now)).toBe(3600);
    expect(secondsSince(null, now)).toBeNull();
  });
});
