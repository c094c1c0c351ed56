// The collector's Node.js flags: the chart's command, `npm run collector`, the demo and the benchmark's
// worker start it with them (heap.test.ts and the chart test check the command lines).
//
// --no-memory-reducer: the collector's heap is mostly long-lived state (~250 MB at 1,000 clusters) and it
// idles between changes; V8's memory reducer answers idling with up to three full collections after each one
// (and a watchdog one after 100 s without any) to hand back pages the next facts reads take again: 0.054 →
// 0.033 cores idle at 1,000 clusters, peak RSS unchanged. It must be on the command line: set from inside
// the process (v8.setFlagsFromString) the reducer was measured to keep running. Figures: docs/collector.md.
//
// --min-semi-space-size=4: a young generation of at least 2 × 4 MB. Idle at 1,000 clusters the collector
// allocates about 0.3 MB a second (mostly Node.js's own per-frame objects for the bookmarks it receives), and V8
// shrinks a slow-allocating young generation to 1 MB, so it scavenged every 3–5 s; each scavenge took 3–4 ms of
// the main thread however little survived, most of it outside the phases V8 reports (a walk over every
// old-generation page, ~1,900 after a cold start). With the floor: 8 scavenges (51–63 ms) in the 2-minute idle
// window instead of 25–44 (100–167 ms). 16 MB was tried: 4–5 scavenges, and no gain in total.
export const COLLECTOR_NODE_FLAGS: readonly string[] = ["--no-memory-reducer", "--min-semi-space-size=4"];
