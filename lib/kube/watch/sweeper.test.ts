import { afterEach, describe, expect, it, vi } from "vitest";
import { repeatEvery, Sweeper, sweeperEvery } from "./sweeper";

afterEach(() => {
  vi.useRealTimers();
});

describe("Sweeper", () => {
  it("runs every check once a period on one timer, and stops the timer when the last check leaves", () => {
    vi.useFakeTimers();
    const sweeper = new Sweeper(1_000);
    const runs = { a: 0, b: 0 };
    const stopA = sweeper.add(() => runs.a++);
    const stopB = sweeper.add(() => runs.b++);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(3_000);
    expect(runs).toEqual({ a: 3, b: 3 });
    stopA();
    vi.advanceTimersByTime(1_000);
    expect(runs).toEqual({ a: 3, b: 4 });
    stopB();
    expect(sweeper.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("hands every check of a sweep the same time", () => {
    vi.useFakeTimers();
    const sweeper = new Sweeper(1_000);
    const seen: number[] = [];
    sweeper.add((now) => seen.push(now));
    sweeper.add((now) => seen.push(now));
    vi.advanceTimersByTime(1_000);
    expect(seen).toEqual([Date.now(), Date.now()]);
  });

  it("lets a check remove itself while the others still run in that sweep", () => {
    vi.useFakeTimers();
    const sweeper = new Sweeper(100);
    const ran: string[] = [];
    const stopFirst: () => void = sweeper.add(() => {
      ran.push("first");
      stopFirst();
    });
    sweeper.add(() => ran.push("second"));
    vi.advanceTimersByTime(250);
    expect(ran).toEqual(["first", "second", "second"]);
  });

  it("shares one sweeper per period across the process", () => {
    expect(sweeperEvery(5_000)).toBe(sweeperEvery(5_000));
    expect(sweeperEvery(5_000)).not.toBe(sweeperEvery(200));
  });
});

describe("repeatEvery", () => {
  it("runs a task every interval on the shared sweeper: never early, at most a tenth late, on time on average", () => {
    vi.useFakeTimers();
    const start = Date.now();
    const runs: number[] = [];
    const stop = repeatEvery(1_000, () => runs.push(Date.now() - start));
    vi.advanceTimersByTime(999);
    expect(runs).toEqual([]);
    vi.advanceTimersByTime(10_001);
    expect(runs).toEqual([1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000, 10_000, 11_000]);
    stop();
    vi.advanceTimersByTime(5_000);
    expect(runs).toHaveLength(11);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("checks due times on one timer however many tasks there are, and runs once after a stall", () => {
    vi.useFakeTimers();
    let runs = 0;
    const stops = Array.from({ length: 1_000 }, () => repeatEvery(60_000, () => runs++));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(runs).toBe(1_000);
    // A stall of five intervals (the clock jumps, the sweeper never ran): each task runs once, then on schedule.
    // (A 60 s interval is checked every 6 s.)
    vi.setSystemTime(Date.now() + 300_000);
    vi.advanceTimersByTime(6_000);
    expect(runs).toBe(2_000);
    vi.advanceTimersByTime(54_000);
    expect(runs).toBe(2_000);
    vi.advanceTimersByTime(6_000);
    expect(runs).toBe(3_000);
    stops.forEach((stop) => stop());
  });
});
