// The collector's Node.js flags reach the ways it is started outside the tests — `npm run collector` (here),
// the chart's command (deploy/helm/chart.test.ts); the demo and the benchmark spread the same constant — and
// this Node.js (20 and 24 in CI) starts with them: a flag it does not know stops the collector from starting.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COLLECTOR_NODE_FLAGS, COMPACTION_MIN_GAP_MS, compactHeap, compactionDue } from "./heap";

describe("the collector's Node.js flags", () => {
  it("are on npm run collector's command line, before the script", () => {
    const script: string = JSON.parse(readFileSync("package.json", "utf8")).scripts.collector;
    const words = script.split(/\s+/);
    expect(words[0]).toBe("node");
    const scriptAt = words.indexOf("lib/collector/main.ts");
    expect(scriptAt).toBeGreaterThan(0);
    for (const flag of COLLECTOR_NODE_FLAGS) {
      expect(words.indexOf(flag)).toBeGreaterThan(0);
      expect(words.indexOf(flag)).toBeLessThan(scriptAt);
    }
  });

  it("are known to this Node.js: it starts with them and says nothing", () => {
    const run = spawnSync(process.execPath, [...COLLECTOR_NODE_FLAGS, "-e", ""], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    const v8Options = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8" }).stdout;
    for (const flag of COLLECTOR_NODE_FLAGS) expect(v8Options).toContain(`--${flag.replace(/^--(no-)?/, "").replace(/=.*$/, "")} `);
  });
});

const MB = 1024 * 1024;

describe("compactionDue", () => {
  const now = 50 * 60_000;

  it("is due for the first settled heap of 128 MB or more (a cold start at 1,000 clusters leaves 480 MB)", () => {
    expect(compactionDue(480 * MB, null, now)).toBe(true);
    expect(compactionDue(128 * MB, null, now)).toBe(true);
  });

  it("is never due for a small heap (a small fleet's)", () => {
    expect(compactionDue(128 * MB - 1, null, now)).toBe(false);
    expect(compactionDue(100 * MB, { atMs: 0, totalBytes: 40 * MB }, now)).toBe(false);
  });

  it("is due again once the heap grew by half since the last compaction left it", () => {
    const last = { atMs: now - COMPACTION_MIN_GAP_MS, totalBytes: 262 * MB };
    expect(compactionDue(392 * MB, last, now)).toBe(false);
    expect(compactionDue(393 * MB, last, now)).toBe(true);
  });

  it("waits ten minutes after the last compaction, however much the heap grew", () => {
    expect(compactionDue(900 * MB, { atMs: now - COMPACTION_MIN_GAP_MS + 1, totalBytes: 262 * MB }, now)).toBe(false);
    expect(compactionDue(900 * MB, { atMs: now - COMPACTION_MIN_GAP_MS, totalBytes: 262 * MB }, now)).toBe(true);
  });
});

describe("compactHeap", () => {
  it("does nothing without a full collection to call (started without --expose-gc)", () => {
    expect(compactHeap(null)).toBeNull();
  });

  // A heap of promoted objects, three in four then dropped: a full collection leaves their space as holes
  // inside the pages, compactHeap's evacuates them, and the next ordinary one leaves holes again (the flag is
  // switched off after the one collection).
  it("empties the holes a full collection leaves, for that collection only", () => {
    const script = `
      import v8 from "node:v8";
      import { compactHeap, exposedGc } from "./lib/collector/heap.ts";
      const gc = exposedGc();
      // The old generation's pages less its objects (the young generation's reserved space is not holes).
      const holes = () => {
        const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === "old_space");
        return Math.round((old.space_size - old.space_used_size) / 1048576);
      };
      function fragment() {
        let all = [];
        for (let i = 0; i < 600000; i++) all.push({ i, items: [i, i + 1] });
        gc(); // promoted: the objects now live in old-generation pages
        const kept = all.filter((_, i) => i % 4 === 0);
        all = null;
        return kept;
      }
      const first = fragment();
      gc();
      const ordinary = holes();
      const compaction = compactHeap();
      const compacted = holes();
      const second = fragment();
      gc();
      const ordinaryAgain = holes();
      console.log(JSON.stringify({ ordinary, compacted, ordinaryAgain, kept: first.length + second.length, pauseMs: compaction.pauseMs }));
    `;
    const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    const result = JSON.parse(run.stdout.trim().split("\n").pop()!);
    expect(result.kept).toBe(300000);
    expect(result.ordinary).toBeGreaterThan(20);
    expect(result.compacted).toBeLessThan(result.ordinary / 4);
    expect(result.ordinaryAgain).toBeGreaterThan(20);
    expect(result.pauseMs).toBeGreaterThan(0);
  });
});
