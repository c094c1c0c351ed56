// The collector's Node.js flags: the chart's command, `npm run collector`, the demo and the benchmark's
// worker start it with them (heap.test.ts and the chart test check the command lines).
//
// --no-memory-reducer: the collector's heap is mostly long-lived state (~250 MB at 1,000 clusters) and it
// idles between changes; V8's memory reducer answers idling with up to three full collections after each one
// (and a watchdog one after 100 s without any) to hand back pages the next facts reads take again: 0.054 →
// 0.033 cores idle at 1,000 clusters, peak RSS unchanged. It must be on the command line: set from inside
// the process (v8.setFlagsFromString) the reducer was measured to keep running. Figures: docs/collector.md.
//
// Tried and not kept: --min-semi-space-size=4 (idle scavenges 25–44 → 8, the idle total unchanged; docs/collector.md).
export const COLLECTOR_NODE_FLAGS: readonly string[] = ["--no-memory-reducer"];
