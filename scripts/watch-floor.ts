// node <the collector's flags> --import tsx scripts/watch-floor.ts --kubeconfig FILE [--idle-seconds S]
//                                [--spread-seconds P] [--warm-seconds W] [--window-at MS]
// (scripts/lib/watch-floor.ts starts it with lib/collector/heap.ts's flags, as the collector runs.)
// The floor under a watching collector's idle CPU: what Node.js itself spends holding a fleet's watches
// open, with nothing of ours on top. For every context of FILE (the simulator's fleet.kubeconfig) one TLS
// HTTP/2 connection carries the same watches a collector session opens (each Flux kind, nodes, Warning
// Events, with bookmarks), each started from a LIST's resourceVersion; every frame is counted and dropped
// (no decoding, no parsing, no database). The clusters start evenly over --spread-seconds (default 60);
// after --warm-seconds more (default 65, a margin for windows that are not whole minutes: a watch open when a
// window of whole minutes starts sends one bookmark per minute of it, whatever its phase) the process's
// own CPU is measured over --idle-seconds; with --window-at (epoch milliseconds) the window
// starts then instead, so that it is the same two minutes as another process's (`warmSecondsBeforeWindow`
// says how long the watches had been open). `npm run bench` measures it in the collector's own idle window:
// the collector's CPU divided by this is what our code costs on top of the platform, on the machine as it
// was in those minutes. The last line is one JSON object.
import http2 from "node:http2";
import { parseArgs } from "node:util";
import { KubeConfig } from "@kubernetes/client-node";
import { resourcePath } from "../lib/kube/watch/resource-watch";
import { clusterWatchResources } from "../lib/kube/watch/resources";
import { describeThreadCpu, threadCpu } from "./lib/machine-cpu";

const { values } = parseArgs({
  options: {
    kubeconfig: { type: "string" },
    "idle-seconds": { type: "string", default: "120" },
    "warm-seconds": { type: "string", default: "65" },
    "spread-seconds": { type: "string", default: "60" },
    "window-at": { type: "string" },
  },
  strict: true,
});
if (!values.kubeconfig) {
  console.error("usage: watch-floor.ts --kubeconfig FILE [--idle-seconds S] [--spread-seconds P] [--warm-seconds W]");
  process.exit(2);
}
const idleSeconds = Number(values["idle-seconds"]);
const warmSeconds = Number(values["warm-seconds"]);
const spreadSeconds = Number(values["spread-seconds"]);

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(values.kubeconfig);
const paths = clusterWatchResources().map((r) => ({ path: resourcePath(r), fieldSelector: r.fieldSelector }));

let frames = 0;
let bytes = 0;
let failedClusters = 0;
/** Watch streams answered 200 and still open (a stream the server ended or refused is not reopened here). */
let openWatches = 0;
const refused = new Map<string, number>();
const sessions: http2.ClientHttp2Session[] = [];

function get(session: http2.ClientHttp2Session, path: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ":path": path, authorization: `Bearer ${token}` });
    stream.setEncoding("utf8");
    let body = "";
    let status = 0;
    stream.on("response", (headers) => (status = Number(headers[":status"])));
    stream.on("data", (chunk: string) => (body += chunk));
    stream.on("end", () => resolve({ status, body }));
    stream.on("error", reject);
  });
}

async function watchCluster(server: string, ca: string, token: string): Promise<void> {
  const session = http2.connect(server, { ca, settings: { enablePush: false } });
  session.on("error", () => undefined);
  sessions.push(session);
  for (const { path, fieldSelector } of paths) {
    const selector = fieldSelector ? `&fieldSelector=${encodeURIComponent(fieldSelector)}` : "";
    const list = await get(session, `${path}?limit=1${selector}`, token);
    if (list.status !== 200) throw new Error(`HTTP ${list.status} listing ${path}`);
    const rv = (JSON.parse(list.body) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion ?? "";
    const stream = session.request({
      ":path": `${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}&timeoutSeconds=3600${selector}`,
      authorization: `Bearer ${token}`,
    });
    stream.on("response", (headers) => {
      const status = String(headers[":status"]);
      if (status === "200") openWatches++;
      else refused.set(status, (refused.get(status) ?? 0) + 1);
      stream.once("close", () => {
        if (status === "200") openWatches--;
      });
    });
    stream.on("data", (chunk: Buffer) => {
      frames++;
      bytes += chunk.length;
    });
    stream.on("error", () => undefined);
  }
}

const started = Date.now();
const clusters = kubeConfig.getContexts().map((context) => {
  const cluster = kubeConfig.getCluster(context.cluster)!;
  const token = kubeConfig.getUser(context.user)?.token ?? "";
  return { server: cluster.server, ca: Buffer.from(cluster.caData ?? "", "base64").toString("utf8"), token };
});
// The clusters' watches start evenly over one bookmark interval, as a collector's cold start spreads them:
// kube-apiserver sends each watch's bookmarks about a minute apart from its start, so clusters started
// together would get theirs in one burst a minute (and a short window could miss them all).
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
await Promise.all(
  clusters.map(async ({ server, ca, token }, i) => {
    await sleep((i * spreadSeconds * 1000) / clusters.length);
    await watchCluster(server, ca, token).catch(() => failedClusters++);
  }),
);
const openSeconds = (Date.now() - started) / 1000;
const openedAt = Date.now();
await sleep(values["window-at"] ? Math.max(0, Number(values["window-at"]) - Date.now()) : warmSeconds * 1000);
const warmSecondsBeforeWindow = (Date.now() - openedAt) / 1000;
const watchesAtStart = openWatches;
const cpu0 = process.cpuUsage();
const threads0 = threadCpu();
const frames0 = frames;
const t0 = performance.now();
await sleep(idleSeconds * 1000);
const cpu = process.cpuUsage(cpu0);
const seconds = (performance.now() - t0) / 1000;
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const windowFrames = frames - frames0;
const threads = describeThreadCpu(threads0, threadCpu(), seconds);
for (const session of sessions) session.destroy();
console.log(
  JSON.stringify({
    clusters: clusters.length - failedClusters,
    failedClusters,
    watchesPerCluster: paths.length,
    openWatchesAtStart: watchesAtStart,
    openWatchesAtEnd: openWatches,
    refusedWatches: Object.fromEntries(refused),
    openSeconds: Number(openSeconds.toFixed(1)),
    warmSecondsBeforeWindow: Number(warmSecondsBeforeWindow.toFixed(1)),
    idleSeconds: Number(seconds.toFixed(1)),
    floorCpuCores: Number((cpuSeconds / seconds).toFixed(4)),
    framesPerMinute: Math.round((windowFrames / seconds) * 60),
    microsecondsPerFrame: windowFrames ? Number(((cpuSeconds * 1e6) / windowFrames).toFixed(1)) : null,
    bytesReceived: bytes,
    threads,
  }),
);
process.exit(0);
