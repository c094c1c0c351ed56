// One timer for many periodic checks. A collector holds about 8,000 watch streams on 1,000 connections;
// with a timer each (a stream's deadline and bookmark silence, a connection's PING), the process woke up
// about a hundred times a second for nothing, each wake-up costing more than the check it ran. Checks of
// the same period share one timer instead, which sweeps them all, at the price of firing up to one period
// late: the periods are a small part of what they watch for (15 s against 150 s of silence). A sweep reads
// the clock once and hands it to every check.
//
//   const stop = sweeperEvery(15_000).add((now) => { if (now - lastDataAt > silenceMs) close(); });
//   stop(); // when the stream ends

export class Sweeper {
  private readonly checks = new Set<(now: number) => void>();
  private timer?: NodeJS.Timeout;

  constructor(readonly periodMs: number) {}

  /** Runs `check` every period (with the time of the sweep) until the returned function is called. */
  add(check: (now: number) => void): () => void {
    this.checks.add(check);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), this.periodMs);
      this.timer.unref(); // a pending check never keeps the process alive
    }
    return () => {
      this.checks.delete(check);
      if (this.checks.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  get size(): number {
    return this.checks.size;
  }

  private sweep(): void {
    // A check may remove itself or add others; a Set visits additions too, which is harmless.
    const now = Date.now();
    for (const check of this.checks) check(now);
  }
}

const sweepers = new Map<number, Sweeper>();

/** The process's sweeper for this period (tests with short timings get their own). */
export function sweeperEvery(periodMs: number): Sweeper {
  const period = Math.max(10, Math.round(periodMs));
  let sweeper = sweepers.get(period);
  if (!sweeper) sweepers.set(period, (sweeper = new Sweeper(period)));
  return sweeper;
}

/**
 * Runs `task` every `intervalMs` (the first time one interval from now), its due time checked by the shared
 * sweeper of a tenth of the interval (at most 15 s): up to that much late, never early, on average on time.
 * For the timers a fleet has a thousand of (each cluster's heartbeat and periodic reads). Returns the stop.
 */
export function repeatEvery(intervalMs: number, task: () => void): () => void {
  let dueAt = Date.now() + intervalMs;
  return sweeperEvery(Math.min(15_000, intervalMs / 10)).add((now) => {
    if (now < dueAt) return;
    dueAt += intervalMs;
    if (dueAt <= now) dueAt = now + intervalMs; // after a stall, one run, not a burst of catching up
    task();
  });
}
