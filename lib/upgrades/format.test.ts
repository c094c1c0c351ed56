import { describe, expect, it } from "vitest";
import { formatDaysFromToday, formatPercent, formatUsd } from "./format";

describe("format", () => {
  it.each([
    [365, "$365"],
    [13140, "$13,140"],
    [0, "$0"],
    [1094.6, "$1,095"],
  ])("formatUsd(%d) = %s", (n, s) => expect(formatUsd(n)).toBe(s));
  it.each([
    [0, "today"],
    [1, "in 1 day"],
    [11, "in 11 days"],
    [-1, "1 day ago"],
    [-360, "360 days ago"],
    [null, "unknown"],
  ])("formatDaysFromToday(%j) = %s", (n, s) => expect(formatDaysFromToday(n)).toBe(s));
  it("percent", () => {
    expect(formatPercent(2 / 3)).toBe("67%");
    expect(formatPercent(null)).toBe("–");
  });
});
