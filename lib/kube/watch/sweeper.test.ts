import { afterEach, describe, expect, it, vi } from "vitest";
import { Sweeper, sweeperEvery } from "./sweeper";

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
