import { constants } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { addGc, describeGc, type GcCounts, watchGc } from "./gc-watch";

describe("garbage collections in a window", () => {
  it("counts each kind apart and says so", () => {
    const counts: GcCounts = { scavenges: 0, scavengeMs: 0, markCompacts: 0, markCompactMs: 0, other: 0, otherMs: 0 };
    addGc(counts, constants.NODE_PERFORMANCE_GC_MINOR, 1.5);
    addGc(counts, constants.NODE_PERFORMANCE_GC_MINOR, 2.5);
    addGc(counts, constants.NODE_PERFORMANCE_GC_MAJOR, 40);
    addGc(counts, constants.NODE_PERFORMANCE_GC_INCREMENTAL, 3);
    expect(describeGc(counts)).toBe("2 scavenges (4 ms), 1 mark-compact (40 ms), 1 other collection (3 ms)");
  });

  it("sees the scavenges that garbage causes", async () => {
    const gc = watchGc();
    let keep = 0;
    for (let i = 0; i < 200_000; i++) keep += JSON.stringify({ i, text: "x".repeat(100) }).length; // ~30 MB of garbage
    await new Promise((resolve) => setTimeout(resolve, 50)); // entries are delivered asynchronously
    const counts = gc.stop();
    expect(keep).toBeGreaterThan(0);
    expect(counts.scavenges).toBeGreaterThan(0);
  });
});
