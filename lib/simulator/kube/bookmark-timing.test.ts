import { describe, expect, it } from "vitest";
import { bookmarkSendAt } from "./bookmark-timing";

const MINUTE = 60_000;
const SECOND = 1_000;

describe("bookmarkSendAt (kube-apiserver's cacher ticks)", () => {
  it("sends at the resource's first tick once the due second began: up to 1.25 s after that second's start", () => {
    const due = Date.UTC(2026, 10, 28, 7, 0, 12, 400);
    for (let seed = 0; seed < 500; seed++) {
      const at = bookmarkSendAt(due, MINUTE, seed);
      expect(at).toBeGreaterThanOrEqual(due - 400);
      expect(at).toBeLessThan(due - 400 + 1.25 * SECOND);
    }
  });

  it("gives watches of one resource due in the same second one tick, and other resources their own", () => {
    const second = Date.UTC(2026, 10, 28, 7, 0, 12);
    expect(bookmarkSendAt(second + 10, MINUTE, 7)).toBe(bookmarkSendAt(second + 990, MINUTE, 7));
    // One connection's seven watched resources, started together: their bookmarks are apart, not in one write.
    let together = 0;
    for (let cluster = 0; cluster < 200; cluster++) {
      const times = Array.from({ length: 7 }, (_, resource) => bookmarkSendAt(second, MINUTE, cluster * 7 + resource)).sort(
        (a, b) => a - b,
      );
      for (let i = 1; i < times.length; i++) if (times[i] - times[i - 1] < 1) together++;
    }
    // By chance two of seven ticks land within 1 ms in about 3% of clusters (21 pairs, 2/1250 each).
    expect(together / (200 * 6)).toBeLessThan(0.03);
  });

  it("spreads ticks over the whole 1.25 s, differently each second", () => {
    const lags = Array.from({ length: 2_000 }, (_, i) => bookmarkSendAt(i * SECOND, MINUTE, 42) - i * SECOND);
    const mean = lags.reduce((a, b) => a + b, 0) / lags.length;
    expect(Math.min(...lags)).toBeLessThan(0.05 * SECOND);
    expect(Math.max(...lags)).toBeGreaterThan(1.2 * SECOND);
    expect(mean).toBeGreaterThan(0.55 * SECOND);
    expect(mean).toBeLessThan(0.7 * SECOND);
  });

  it("scales the tick with the interval (tests bookmark every 200 ms: a tick of 3.3 ms)", () => {
    const at = bookmarkSendAt(1_000_000, 200, 3);
    expect(at).toBeGreaterThanOrEqual(1_000_000 - 200 / 60);
    expect(at).toBeLessThan(1_000_000 + 1.25 * (200 / 60));
  });
});
