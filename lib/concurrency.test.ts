import { describe, expect, it } from "vitest";
import { JobQueue, mapLimit } from "./concurrency";

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

describe("JobQueue", () => {
  it("runs jobs in order, never more than the limit at a time, and holds them while held", async () => {
    const queue = new JobQueue(2);
    queue.hold();
    let inFlight = 0;
    let peak = 0;
    const started: number[] = [];
    const done = [1, 2, 3, 4, 5].map((n) =>
      queue.run(async () => {
        started.push(n);
        peak = Math.max(peak, ++inFlight);
        await tick();
        inFlight--;
        return n * 10;
      }),
    );
    await tick();
    expect(started).toEqual([]);
    expect(queue.pending).toBe(5);
    queue.release();
    expect(await Promise.all(done)).toEqual([10, 20, 30, 40, 50]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(queue.pending).toBe(0);
  });

  it("passes a job's failure to its caller and goes on with the next", async () => {
    const queue = new JobQueue(1);
    const failed = queue.run(() => Promise.reject(new Error("no")));
    const next = queue.run(() => Promise.resolve("yes"));
    await expect(failed).rejects.toThrow("no");
    expect(await next).toBe("yes");
  });
});
