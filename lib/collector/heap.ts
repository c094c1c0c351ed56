// The collector's Node.js flags and what it does with its heap once it has settled. The chart's command,
// `npm run collector`, the demo and the benchmark's worker start it with the flags (heap.test.ts and the
// chart test check the command lines).
//
// --no-memory-reducer: the collector's heap is mostly long-lived state (~250 MB at 1,000 clusters) and it
// idles between changes; V8's memory reducer answers idling with up to three full collections after each one
// (and a watchdog one after 100 s without any) to hand back pages the next facts reads take again: 0.054 →
// 0.033 cores idle at 1,000 clusters, peak RSS unchanged. It must be on the command line: set from inside
// the process (v8.setFlagsFromString) the reducer was measured to keep running. Figures: docs/collector.md.
//
// --expose-gc: lets the collector compact its heap once a cold start (or any other burst) has settled; see
// compactionDue below.
//
// Tried and not kept: --min-semi-space-size=4 (idle scavenges 25–44 → 8, the idle total unchanged; docs/collector.md).
import v8 from "node:v8";

export const COLLECTOR_NODE_FLAGS: readonly string[] = ["--no-memory-reducer", "--expose-gc"];

const MB = 1024 * 1024;

/** A heap this large after a burst is compacted (a small fleet's never is)… */
export const COMPACTION_MIN_HEAP_BYTES = 128 * MB;
/** …and again once it has grown this much since the last compaction left it… */
export const COMPACTION_GROWTH = 1.5;
/** …but at most once per this long (each is a pause of up to a second at 1,000 clusters). */
export const COMPACTION_MIN_GAP_MS = 10 * 60_000;

export interface HeapReading {
  /** Bytes of the heap's pages (V8's total_heap_size). */
  totalBytes: number;
  /** Bytes of objects in them, garbage not yet collected included (used_heap_size). */
  usedBytes: number;
}

/**
 * Whether a settled collector should compact its heap now. A cold start parses every cluster's lists: at
 * 1,000 clusters it leaves 480 MB of heap pages that hold 257 MB of live objects once collected, and V8 on its
 * own evacuates only a few MB of such pages per full collection, so the holes stay. An idle collector then
 * pays for them in every young-generation collection and in resident memory (measured at 1,000 clusters:
 * 780–820 MB resident after the idle window, 600 MB compacted). Which part of a heap is holes only a full
 * collection can tell (until then dead objects count as used), so the rule looks at growth instead: the first
 * settled heap of 128 MB or more is compacted, and later ones that grew by half since the last compaction left
 * them (a burst of relists, or a replica taking over another's clusters), at most once per ten minutes.
 */
export function compactionDue(totalBytes: number, last: { atMs: number; totalBytes: number } | null, nowMs: number): boolean {
  if (totalBytes < COMPACTION_MIN_HEAP_BYTES) return false;
  if (!last) return true;
  return nowMs - last.atMs >= COMPACTION_MIN_GAP_MS && totalBytes >= COMPACTION_GROWTH * last.totalBytes;
}

export function readHeap(): HeapReading {
  const stats = v8.getHeapStatistics();
  return { totalBytes: stats.total_heap_size, usedBytes: stats.used_heap_size };
}

export interface Compaction {
  before: HeapReading;
  after: HeapReading;
  pauseMs: number;
}

type FullCollection = () => void;

/** V8's full collection when the process was started with --expose-gc, else null. */
export function exposedGc(): FullCollection | null {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === "function" ? (gc as FullCollection) : null;
}

/**
 * One full collection that evacuates every page (V8's --compact-on-every-full-gc, switched on for this one
 * collection only: Node.js documents toggling GC flags at run time, and V8 reads this one at each collection).
 * Null when there is no collection to call (started without --expose-gc).
 */
export function compactHeap(gc: FullCollection | null = exposedGc()): Compaction | null {
  if (!gc) return null;
  const before = readHeap();
  const started = performance.now();
  v8.setFlagsFromString("--compact-on-every-full-gc");
  try {
    gc();
  } finally {
    v8.setFlagsFromString("--no-compact-on-every-full-gc");
  }
  return { before, after: readHeap(), pauseMs: performance.now() - started };
}
