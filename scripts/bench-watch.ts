// npm run bench:watch -- [--clusters N] [--objects M] [--idle-seconds S] [--churn R] [--churn-seconds S]
//                        [--poll-concurrency C] [--h1-sample K] [--watch-timeout S] [--no-bookmarks]
// What watching a fleet costs the collector side, against the simulator in its own process (simulated
// time frozen; only the churn knob changes objects). Every cluster gets one watch engine with the six Flux
// kinds, nodes and Warning events (8 watches). Phases:
//   cold start  every cluster listed and watching (time, CPU);
//   idle        nothing changes for --idle-seconds: CPU per minute, requests, RSS, sockets per cluster;
//   churn       the simulator changes --churn objects per second: simulator change → engine callback
//               latency (p50/p95/max), changes missed or seen twice;
//   HTTP/1.1    a sample of clusters watched without h2: sockets per cluster;
//   poll        the baseline: the same 8 resources LISTed for every cluster, as the poller does each minute.
// No database work: this is the Kubernetes side of watch vs poll. The last line is one JSON object.
import type { ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { parse as parseYaml } from "yaml";

const { values } = parseArgs({
  options: {
    clusters: { type: "string", default: "200" },
    objects: { type: "string", default: "150" },
    "idle-seconds": { type: "string", default: "60" },
    churn: { type: "string", default: "20" },
    "churn-seconds": { type: "string", default: "60" },
    "poll-concurrency": { type: "string", default: "48" },
    "h1-sample": { type: "string", default: "20" },
    "start-concurrency": { type: "string", default: "32" },
    "watch-timeout": { type: "string", default: "1800" },
    "no-bookmarks": { type: "boolean", default: false },
    help: { type: "boolean", short: "h" },
  },
  strict: true,
});
if (values.help) {
  console.log(
    "usage: npm run bench:watch -- [--clusters N] [--objects M] [--idle-seconds S] [--churn R] [--churn-seconds S] [--poll-concurrency C] [--h1-sample K] [--watch-timeout S] [--no-bookmarks]",
  );
  process.exit(0);
}
const num = (name: keyof typeof values, integer = true) => {
  const value = Number(values[name]);
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value)))
    throw new Error(`--${name} must be a non-negative number`);
  return value;
};
const clusters = num("clusters");
const objects = num("objects");
const idleSeconds = num("idle-seconds", false);
const churnRate = num("churn", false);
const churnSeconds = num("churn-seconds", false);
const pollConcurrency = num("poll-concurrency");
const h1Sample = num("h1-sample");
const startConcurrency = num("start-concurrency");
const minWatchTimeoutSeconds = num("watch-timeout");
const allowWatchBookmarks = !values["no-bookmarks"];
process.env.LOG_LEVEL ??= "warn";

const { createWatchEngine } = await import("../lib/kube/watch/engine");
const { fromParts } = await import("../lib/kube/kubeconfig");
const { createClusterClient, releaseAgents } = await import("../lib/kube/client");
const { listAll } = await import("../lib/kube/list");
const { mapLimit } = await import("../lib/concurrency");
const { clusterWatchResources } = await import("../lib/kube/watch/resources");
const { processCpuSeconds, startBenchSimulator } = await import("./lib/processes");
const { cpuBetween } = await import("./lib/machine-cpu");
const { PeakRss } = await import("./lib/peak-rss");
type WatchEngine = ReturnType<typeof createWatchEngine>;

const RESOURCES = clusterWatchResources();

const work = mkdtempSync(path.join(os.tmpdir(), "crows-nest-bench-watch-"));
chmodSync(work, 0o755);
const simDir = path.join(work, "sim");
let simulator: ChildProcess | undefined;
process.on("exit", () => simulator?.kill("SIGTERM"));

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null;
// The process's peak from the kernel's high-water mark, not a sampler inside the process whose CPU is measured.
const peak = new PeakRss();

async function startSimulatorProcess(): Promise<{ controlUrl: string }> {
  const started = await startBenchSimulator({ outDir: simDir, clusters, objects }, { ...process.env, LOG_LEVEL: "error" });
  simulator = started.child;
  const control = /control (\S+?),/.exec(started.readyLine)?.[1];
  if (!control) throw new Error(`no control URL in the simulator's ready line: ${started.readyLine}`);
  return { controlUrl: control };
}

