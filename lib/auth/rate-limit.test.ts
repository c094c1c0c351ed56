import { expect, it } from "vitest";
import { RateLimiter } from "./rate-limit";

it("allows a burst, then asks the client to wait until tokens refill", () => {
  let now = 0;
  const limiter = new RateLimiter({ capacity: 3, refillPerSecond: 0.5 }, () => now);
  expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([0, 0, 0]);
  expect(limiter.take("a")).toBe(2);
  expect(limiter.take("b")).toBe(0);
  now = 2_000;
  expect(limiter.take("a")).toBe(0);
  expect(limiter.take("a")).toBeGreaterThan(0);
});

it("forgets the least recently seen clients beyond its size", () => {
  const limiter = new RateLimiter({ capacity: 1, refillPerSecond: 0.001 }, () => 0, 2);
  limiter.take("a");
  limiter.take("b");
  limiter.take("c");
  expect(limiter.take("a")).toBe(0); // evicted, so a fresh bucket
  expect(limiter.take("c")).toBeGreaterThan(0);
});
