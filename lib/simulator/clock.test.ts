import { describe, expect, it } from "vitest";
import { createSimClock } from "./clock";

describe("simulated clock", () => {
  it("runs at the given speed from its start, can be advanced and re-paced without jumping", () => {
    let real = 1_000_000;
    const clock = createSimClock({ start: 5_000, speed: 10, realNow: () => real });
    expect(clock.now()).toBe(5_000);
    real += 1_000;
    expect(clock.now()).toBe(15_000);
    clock.advance(60_000);
    expect(clock.now()).toBe(75_000);
    clock.setSpeed(1);
    expect(clock.now()).toBe(75_000);
    real += 1_000;
    expect(clock.now()).toBe(76_000);
    expect(clock.speed).toBe(1);
  });

  it("refuses to go backwards or at a negative speed", () => {
    const clock = createSimClock();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.setSpeed(-2)).toThrow(RangeError);
  });
});
