// When kube-apiserver's watch cache sends a watch's periodic bookmark: the pure rule the simulator's watches
// follow (watch.ts), apart from their timers so that it can be tested alone.
import { hashSeed, seededRandom } from "./faults";

/**
 * When kube-apiserver sends a bookmark due at `dueAtMs`. Its cacher (one per resource) keeps watchers in
 * one-second buckets of their due time and pops them from a timer that ticks every 1–1.25 s
 * (`wait.Jitter(time.Second, 0.25)`): a bookmark goes out at its resource's first tick once its second has
 * begun (up to a second before or 1.25 s after it is due), and the next is due a minute after that. So one
 * connection's watches of different resources get their bookmarks at their resources' own ticks, each in a
 * write of its own, while watches of one resource due in the same second share a tick. The tick is 1/60 of
 * the interval (one second at kube-apiserver's minute; tests use short intervals).
 */
export function bookmarkSendAt(dueAtMs: number, intervalMs: number, seed: number): number {
  const tickMs = intervalMs / 60;
  const bucket = Math.floor(dueAtMs / tickMs);
  // The tick's place in its bucket: the same for every watch of one cacher (seed) in one bucket.
  return (bucket + 1.25 * seededRandom(hashSeed(String(bucket), seed))()) * tickMs;
}

/** A cacher's seed: one per cluster and resource, the same in every run (the simulator's faults are seeded too). */
export function cacherSeed(clusterName: string, resource: string): number {
  return hashSeed(`${clusterName}/${resource}`, 1);
}
