import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { refreshScheduler } from "./refresh-scheduler";

/** A refresh that takes as long as the test says: each call is recorded and ends when `finish()` is called. */
function slowRefresh() {
  const calls: Array<() => void> = [];
  return {
    refresh: () => new Promise<void>((resolve) => calls.push(resolve)),
    calls,
    finish: async () => {
      calls.at(-1)!();
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

describe("refresh scheduler", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("turns a burst of changes into one refresh, after the delay from the first", async () => {
    const r = slowRefresh();
    const s = refreshScheduler(r.refresh, 500);
    s.changed();
    await vi.advanceTimersByTimeAsync(300);
    s.changed();
    s.changed();
    expect(r.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(r.calls).toHaveLength(1);
  });

  it("never starts a second refresh while one runs, however many changes arrive, and never drops them", async () => {
    const r = slowRefresh();
    const s = refreshScheduler(r.refresh, 500);
    s.changed();
    await vi.advanceTimersByTimeAsync(500);
    expect(r.calls).toHaveLength(1);
    // A change a second for five seconds while the refresh is still running: nothing new starts.
    for (let i = 0; i < 5; i++) {
      s.changed();
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(r.calls).toHaveLength(1);
    // The running refresh may have read before those changes: exactly one more follows it.
    await r.finish();
    await vi.advanceTimersByTimeAsync(500);
    expect(r.calls).toHaveLength(2);
    await r.finish();
    await vi.advanceTimersByTimeAsync(5000);
    expect(r.calls).toHaveLength(2);
  });

  it("a refresh with nothing heard meanwhile is the last one", async () => {
    const r = slowRefresh();
    const s = refreshScheduler(r.refresh, 500);
    s.changed();
    await vi.advanceTimersByTimeAsync(500);
    await r.finish();
    await vi.advanceTimersByTimeAsync(5000);
    expect(r.calls).toHaveLength(1);
  });

  it("a failed refresh does not stop the next one", async () => {
    let calls = 0;
    const s = refreshScheduler(() => {
      calls++;
      return Promise.reject(new Error("HTTP 503"));
    }, 500);
    s.changed();
    await vi.advanceTimersByTimeAsync(500);
    s.changed();
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toBe(2);
  });

  it("starts nothing once stopped: not the pending refresh, not the one owed by a running refresh", async () => {
    const r = slowRefresh();
    const s = refreshScheduler(r.refresh, 500);
    s.changed();
    await vi.advanceTimersByTimeAsync(500);
    s.changed();
    s.stop();
    await r.finish();
    await vi.advanceTimersByTimeAsync(5000);
    expect(r.calls).toHaveLength(1);

    const q = slowRefresh();
    const t = refreshScheduler(q.refresh, 500);
    t.changed();
    t.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(q.calls).toHaveLength(0);
  });
});
