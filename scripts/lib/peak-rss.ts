// A process's peak resident set size by phase, from the kernel's own high-water mark (VmHWM in
// /proc/self/status), reset when a phase starts (writing 5 to /proc/self/clear_refs). The bench measured it
// before with a sampler that read the RSS ten times a second inside the collector, whose CPU is the figure
// being measured: perf put 5% of the collector's idle CPU in those reads. The kernel's mark also sees a peak
// between two samples. Where the mark cannot be reset (an old kernel, a locked-down /proc), phases report the
// peak since the process started, and say so.

import { readFileSync, writeFileSync } from "node:fs";

/** VmHWM of a /proc/<pid>/status text, in bytes (null when absent). */
export function parsePeakRss(status: string): number | null {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : null;
}

export class PeakRss {
  /** The mark was reset at the last phase's start: a phase's peak is its own. */
  resettable = true;

  /** Starts a phase: the mark is lowered to the RSS now. */
  reset(): void {
    try {
      writeFileSync("/proc/self/clear_refs", "5");
    } catch {
      this.resettable = false;
    }
  }

  /** The peak (bytes) since the last reset, or since the process started when the mark cannot be reset. */
  read(): number {
    try {
      return parsePeakRss(readFileSync("/proc/self/status", "utf8")) ?? process.memoryUsage.rss();
    } catch {
      return process.memoryUsage.rss();
    }
  }
}
