// Garbage collections during a window, as V8 reports them to perf_hooks: how many of each kind and how long
// they held the main thread. The bench prints them for watch mode's idle window, where a perf profile put a
// tenth of the collector's CPU in scavenges of its young generation.
import { constants, type PerformanceEntry, PerformanceObserver } from "node:perf_hooks";

export interface GcCounts {
  scavenges: number;
  scavengeMs: number;
  markCompacts: number;
  markCompactMs: number;
  /** Incremental marking steps and weak callbacks. */
  other: number;
  otherMs: number;
}

/** Starts counting; `stop()` ends it and returns the counts. */
export function watchGc(): { stop(): GcCounts } {
  const counts: GcCounts = { scavenges: 0, scavengeMs: 0, markCompacts: 0, markCompactMs: 0, other: 0, otherMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) addGc(counts, kindOf(entry), entry.duration);
  });
  observer.observe({ entryTypes: ["gc"] });
  return {
    stop() {
      for (const entry of observer.takeRecords()) addGc(counts, kindOf(entry), entry.duration);
      observer.disconnect();
      return counts;
    },
  };
}

/** A gc entry's kind (NODE_PERFORMANCE_GC_*), in its `detail` since Node.js 16. */
const kindOf = (entry: PerformanceEntry) => ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail ?? {}).kind;

export function addGc(counts: GcCounts, kind: number | undefined, ms: number): void {
  if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
    counts.scavenges++;
    counts.scavengeMs += ms;
  } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
    counts.markCompacts++;
    counts.markCompactMs += ms;
  } else {
    counts.other++;
    counts.otherMs += ms;
  }
}

export function describeGc(counts: GcCounts): string {
  const part = (n: number, ms: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"} (${ms.toFixed(0)} ms)`;
  return [
    part(counts.scavenges, counts.scavengeMs, "scavenge"),
    part(counts.markCompacts, counts.markCompactMs, "mark-compact"),
    part(counts.other, counts.otherMs, "other collection"),
  ].join(", ");
}
