import { describe, expect, it } from "vitest";
import { mapLimit } from "./concurrency";

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe("mapLimit", () => {
  it("runs every item once, in start order, never more than the limit at a time", async () => {
    let inFlight = 0;
    let peak = 0;
    const started: number[] = [];
    await mapLimit([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      started.push(n);
      peak = Math.max(peak, ++inFlight);
      await tick();
      inFlight--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(peak).toBe(3);
  });

  it("handles an empty list and a limit above the list size", async () => {
    const seen: string[] = [];
    await mapLimit([], 4, async () => {
      seen.push("never");
    });
    await mapLimit(["a", "b"], 10, async (s) => {
      seen.push(s);
    });
    expect(seen).toEqual(["a", "b"]);
  });

  it("rejects with the first error", async () => {
    await expect(
      mapLimit([1, 2, 3], 2, async (n) => {
        await tick();
        if (n === 2) throw new Error("item 2 failed");
      }),
    ).rejects.toThrow("item 2 failed");
  });
});
