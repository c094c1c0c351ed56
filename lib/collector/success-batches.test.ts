import { afterEach, describe, expect, it, vi } from "vitest";
import type { PollSuccess } from "../db/writes/clusters";
import { SuccessBatches } from "./success-batches";

afterEach(() => {
  vi.useRealTimers();
});

const success = (clusterId: number): PollSuccess => ({ clusterId, at: new Date("2026-11-27T05:00:00Z"), poll: null });

/** A write that records the cluster ids of each batch. */
function recorder() {
  const written: number[][] = [];
  return { written, write: async (batch: PollSuccess[]) => void written.push(batch.map((s) => s.clusterId)) };
}

describe("SuccessBatches", () => {
  it("writes a full batch at once and the rest within the delay, each success once", async () => {
    vi.useFakeTimers();
    const { written, write } = recorder();
    const batches = new SuccessBatches(write, () => {}, 3, 1_000);
    for (const id of [1, 2, 3, 4]) await batches.queue(success(id));
    expect(written).toEqual([[1, 2, 3]]);
    await vi.advanceTimersByTimeAsync(999);
    expect(written).toEqual([[1, 2, 3]]);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toEqual([[1, 2, 3], [4]]);
  });

  it("by default writes one heartbeat sweep's successes (about a hundred at 1,000 clusters) in one statement", async () => {
    vi.useFakeTimers();
    const { written, write } = recorder();
    const batches = new SuccessBatches(write, () => {});
    const sweep = Array.from({ length: 120 }, (_, i) => i + 1);
    for (const id of sweep) void batches.queue(success(id));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(written).toEqual([sweep]);
  });

  it("rejects the queueing that filled a batch whose write failed, so its caller can say so", async () => {
    const batches = new SuccessBatches(
      () => Promise.reject(new Error("connection terminated")),
      () => {},
      2,
    );
    await batches.queue(success(1));
    await expect(batches.queue(success(2))).rejects.toThrow("connection terminated");
    batches.stopTimer();
  });

  it("hands a timed write's failure to onTimedFailure, never to an unhandled rejection", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }); // setImmediate stays real: rejections surface after it
    const failures: unknown[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const batches = new SuccessBatches(
        () => Promise.reject(new Error("the database system is shutting down")),
        (err) => failures.push(err),
        50,
        1_000,
      );
      await batches.queue(success(1));
      await vi.advanceTimersByTimeAsync(1_000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(failures.map(String)).toEqual(["Error: the database system is shutting down"]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("writes nothing on a timer once stopped; flush still writes what is left", async () => {
    vi.useFakeTimers();
    const { written, write } = recorder();
    const batches = new SuccessBatches(write, () => {}, 50, 1_000);
    await batches.queue(success(7));
    batches.stopTimer();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(written).toEqual([]);
    await batches.flush();
    expect(written).toEqual([[7]]);
  });
});