interface SimState {
  clusters: { name: string; objects: number; reachable: boolean }[];
}
interface ChurnLog {
  total: number;
  changes: { seq: number; at: number; cluster: string; kind: string; namespace: string; name: string; resourceVersion: string }[];
}

async function control<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

async function main() {
  console.log(
    `Crow's Nest watch benchmark: ${clusters} clusters (hub included) x ~${objects} Flux objects, ${RESOURCES.length} watches per cluster ` +
      `(timeouts ${minWatchTimeoutSeconds}–${2 * minWatchTimeoutSeconds} s, bookmarks ${allowWatchBookmarks ? "on" : "off"}), ${os.cpus().length} cores`,
  );
  const { controlUrl } = await startSimulatorProcess();
  // Wait until every cluster is loaded, so cold start measures the collector side, not the simulator's loading.
  const loadStarted = Date.now();
  for (;;) {
    const state = await control<SimState>(`${controlUrl}/state`);
    // Clusters Crossplane is still creating are unreachable and hold nothing.
    if (state.clusters.every((cluster) => cluster.objects > 0 || !cluster.reachable)) break;
    await sleep(1000);
  }
  console.log(`  simulator ready and loaded in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s`);
  const simPid = simulator?.pid;

  const fleet = parseYaml(readFileSync(path.join(simDir, "fleet.kubeconfig"), "utf8")) as {
    clusters: { name: string; cluster: { server: string; "certificate-authority-data": string } }[];
    users: { user: { token: string } }[];
  };
  const token = fleet.users[0].user.token;
  const kubeConfigOf = (entry: (typeof fleet.clusters)[number]) =>
    fromParts({ name: entry.name, server: entry.cluster.server, caData: entry.cluster["certificate-authority-data"], token });

  // --- cold start ------------------------------------------------------------------------------------
  const seen = new Map<string, number>(); // cluster|key|rv of modified events → when the engine delivered it
  let duplicates = 0;
  let relists = 0;
  let fallbacks = 0;
  let added = 0;
  const engines: { name: string; engine: WatchEngine }[] = fleet.clusters.map((entry) => ({
    name: entry.name,
    engine: createWatchEngine({
      cluster: entry.name,
      kubeConfig: kubeConfigOf(entry),
      resources: RESOURCES,
      minWatchTimeoutSeconds,
      allowWatchBookmarks,
      onEvent: (event) => {
        if (event.type === "added") added++;
        else if (event.type === "relisted") relists++;
        else if (event.type === "modified") {
          const metadata = event.object.metadata as { namespace?: string; name: string; resourceVersion: string };
          const key = `${entry.name}|${event.object.kind as string}|${metadata.namespace ?? ""}/${metadata.name}|${metadata.resourceVersion}`;
          if (seen.has(key)) duplicates++;
          else seen.set(key, Date.now());
        }
      },
      onFallback: () => fallbacks++,
    }),
  }));
  const cold0 = process.cpuUsage();
  const coldStarted = Date.now();
  await mapLimit(engines, startConcurrency, ({ engine }) => engine.start());
  const coldStartSeconds = (Date.now() - coldStarted) / 1000;
  const coldCpuSeconds = cpuSeconds(cold0);
  // Clusters Crossplane is still creating (or a scenario's unreachable spoke) cannot be listed: they keep
  // retrying, and per-cluster figures are taken over the others.
  const listed = engines.filter(({ engine }) => engine.health().resources.every((resource) => resource.lists > 0));
  const unhealthy = engines.length - listed.length;
  const sum = (pick: (health: ReturnType<WatchEngine["health"]>) => number) =>
    engines.reduce((total, { engine }) => total + pick(engine.health()), 0);
  console.log(
    `  cold start: ${coldStartSeconds.toFixed(1)} s, CPU ${coldCpuSeconds.toFixed(1)} s, ${added} objects listed, ${sum((h) => h.requests)} requests` +
      `${unhealthy ? `, ${unhealthy} clusters not listed` : ""}`,
  );
  await sleep(3000); // every watch open
  // The steady state is what matters: collect the cold start's garbage now (npm run bench:watch passes
  // --expose-gc), instead of inside the idle window.
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();

  // --- idle ------------------------------------------------------------------------------------------
  const requests0 = sum((h) => h.requests);
  const idle0 = process.cpuUsage();
  const simIdle0 = processCpuSeconds(simPid);
  const idleStarted = Date.now();
  await sleep(idleSeconds * 1000);
  const idleElapsed = (Date.now() - idleStarted) / 1000;
  const idleCpuCores = cpuSeconds(idle0) / idleElapsed;
  const idleRequestsPerMinute = ((sum((h) => h.requests) - requests0) / idleElapsed) * 60;
  const simIdleSeconds = cpuBetween(simIdle0, processCpuSeconds(simPid));
  const simIdleCores = simIdleSeconds === null ? null : simIdleSeconds / idleElapsed;
  const perListed = (pick: (health: ReturnType<WatchEngine["health"]>) => number) =>
    listed.reduce((total, { engine }) => total + pick(engine.health()), 0) / Math.max(1, listed.length);
  const h2Sockets = perListed((h) => h.openSockets);
  const h2Streams = perListed((h) => h.openStreams);
  const h2Connections = perListed((h) => h.connections);
  const idleRssMB = mb(process.memoryUsage().rss);
  console.log(
    `  idle ${idleElapsed.toFixed(0)} s: collector CPU ${(idleCpuCores * 60).toFixed(2)} s per minute (${idleCpuCores.toFixed(4)} cores), ` +
      `${idleRequestsPerMinute.toFixed(0)} requests per minute, RSS ${idleRssMB} MB; simulator ${simIdleCores === null ? "not readable" : `${simIdleCores.toFixed(3)} cores`}`,
  );
  console.log(
    `  h2: ${h2Sockets.toFixed(2)} sockets and ${h2Streams.toFixed(2)} open streams per listed cluster, ${h2Connections.toFixed(2)} connections opened per cluster so far`,
  );

  // --- churn -----------------------------------------------------------------------------------------
  let churn: Record<string, number | null> = { rate: churnRate, seconds: churnSeconds };
  if (churnRate > 0 && churnSeconds > 0) {
    const before = await control<ChurnLog>(`${controlUrl}/churn?limit=0`);
    const churn0 = process.cpuUsage();
    const churnStarted = Date.now();
    await control(`${controlUrl}/churn`, { method: "POST", body: JSON.stringify({ rate: churnRate }) });
    await sleep(churnSeconds * 1000);
    await control(`${controlUrl}/churn`, { method: "POST", body: JSON.stringify({ rate: 0 }) });
    const churnCores = cpuSeconds(churn0) / ((Date.now() - churnStarted) / 1000);
    await sleep(5000); // the last changes arrive
    const log = await control<ChurnLog>(`${controlUrl}/churn?since=${before.total}&limit=1000000`);
    const latencies: number[] = [];
    let missed = 0;
    for (const change of log.changes) {
      const at = seen.get(`${change.cluster}|${change.kind}|${change.namespace}/${change.name}|${change.resourceVersion}`);
      if (at === undefined) missed++;
      else latencies.push(at - change.at);
    }
    latencies.sort((a, b) => a - b);
    churn = {
      rate: churnRate,
      seconds: churnSeconds,
      changesMade: log.changes.length,
      changesSeen: latencies.length,
      missed,
      duplicates,
      latencyP50Ms: percentile(latencies, 0.5),
      latencyP95Ms: percentile(latencies, 0.95),
      latencyMaxMs: latencies.at(-1) ?? null,
      collectorCpuCores: Number(churnCores.toFixed(4)),
    };
    console.log(
      `  churn ${churnRate}/s for ${churnSeconds} s: ${log.changes.length} changes made, ${latencies.length} seen, ${missed} missed, ${duplicates} seen twice; ` +
        `change → engine callback p50 ${churn.latencyP50Ms} ms, p95 ${churn.latencyP95Ms} ms, max ${churn.latencyMaxMs} ms; collector ${churnCores.toFixed(3)} cores`,
    );
  }
  const relistsDuringRun = relists;
  const fallbacksDuringRun = fallbacks;
  const watchRequests = sum((h) => h.requests);
  await Promise.all(engines.map(({ engine }) => engine.stop()));
  const socketsAfterStop = sum((h) => h.openSockets);

  // --- HTTP/1.1 sample -------------------------------------------------------------------------------
  const sample = fleet.clusters.slice(0, Math.min(h1Sample, fleet.clusters.length));
  const h1Engines = sample.map((entry) =>
    createWatchEngine({
      cluster: entry.name,
      kubeConfig: kubeConfigOf(entry),
      resources: RESOURCES,
      protocol: "http1",
      onEvent: () => undefined,
    }),
  );
  await mapLimit(h1Engines, startConcurrency, (engine) => engine.start());
  await sleep(3000);
  const h1Sockets = h1Engines.reduce((total, engine) => total + engine.health().openSockets, 0) / Math.max(1, h1Engines.length);
  await Promise.all(h1Engines.map((engine) => engine.stop()));
  console.log(`  HTTP/1.1 (${sample.length} clusters): ${h1Sockets.toFixed(2)} sockets per cluster`);

  // --- poll baseline ---------------------------------------------------------------------------------
  let pollRequests = 0;
  const pollCycle = async () => {
    const started = Date.now();
    const cpu0 = process.cpuUsage();
    let failed = 0;
    await mapLimit(fleet.clusters, pollConcurrency, async (entry) => {
      const client = createClusterClient(`bench-${entry.name}`, kubeConfigOf(entry), {
        timeoutMs: 15_000,
        onRequest: () => pollRequests++,
      });
      try {
        for (const resource of RESOURCES) {
          const prefix = resource.group ? `/apis/${resource.group}/${resource.version}` : `/api/${resource.version}`;
          await listAll(client, `${prefix}/${resource.plural}`, { fieldSelector: resource.fieldSelector });
        }
      } catch {
        failed++;
      }
    });
    return { seconds: (Date.now() - started) / 1000, cpuSeconds: cpuSeconds(cpu0), failed };
  };
  await pollCycle(); // cold: TLS handshakes
  pollRequests = 0;
  const poll = await pollCycle();
  const pollSockets = 2; // the poller's keep-alive agent keeps at most two sockets per cluster
  releaseAgents();
  console.log(
    `  poll baseline (LIST the same ${RESOURCES.length} resources every 60 s): a cycle takes ${poll.seconds.toFixed(1)} s and ${poll.cpuSeconds.toFixed(1)} s CPU ` +
      `(${(poll.cpuSeconds / 60).toFixed(4)} cores at one cycle a minute), ${pollRequests} requests${poll.failed ? `, ${poll.failed} clusters failed` : ""}`,
  );
  const ratio = idleCpuCores > 0 ? poll.cpuSeconds / 60 / idleCpuCores : null;
  if (ratio) console.log(`  polling every minute costs ${ratio.toFixed(1)}x the CPU of idle watching`);

  const figures = {
    clusters,
    clustersListed: listed.length,
    objects,
    watchesPerCluster: RESOURCES.length,
    minWatchTimeoutSeconds,
    allowWatchBookmarks,
    cores: os.cpus().length,
    coldStartSeconds: Number(coldStartSeconds.toFixed(1)),
    coldCpuSeconds: Number(coldCpuSeconds.toFixed(1)),
    idleSeconds: Number(idleElapsed.toFixed(0)),
    idleCpuSecondsPerMinute: Number((idleCpuCores * 60).toFixed(3)),
    idleCpuCores: Number(idleCpuCores.toFixed(4)),
    idleRequestsPerMinute: Math.round(idleRequestsPerMinute),
    idleRssMB,
    peakRssMB: mb(peak.read()),
    simulatorIdleCores: simIdleCores === null ? null : Number(simIdleCores.toFixed(3)),
    h2SocketsPerCluster: Number(h2Sockets.toFixed(2)),
    h2StreamsPerCluster: Number(h2Streams.toFixed(2)),
    h1SocketsPerCluster: Number(h1Sockets.toFixed(2)),
    h1SampleClusters: sample.length,
    socketsAfterStop,
    watchRequests,
    relists: relistsDuringRun,
    fallbacks: fallbacksDuringRun,
    churn,
    poll: {
      intervalSeconds: 60,
      cycleSeconds: Number(poll.seconds.toFixed(1)),
      cpuSecondsPerCycle: Number(poll.cpuSeconds.toFixed(2)),
      cpuCores: Number((poll.cpuSeconds / 60).toFixed(4)),
      requestsPerCycle: pollRequests,
      socketsPerCluster: pollSockets,
      failedClusters: poll.failed,
    },
    idleCpuVsPoll: ratio === null ? null : Number(ratio.toFixed(1)),
  };
  simulator?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
  console.log(JSON.stringify(figures));
  process.exit(0);
}

main().catch((err) => {
  console.error(`bench:watch failed: ${err instanceof Error ? err.message : String(err)}`);
  simulator?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
