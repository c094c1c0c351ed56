import { describe, expect, it } from "vitest";
import { isDue } from "./eks-reader";

describe("isDue", () => {
  const interval = 300_000;
  it("reads a cluster never read, and again once most of the interval has passed", () => {
    expect(isDue(undefined, interval, 0)).toBe(true);
    expect(isDue(1_000_000, interval, 1_000_000 + 60_000)).toBe(false);
    expect(isDue(1_000_000, interval, 1_000_000 + 269_000)).toBe(false);
    // A timer running every 300 s asks a little less than 300 s after the read it caused: still due.
    expect(isDue(1_000_000, interval, 1_000_000 + 295_000)).toBe(true);
    expect(isDue(1_000_000, interval, 1_000_000 + 300_000)).toBe(true);
  });
});
