// Simulated time for the fleet simulator. Starts at the real "now" (so timestamps look current in the
// dashboard), runs `speed` times faster than real time, and can be pushed forward by tests and the demo.

export interface SimClock {
  /** Simulated epoch milliseconds. */
  now(): number;
  readonly speed: number;
  setSpeed(speed: number): void;
  /** Jumps simulated time forward by `ms` (never backwards). */
  advance(ms: number): void;
}

export function createSimClock(options: { start?: number; speed?: number; realNow?: () => number } = {}): SimClock {
  const realNow = options.realNow ?? Date.now;
  let anchorReal = realNow();
  let anchorSim = options.start ?? anchorReal;
  let speed = validSpeed(options.speed ?? 1);

  const now = () => anchorSim + (realNow() - anchorReal) * speed;
  // Re-anchor before changing the rate so time stays continuous.
  const reanchor = () => {
    const current = now();
    anchorReal = realNow();
    anchorSim = current;
  };

  return {
    now: () => Math.floor(now()),
    get speed() {
      return speed;
    },
    setSpeed(next: number) {
      reanchor();
      speed = validSpeed(next);
    },
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance(ms) needs a non-negative number, got ${ms}`);
      reanchor();
      anchorSim += ms;
    },
  };
}

function validSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed < 0) throw new RangeError(`speed must be a non-negative number, got ${speed}`);
  return speed;
}
