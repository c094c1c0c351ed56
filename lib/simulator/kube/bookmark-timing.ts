// When kube-apiserver's watch cache sends a watch's periodic bookmark: the pure rule the simulator's watches
// follow (watch.ts), apart from their timers so that it can be tested alone.

/**
 * When kube-apiserver sends a bookmark due at `dueAtMs`. Its cacher (one per resource) keeps watchers in
 * one-second buckets of their due time and pops them from a timer that ticks every 1–1.25 s
 * (`wait.Jitter(time.Second, 0.25)`): a bookmark goes out at its resource's first tick once its second has
 * begun (up to a second before or 1.25 s after it is due), and the next is due a minute after that. So one
 * connection's watches of different resources get their bookmarks at their resources' own ticks, each in a
 * write of its own, while watches of one resource due in the same second share a tick. The tick is 1/60 of
 * the interval (one second at kube-apiserver's minute; tests use short intervals).
 */
export function bookmarkSendAt(dueAtMs: number, intervalMs: number, cacherSeed: number): number {
  const tickMs = intervalMs / 60;
  const bucket = Math.floor(dueAtMs / tickMs);
  return (bucket + 1.25 * unitHash(cacherSeed, bucket)) * tickMs;
}

/** A number in [0, 1) that depends only on the two integers (the same cacher's tick for one bucket). */
function unitHash(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b | 0, 0xc2b2ae35) ^ Math.imul(Math.floor(b / 2 ** 32), 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}
