import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { parsePeakRss, PeakRss } from "./peak-rss";

const MB = 1024 * 1024;

/** 64 MiB made resident and given back (a worker thread that touches a buffer, then ends). */
async function briefly64MiB(): Promise<void> {
  const worker = new Worker("const b = Buffer.alloc(64 * 1024 * 1024, 1); require('worker_threads').parentPort.postMessage(b[12345]);", {
    eval: true,
  });
  await once(worker, "message");
  await worker.terminate();
}

describe("PeakRss", () => {
  it("reads VmHWM from a status text", () => {
    expect(parsePeakRss("Name:\tnode\nVmPeak:\t 1000 kB\nVmHWM:\t  873412 kB\nVmRSS:\t  839000 kB\n")).toBe(873412 * 1024);
    expect(parsePeakRss("Name:\tnode\n")).toBeNull();
  });

  it("sees a peak that is gone before anyone samples, and lowers the mark when a phase starts", async () => {
    const peak = new PeakRss();
    peak.reset();
    const before = process.memoryUsage.rss();
    await briefly64MiB();
    const after = process.memoryUsage.rss();
    expect(peak.read()).toBeGreaterThanOrEqual(before + 60 * MB);
    peak.reset();
    expect(peak.resettable).toBe(true); // Linux ≥ 4.0 lets a process reset its own mark
    expect(peak.read()).toBeLessThan(Math.max(before, after) + 60 * MB);
  });
});
