// Reads in batches while nothing is happening. A watching collector at 1,000 clusters receives about 117
// bookmark frames a second, each on its own connection at its own moment (every API server has its own
// timers), so each one wakes the process on its own; on this project's 2-core VM a wake-up costs more than
// reading the frame (measured by the bench's floor: bare Node.js holding the same watches spent 0.0106 cores
// with a wake-up per frame, 0.0038 with the frames read in batches). When nothing is in flight and no news
// has come for a second, the collector naps: the thread blocks (Atomics.wait, no CPU) for up to `napMs`
// while frames wait in the kernel's socket buffers, then one turn of the event loop reads all of them.
// Anything that arrives during a nap is read at its end: up to `napMs` later, and only when the collector
// was idle. Requests in flight (lists, facts reads, queries) stop the naps until they are answered, so no
// round trip of a cold start, a relist or a write waits for one.
//
//   const activity = new Activity();            // counts requests in flight, notes news
//   const naps = new IdleReads({ napMs: 250, quiet: (now) => activity.quiet(now) && … }).start();
//   naps.stop();
import type { RequestActivity } from "../kube/watch/transport";

/** After news (a change a page shows), the collector stays awake this long: a burst is read as it comes. */
export const QUIET_AFTER_NEWS_MS = 1_000;
/** While busy, quietness is checked again this often. */
const BUSY_RECHECK_MS = 50;

/** What the collector's sessions and transports are doing, as far as a nap is concerned. */
export class Activity implements RequestActivity {
  private inFlight = 0;
  private newsAt = Number.NEGATIVE_INFINITY;

  begin(): () => void {
    this.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
    };
  }

  /** Something a page shows arrived: stay awake for QUIET_AFTER_NEWS_MS. */
  news(now = Date.now()): void {
    this.newsAt = now;
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  /** No request in flight and no news for QUIET_AFTER_NEWS_MS. */
  quiet(now: number): boolean {
    return this.inFlight === 0 && now - this.newsAt >= QUIET_AFTER_NEWS_MS;
  }
}

export interface IdleReadsOptions {
  /** Longest nap (ms); 0 turns napping off. */
  napMs: number;
  /** Whether the process may nap now (nothing in flight, no news). */
  quiet(now: number): boolean;
  /** Blocks the thread for `ms` (Atomics.wait by default; tests pass their own). */
  wait?(ms: number): void;
  /** After each nap, with how long it blocked (metrics). */
  onNap?(ms: number): void;
}

const blockingWait = (() => {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  // Nobody ever notifies the cell: this returns "timed-out" after `ms`, having used no CPU meanwhile.
  return (ms: number) => void Atomics.wait(cell, 0, 0, ms);
})();

/** The nap loop: one timer, napping while `quiet()` says so. */
export class IdleReads {
  private timer?: NodeJS.Timeout;
  private stopped = true;
  private naps = 0;
  private nappedMs = 0;
  private readonly wait: (ms: number) => void;

  constructor(private readonly options: IdleReadsOptions) {
    this.wait = options.wait ?? blockingWait;
  }

  start(): this {
    if (this.options.napMs <= 0 || !this.stopped) return this;
    this.stopped = false;
    this.schedule(BUSY_RECHECK_MS);
    return this;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** The longest nap (0: napping is off). */
  get napMs(): number {
    return this.options.napMs;
  }

  /** Naps so far and how long they blocked in all. */
  stats(): { naps: number; nappedMs: number } {
    return { naps: this.naps, nappedMs: Math.round(this.nappedMs) };
  }

  /**
   * One turn: nap if quiet, then let one turn of the event loop read everything that arrived meanwhile before
   * the next nap (a timer due in 1 ms runs after the loop's poll phase, which finds every socket that became
   * readable during the nap at once); if busy, look again shortly.
   */
  tick(now = Date.now()): void {
    if (this.stopped) return;
    if (!this.options.quiet(now)) {
      this.schedule(BUSY_RECHECK_MS);
      return;
    }
    const started = performance.now();
    this.wait(this.options.napMs);
    const ms = performance.now() - started;
    this.naps++;
    this.nappedMs += ms;
    this.options.onNap?.(ms);
    this.schedule(1);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => this.tick(), ms);
    // Naps alone never keep a process alive.
    this.timer.unref();
  }
}

/** The collector's naps as deployed: while `source` is quiet, up to `napMs` each, counted in `metrics`. */
export function napWhileQuiet(source: { quiet(now: number): boolean }, napMs: number, metrics?: { napped(ms: number): void }): IdleReads {
  return new IdleReads({ napMs, quiet: (now) => source.quiet(now), onNap: (ms) => metrics?.napped(ms) }).start();
}
