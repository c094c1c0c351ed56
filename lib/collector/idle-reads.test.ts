// The collector's naps while idle: when it may nap (Activity, Collector.quiet's parts) and that the nap loop
// naps only then, with a wait of its own instead of a blocked thread.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Activity, IdleReads, QUIET_AFTER_NEWS_MS } from "./idle-reads";

describe("Activity", () => {
  it("is quiet with nothing in flight and no news", () => {
    expect(new Activity().quiet(Date.now())).toBe(true);
  });

  it("is busy while a request is in flight, and ending it twice counts once", () => {
    const activity = new Activity();
    const first = activity.begin();
    const second = activity.begin();
    expect(activity.requestsInFlight).toBe(2);
    expect(activity.quiet(Date.now())).toBe(false);
    first();
    first();
    expect(activity.requestsInFlight).toBe(1);
    expect(activity.quiet(Date.now())).toBe(false);
    second();
    expect(activity.requestsInFlight).toBe(0);
    expect(activity.quiet(Date.now())).toBe(true);
  });

  it("stays awake for a second after news", () => {
    const activity = new Activity();
    activity.news(10_000);
    expect(activity.quiet(10_000)).toBe(false);
    expect(activity.quiet(10_000 + QUIET_AFTER_NEWS_MS - 1)).toBe(false);
    expect(activity.quiet(10_000 + QUIET_AFTER_NEWS_MS)).toBe(true);
  });
});

describe("IdleReads", () => {
  afterEach(() => vi.useRealTimers());

  it("naps while quiet, not while busy, and not after stop", () => {
    vi.useFakeTimers();
    let quiet = false;
    const waits: number[] = [];
    const napped: number[] = [];
    const naps = new IdleReads({ napMs: 250, quiet: () => quiet, wait: (ms) => waits.push(ms), onNap: (ms) => napped.push(ms) }).start();
    vi.advanceTimersByTime(1_000);
    expect(waits).toEqual([]); // busy: only looked
    quiet = true;
    vi.advanceTimersByTime(60);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((ms) => ms === 250)).toBe(true);
    expect(napped.length).toBe(waits.length);
    expect(naps.stats().naps).toBe(waits.length);
    const before = waits.length;
    quiet = false;
    vi.advanceTimersByTime(1_000);
    expect(waits.length).toBe(before);
    quiet = true;
    naps.stop();
    vi.advanceTimersByTime(1_000);
    expect(waits.length).toBe(before);
  });

  it("after each nap gives the event loop a turn before the next one", () => {
    vi.useFakeTimers();
    const order: string[] = [];
    const naps = new IdleReads({ napMs: 100, quiet: () => true, wait: () => order.push("nap") }).start();
    vi.advanceTimersByTime(50); // the first look
    setTimeout(() => order.push("loop"), 0); // what the loop had to do meanwhile
    vi.advanceTimersByTime(5);
    naps.stop();
    expect(order.slice(0, 3)).toEqual(["nap", "loop", "nap"]);
  });

  it("never naps with a nap of 0 ms (COLLECTOR_IDLE_NAP_MS=0)", () => {
    vi.useFakeTimers();
    const wait = vi.fn();
    new IdleReads({ napMs: 0, quiet: () => true, wait }).start();
    vi.advanceTimersByTime(10_000);
    expect(wait).not.toHaveBeenCalled();
  });

  it("blocks the thread for the nap by default (Atomics.wait: nothing else runs meanwhile)", () => {
    const naps = new IdleReads({ napMs: 40, quiet: () => true }).start();
    let ran = false;
    setImmediate(() => (ran = true));
    const t0 = performance.now();
    naps.tick();
    const wall = performance.now() - t0;
    naps.stop();
    expect(ran).toBe(false);
    expect(wall).toBeGreaterThanOrEqual(39);
    expect(naps.stats().naps).toBe(1);
  });
});
