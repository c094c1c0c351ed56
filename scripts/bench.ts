// npm run bench -- [--clusters N] [--objects M] [--churn R] [--churn-seconds S] [--idle-seconds S] [--concurrency C] [--baseline-sample K]
//                   [--reconcile-seconds S] [--browser-samples B] [--modes poll,watch] [--profile DIR]
// Starts the fleet simulator (its own process, simulated time frozen: only the churn knob changes objects)
// and runs the collector against it twice, each in a worker process of its own on a throw-away embedded
// PostgreSQL: first in poll mode (60 s interval), then in watch mode. Per mode it prints the cold start
// (every cluster listed, and watched in watch mode), the collector's CPU while nothing changes (watch mode:
// the first 120 s, and the whole --idle-seconds window with every periodic facts and EKS read), change →
// row latency under churn (--churn changes per second for --churn-seconds), changes made vs history rows
// written (lost, doubled), a real fleet's steady state (--reconcile-seconds of routine reconciles: every
// Kustomization and HelmRelease reconciling on its interval, as Flux writes it; CPU, rows, no history row),
// peak RSS, requests and sockets per cluster, and change → visible in an open browser
// page (the production web app and headless Chromium, --browser-samples tabs, after the collector's own
// figures: see scripts/lib/browser-latency.ts), and a restart (the collector stopped, a new process on the
// history it stored: how long until it is live again, and that it writes nothing); then a baseline of `kubectl get
// <kinds> -A -o json` per cluster, in a loop. The last line is one JSON object: poll mode's figures under
// the keys earlier runs printed, plus a `poll` and a `watch` object with the same figures for each mode.
import { execFile, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import v8 from "node:v8";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { promisify } from "node:util";
import pg from "pg";
import { measureChangeToBrowser, type BrowserLatency } from "./lib/browser-latency";
import { describeFloor, measureWatchFloor } from "./lib/watch-floor";
import { oneLine } from "../lib/errors";
import {
  describeMachine,
  describeThreadCpu,
  machineBetween,
  machineShares,
  speedProbeMs,
  threadCpu,
  type MachineShares,
} from "./lib/machine-cpu";
import { COLLECTOR_NODE_FLAGS } from "../lib/collector/heap";
import { bundleForNode } from "./lib/node-bundle";
import { cpuBetween } from "./lib/machine-cpu";
import { describeGc, watchGc } from "./lib/gc-watch";
import { PeakRss } from "./lib/peak-rss";
import { processCpuSeconds, startBenchSimulator } from "./lib/processes";
import { DEMO_DIST_DIR, ensureProductionBuild } from "./lib/web-build";

const run = promisify(execFile);

const { values } = parseArgs({
  options: {
    clusters: { type: "string", default: "1000" },
    objects: { type: "string", default: "150" },
    concurrency: { type: "string", default: "48" },
    churn: { type: "string", default: "20" },
    "churn-seconds": { type: "string", default: "60" },
    "idle-seconds": { type: "string", default: "300" },
    "reconcile-seconds": { type: "string", default: "120" },
    "speed-probe": { type: "string" },
    mode: { type: "string" },
    modes: { type: "string", default: "poll,watch" },
    profile: { type: "string" },
    control: { type: "string" },
    "sim-pid": { type: "string" },
    "baseline-sample": { type: "string", default: "20" },
    "browser-samples": { type: "string", default: "12" },
    worker: { type: "string" },
    "fleet-kubeconfig": { type: "string" },
    restart: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
  strict: true,
});
if (values.help) {
  console.log(
    "usage: npm run bench -- [--clusters N] [--objects M] [--churn R] [--churn-seconds S] [--idle-seconds S] [--concurrency C] [--baseline-sample K]\n" +
      "                        [--reconcile-seconds S] (0: no routine reconciles phase)\n" +
      "                        [--browser-samples B] (0: no browser phase) [--modes poll,watch] (which modes to run)\n" +
      "                        [--profile DIR] (a CPU profile per mode and phase, and a heap snapshot, for DevTools)",
  );
  process.exit(0);
}
const clusters = Number(values.clusters);
const objects = Number(values.objects);
const concurrency = Number(values.concurrency);
const baselineSample = Number(values["baseline-sample"]);
const browserSamples = Number(values["browser-samples"]);
if (!Number.isInteger(browserSamples) || browserSamples < 0) throw new Error("--browser-samples must be an integer ≥ 0");
const churnRate = Number(values.churn);
const churnSeconds = Number(values["churn-seconds"]);
const idleSeconds = Number(values["idle-seconds"]);
const reconcileSeconds = Number(values["reconcile-seconds"]);
for (const [name, v] of Object.entries({ clusters, objects, concurrency, baselineSample })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
}
const modes = values.modes.split(",").map((m) => m.trim());
if (!modes.length || modes.some((m) => m !== "poll" && m !== "watch"))
  throw new Error("--modes is a list of poll and watch, e.g. poll,watch");
for (const [name, v] of Object.entries({
  churn: churnRate,
  "churn-seconds": churnSeconds,
  "idle-seconds": idleSeconds,
  "reconcile-seconds": reconcileSeconds,
})) {
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} must be a number ≥ 0`);
}
/** The worker's compiled copy of this file (inside the repository, so that it finds node_modules). */
const BENCH_WORKER_BUNDLE = "dist/bench-worker.mjs";
/** Poll mode's interval, as deployed by default. */
const POLL_INTERVAL_SECONDS = 60;
/** Watch sessions' facts reads (versions, FluxReport, Events) and EKS reads, as deployed by default. */
const FACTS_INTERVAL_SECONDS = 300;
const EKS_INTERVAL_SECONDS = 300;
/** The goal's idle figure: this long with no change, before any periodic read is due. */
const QUIET_SECONDS = 120;
/**
 * From starting the floor process to its window (and the collector's): its watches open over 60 s, and the
 * last few seconds more. No warm-up beyond that: a watch open when a window of whole minutes starts sends
 * exactly one bookmark per minute of it, whatever its phase. A longer lead would push the window into the
 * periodic facts reads, due 300 s after the cold start's.
 */
const FLOOR_LEAD_SECONDS = 75;
/** The relist phase gives up after this long (a cluster whose lists keep failing never finishes). */
const RELIST_DEADLINE_SECONDS = 180;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ChurnLog {
  total: number;
  changes: Array<{ seq: number; at: number; cluster: string; kind: string; namespace: string; name: string }>;
}

async function control<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

const work = values.worker ?? mkdtempSync(path.join(os.tmpdir(), "crows-nest-bench-"));
mkdirSync(work, { recursive: true });
// As root the embedded PostgreSQL runs as the `postgres` user, which must be able to enter this folder.
chmodSync(work, 0o755);
const simDir = path.join(work, "sim");
/** Every simulated spoke as a context: the floor and the kubectl baseline read the fleet through it. */
const fleetKubeconfig = path.join(simDir, "fleet.kubeconfig");
const children: Array<{ kill: (signal?: NodeJS.Signals) => boolean }> = [];
const cleanup = () => {
  for (const c of children) c.kill("SIGTERM");
};
process.on("exit", cleanup);

function parseEnvFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]] = m[2];
  }
  return out;
}

async function startSimulatorProcess(): Promise<{ kubeconfig: string; awsEnv?: string; controlUrl: string }> {
  const { child, readyLine } = await startBenchSimulator({ outDir: simDir, clusters, objects });
  children.push(child);
  const kubeconfig = /kubeconfig (\S+?),? /.exec(readyLine + " ")?.[1] ?? path.join(simDir, "hub.kubeconfig");
  const awsEnv = /aws env (\S+?)[ ,(]/.exec(readyLine + " ")?.[1];
  const controlUrl = /control (\S+?),/.exec(readyLine)?.[1];
  if (!controlUrl) throw new Error(`no control URL in the simulator's ready line: ${readyLine}`);
  return { kubeconfig, awsEnv, controlUrl };
}

/** Orchestrator: simulator, then the collector in a worker process, then the kubectl baseline. */
async function main() {
  console.log(
    `Crow's Nest collector benchmark: ${clusters} clusters (hub included) x ~${objects} Flux objects, concurrency ${concurrency}`,
  );
  // A fixed piece of work timed now and before each mode's cold start: is the machine as fast then as now?
  const runStartProbe = speedProbeMs();
  console.log(`  speed probe at the start: ${runStartProbe} ms of CPU (JSON and hashing, best of five)`);
  if (browserSamples > 0) {
    // The browser phase serves the demo's production build: made (or found current) before anything is measured.
    const build = await ensureProductionBuild({
      root: process.cwd(),
      distDir: DEMO_DIST_DIR,
      verbose: false,
      onBuild: () => console.log("  building the web app for the browser phase (once; reused while the sources are unchanged)…"),
    });
    if (!build.reused) console.log(`  web app built in ${build.seconds} s`);
  }
  // The collector runs compiled, as the image and the Helm chart run it (scripts/lib/node-bundle.ts): the
  // worker is this file, bundled.
  await bundleForNode("scripts/bench.ts", BENCH_WORKER_BUNDLE);
  const simStarted = Date.now();
  const sim = await startSimulatorProcess();
  console.log(`  simulator ready in ${((Date.now() - simStarted) / 1000).toFixed(1)} s`);
  const simPid = (children[0] as { pid?: number }).pid;
  const simCpu0 = processCpuSeconds(simPid);

  // Every cluster loaded first, so cold start measures the collector, not the simulator's loading.
  for (;;) {
    const state = await control<{ clusters: Array<{ objects: number; reachable: boolean }> }>(`${sim.controlUrl}/state`);
    if (state.clusters.every((c) => c.objects > 0 || !c.reachable)) break;
    await sleep(1000);
  }
  console.log(
    `  simulator loaded in ${((Date.now() - simStarted) / 1000).toFixed(1)} s; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );

  // Each mode's collector runs in its own process (the AWS endpoints' CA, NODE_EXTRA_CA_CERTS, must be known
  // at start; RSS and CPU are its own).
  const workerEnv = {
    ...process.env,
    ...(sim.awsEnv ? parseEnvFile(sim.awsEnv) : {}),
    KUBECONFIG: sim.kubeconfig,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
  };
  const runMode = async (mode: "poll" | "watch") => {
    console.log(`${mode} mode:`);
    // The collector's own Node.js flags: the worker measures the collector as deployed.
    const args = [...COLLECTOR_NODE_FLAGS, "--expose-gc", BENCH_WORKER_BUNDLE, "--worker", path.join(work, mode)];
    args.push("--mode", mode, "--control", sim.controlUrl);
    if (simPid) args.push("--sim-pid", String(simPid));
    args.push("--concurrency", String(concurrency), "--churn", String(churnRate), "--churn-seconds", String(churnSeconds));
    args.push("--idle-seconds", String(idleSeconds), "--browser-samples", String(browserSamples));
    args.push("--reconcile-seconds", String(reconcileSeconds), "--speed-probe", String(runStartProbe));
    if (values.profile) args.push("--profile", path.resolve(values.profile));
    args.push("--fleet-kubeconfig", fleetKubeconfig);
    const { code, resultLine } = await runWorkerProcess(args, workerEnv, (line) => {
      if (line.startsWith("  ")) console.log(line);
    });
    if (code !== 0 || !resultLine) throw new Error(`${mode} collector worker failed (exit ${code})`);
    return JSON.parse(resultLine) as Record<string, number | string | null> & { mode: ModeFigures };
  };
  const measured = modes.includes("poll") ? await runMode("poll") : null;
  const watched = modes.includes("watch") ? await runMode("watch") : null;
  const simCpuSeconds = cpuBetween(simCpu0, processCpuSeconds(simPid));
  console.log(
    `  simulator CPU over ${modes.join(" and ")} mode: ${simCpuSeconds === null ? "not readable" : `${simCpuSeconds.toFixed(1)} s`}`,
  );

  // Baseline: what a script looping over `kubectl get <kinds> -A -o json` per cluster spends, sequentially.
  const kinds = [
    "kustomizations.kustomize.toolkit.fluxcd.io",
    "helmreleases.helm.toolkit.fluxcd.io",
    "gitrepositories.source.toolkit.fluxcd.io",
    "ocirepositories.source.toolkit.fluxcd.io",
    "helmrepositories.source.toolkit.fluxcd.io",
    "helmcharts.source.toolkit.fluxcd.io",
  ].join(",");
  const contexts = (await run("kubectl", ["--kubeconfig", fleetKubeconfig, "config", "get-contexts", "-o", "name"])).stdout
    .split("\n")
    .filter(Boolean);
  const sample = contexts.slice(0, Math.min(baselineSample, contexts.length));
  const b0 = Date.now();
  let baselineFailures = 0;
  for (const context of sample) {
    await run(
      "kubectl",
      ["--kubeconfig", fleetKubeconfig, "--context", context, "--request-timeout=15s", "get", kinds, "-A", "-o", "json"],
      {
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, KUBECACHEDIR: path.join(work, "kube-cache") },
      },
    ).catch(() => baselineFailures++);
  }
  const perCluster = (Date.now() - b0) / 1000 / sample.length;
  const baselineSeconds = perCluster * contexts.length;
  console.log(
    `  baseline: kubectl get <6 Flux kinds> -A -o json, ${perCluster.toFixed(2)} s per cluster over ${sample.length} clusters` +
      `${baselineFailures ? ` (${baselineFailures} failed)` : ""}, ${baselineSeconds.toFixed(0)} s for the fleet${sample.length < contexts.length ? " (extrapolated)" : ""}`,
  );
  const figures = {
    // Poll mode, under the keys earlier runs printed (null when poll mode was not run).
    clusters: (measured ?? watched)?.clusters ?? null,
    objects: (measured ?? watched)?.objects ?? null,
    cycleSeconds: measured?.cycleSeconds ?? null,
    coldCycleSeconds: measured?.coldCycleSeconds ?? null,
    cpuSeconds: measured?.cpuSeconds ?? null,
    coldCpuSeconds: measured?.coldCpuSeconds ?? null,
    simulatorCpuSeconds: simCpuSeconds === null ? null : Number(simCpuSeconds.toFixed(1)),
    peakRssMB: measured?.peakRssMB ?? null,
    requestsPerCycle: measured?.requestsPerCycle ?? null,
    failedClusters: measured?.failedClusters ?? null,
    historyRowsNoChangeCycle: measured?.historyRowsNoChangeCycle ?? null,
    rowsWrittenNoChangeCycle: measured?.rowsWrittenNoChangeCycle ?? null,
    baselineSeconds: Number(baselineSeconds.toFixed(1)),
    baselineSampleClusters: sample.length,
    speedupVsBaseline: measured ? Number((baselineSeconds / Number(measured.cycleSeconds)).toFixed(1)) : null,
    concurrency,
    cores: os.cpus().length,
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
    churnPerSecond: churnRate,
    churnSeconds,
    poll: measured?.mode ?? null,
    watch: watched?.mode ?? null,
  };
  cleanup();
  rmSync(work, { recursive: true, force: true });
  console.log(JSON.stringify(figures));
  process.exit(0);
}

/** A second collector process on the history the first stored, after the first stopped (a deploy's restart). */
interface RestartFigures {
  /** Every cluster listed (and watched, in watch mode) again. */
  seconds: number;
  cpuSeconds: number;
  factsReadSeconds: number;
  requests: number;
  rowsWritten: number;
  /**
   * History rows the restart wrote (objects' transitions, version changes, kept Events): 0 expected, since
   * nothing changed while the collector was down.
   */
  historyRows: number;
  failedClusters: number;
  peakRssMB: number;
  machine: MachineShares | null;
}

/** A real fleet's steady state: the simulator's routine reconciles on, the collector at work as deployed. */
interface ReconcileFigures {
  seconds: number;
  /** Status writes the fleet made (each a watch event), and the passes begun in the window. */
  statusWrites: number;
  passesStarted: number;
  /** The kubelets' Node status reports in the window (each a watch event that changes nothing kept). */
  kubeletReports: number;
  cpuCores: number;
  /** Objects whose stored row changed in the window (at least once). */
  objectsWritten: number;
  /** History rows written in the window: 0 expected (a routine reconcile or a retry is not a change). */
  historyRows: number;
}

/** What each mode reports (the `poll` and `watch` objects of the last line). */
interface ModeFigures {
  coldStartSeconds: number;
  /** Until every cluster's versions, Flux and EKS facts were read too (poll mode reads them in its cold cycle). */
  factsReadSeconds: number;
  idleCpuCores: number;
  /** How idleCpuCores was measured. */
  idleCpuMeasure: string;
  /**
   * Watch mode: bare Node.js holding the same watches over the same window as idleCpuCores's (TLS, HTTP/2,
   * frames dropped: scripts/watch-floor.ts), and idleCpuCores divided by it.
   */
  /** Watch mode: the naps taken in idleCpuCores' window (lib/collector/idle-reads.ts), and how long they blocked in all. */
  idleNaps?: { naps: number; nappedSeconds: number };
  idleFloorCpuCores?: number;
  idleFloorFramesPerMinute?: number;
  idleCpuVsFloor?: number | null;
  /** Watch mode: CPU averaged over the whole idle window (--idle-seconds), periodic facts and EKS reads included. */
  steadyCpuCores: number | null;
  steadyCpuMeasure: string;
  changeToRowP50Seconds: number | null;
  changeToRowP95Seconds: number | null;
  changeToBrowserP50Seconds: number | null;
  /** Null when no change was seen (or the phase was skipped): never a latency made up. */
  changeToBrowserP95Seconds: number | null;
  /** Change → an open tab told by its change stream (the rest of changeToBrowser is the tab's fetch and render). */
  changeToStreamP95Seconds: number | null;
  changeToBrowserSamples: number;
  /** Changes whose page never showed them within the wait. */
  changeToBrowserUnseen: number;
  changeToBrowserMeasure: string;
  changesMade: number;
  /** Changes to clusters the collector cannot read (expired token, unreachable): not expected in history. */
  changesToUnreadClusters: number;
  transitionsWritten: number;
  lostTransitions: number;
  duplicateTransitions: number;
  peakRssMB: number;
  requestsPerCluster: number;
  requestsPerClusterMeasure: string;
  socketsPerCluster: number | null;
  socketsPerClusterNote: string;
  /**
   * The whole machine during the cold start, in core-seconds: what it had (cores × seconds), what was busy,
   * and who used it (null: not readable here); stolen by the hypervisor apart.
   */
  coldStartMachine: MachineShares | null;
  /** CPU ms of the fixed speed probe right before the cold start, and against the run's start (above 1: a slower machine). */
  speedProbeMs: number;
  speedVsRunStart: number | null;
  /** Null when the restarted process failed (it says why on stderr). */
  restart: RestartFigures | null;
  /** Null when the phase was skipped (--reconcile-seconds 0). */
  reconciles: ReconcileFigures | null;
  /** Watch mode: the safety-net relist of every watched resource, now (null in poll mode, or when it did not finish). */
  relist?: RelistFigures | null;
}

/** Every watching session lists all it watches again now: what the periodic relist costs, and that it writes nothing. */
interface RelistFigures {
  seconds: number;
  cpuSeconds: number;
  /** That CPU spread over the relist interval (DEFAULT_RELIST_INTERVAL_MS): the relists' share of the steady state. */
  cpuCoresPerInterval: number;
  sessions: number;
  requests: number;
  historyRows: number;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null;

/** With --profile: a CPU profile of one phase, written as <dir>/<mode>-<phase>.cpuprofile (open it in DevTools). */
async function profiled<T>(mode: string, phase: string, run: () => Promise<T>): Promise<T> {
  if (!values.profile) return run();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  // Where the phase allocates, garbage included (what the young generation's collections cost).
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 64 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  try {
    return await run();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    const { profile: allocations } = await session.post("HeapProfiler.stopSampling");
    mkdirSync(values.profile, { recursive: true });
    writeFileSync(path.join(values.profile, `${mode}-${phase}.cpuprofile`), JSON.stringify(profile));
    writeFileSync(path.join(values.profile, `${mode}-${phase}.heapprofile`), JSON.stringify(allocations));
    session.disconnect();
  }
}

/** Connections the collector's pool opened (each a SCRAM exchange and a new PostgreSQL process). */
let databaseConnects = 0;

/** The collector of one mode as the worker runs it, on DATABASE_URL (the embedded PostgreSQL the worker made). */
async function createBenchCollector(mode: "poll" | "watch") {
  const { env, resetEnvCache } = await import("../lib/env");
  resetEnvCache();
  const settings = env();
  const { collectorPool } = await import("../lib/db/client");
  const { loadHubConfig } = await import("../lib/kube/kubeconfig");
  const { logger } = await import("../lib/logger");
  const { Collector } = await import("../lib/collector/collector");
  const { CollectorMetrics } = await import("../lib/collector/metrics");
  const { napWhileQuiet } = await import("../lib/collector/idle-reads");
  const db = collectorPool(process.env.DATABASE_URL!, concurrency);
  // As deployed: its metrics (the default ones sample the event loop) and its naps while quiet.
  const metrics = new CollectorMetrics();
  db.on("connect", () => databaseConnects++);
  const collector = new Collector(
    db,
    {
      hubConfig: loadHubConfig({ kubeconfigPath: settings.KUBECONFIG }),
      hubName: settings.HUB_NAME,
      secretLabel: settings.DISCOVERY_SECRET_LABEL,
      intervalSeconds: POLL_INTERVAL_SECONDS,
      concurrency,
      requestTimeoutMs: settings.COLLECTOR_REQUEST_TIMEOUT_MS,
      eksRegions: settings.EKS_REGIONS,
      eksAssumeRoles: settings.EKS_ASSUME_ROLES,
      eksEndpoint: settings.CROWS_NEST_EKS_ENDPOINT,
      stsEndpoint: settings.CROWS_NEST_STS_ENDPOINT,
      eksIntervalSeconds: EKS_INTERVAL_SECONDS,
      factsIntervalSeconds: FACTS_INTERVAL_SECONDS,
      retentionDays: settings.RETENTION_DAYS,
      mode,
    },
    logger.child({ component: "collector" }),
    metrics,
  );
  // As deployed (lib/collector/main.ts): a heartbeat every 5 s, its queries part of the idle figure. Its look
  // for a dead replica's leases runs too; the bench runs its cycles itself, so there is nothing to wake.
  collector.startHeartbeat(() => {});
  const naps = napWhileQuiet(collector, settings.COLLECTOR_IDLE_NAP_MS, metrics);
  return { db, collector, naps };
}

/** Starts the restart (this file's worker with --restart) on the worker's database; its figures, or null if it failed. */
async function runRestart(dir: string, mode: "poll" | "watch", simulatorPid: number | null): Promise<RestartFigures | null> {
  const args = [...COLLECTOR_NODE_FLAGS, "--expose-gc", BENCH_WORKER_BUNDLE, "--worker", dir, "--restart", "--mode", mode];
  args.push("--concurrency", String(concurrency));
  if (simulatorPid) args.push("--sim-pid", String(simulatorPid));
  if (values.profile) args.push("--profile", values.profile);
  const { code, resultLine } = await runWorkerProcess(args, process.env);
  if (code !== 0 || !resultLine) {
    console.log(`  restart: failed (exit ${code})`);
    return null;
  }
  return JSON.parse(resultLine) as RestartFigures;
}

/**
 * Runs this file's bundled worker with `args` (Node.js flags first) until it exits: its exit code and the
 * JSON line it printed its figures on (null if none); `onLine` sees each line of its output as it comes.
 */
async function runWorkerProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  onLine: (line: string) => void = () => {},
): Promise<{ code: number; resultLine: string | null }> {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    const text = d.toString();
    out += text;
    for (const line of text.split("\n")) onLine(line);
  });
  const code: number = await new Promise((resolve) => child.once("exit", (c) => resolve(c ?? 1)));
  return { code, resultLine: out.split("\n").find((l) => l.startsWith("{")) ?? null };
}

/** The restarted collector (--worker DIR --restart): started on the worker's database, measured until it is live again. */
async function restartMain(dir: string) {
  const mode = values.mode === "watch" ? "watch" : "poll";
  const { embeddedServerPid } = await import("../lib/db/embedded");
  const { closeDatabase } = await import("../lib/db/client");
  const { db, collector } = await createBenchCollector(mode);
  // A new process: its high-water mark is the restart's peak (no sampling inside the measured process).
  const peak = new PeakRss();
  // Every kind of history a restart could write twice: objects' transitions, version changes, kept Events.
  const history = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          `SELECT (SELECT count(*) FROM flux_object_transition) + (SELECT count(*) FROM cluster_version_change)
                  + (SELECT count(*) FROM kube_event) AS n`,
        )
      ).rows[0].n,
    );
  const history0 = await history();
  const simulatorPid = values["sim-pid"] ? Number(values["sim-pid"]) : null;
  const postmasterPid = await embeddedServerPid(path.join(dir, "db"));
  const s0 = machineShares(simulatorPid, postmasterPid);
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const summary = await profiled(mode, "restart", () => collector.runCycle());
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const s1 = machineShares(simulatorPid, postmasterPid);
  while (collector.factsPending() > 0) await sleep(100);
  const factsReadSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const figures: RestartFigures = {
    seconds: round(seconds),
    cpuSeconds: round(cpuSeconds, 1),
    factsReadSeconds: round(factsReadSeconds),
    requests: summary.requests,
    rowsWritten: summary.rowsWritten,
    historyRows: (await history()) - history0,
    failedClusters: summary.failedClusters,
    peakRssMB: Math.round(peak.read() / 1048576),
    machine: machineBetween(s0, s1, seconds, cpuSeconds),
  };
  await collector.close();
  await db.end();
  await closeDatabase();
  console.log(JSON.stringify(figures));
  process.exit(0);
}

/** Worker: the collector of one mode, in-process, on a throw-away embedded PostgreSQL; prints its figures as JSON. */
async function workerMain(dir: string) {
  const mode = values.mode === "watch" ? "watch" : "poll";
  const controlUrl = values.control;
  const { embeddedServerPid, startEmbeddedPostgres, freePort } = await import("../lib/db/embedded");
  const database = await startEmbeddedPostgres({ dataDir: path.join(dir, "db"), port: await freePort(), ephemeral: true });
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query("CREATE DATABASE bench");
  await admin.end();
  const url = new URL(database.url);
  url.pathname = "/bench";
  process.env.DATABASE_URL = url.toString();
  const { migrate } = await import("../lib/db/migrate");
  await migrate(process.env.DATABASE_URL);

  const { closeDatabase } = await import("../lib/db/client");
  const { db, collector, naps } = await createBenchCollector(mode);

  /** The phase running now, and the peak RSS of each (where the memory goes), from the kernel's mark (peak-rss.ts). */
  const peak = new PeakRss();
  peak.reset();
  let phase = "cold";
  const phasePeaks: Record<string, number> = {};
  const startPhase = (next: string) => {
    phasePeaks[phase] = peak.read();
    peak.reset();
    phase = next;
  };
  const count = async (table: string) => Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  const cpuSince = (from: NodeJS.CpuUsage) => {
    const cpu = process.cpuUsage(from);
    return (cpu.user + cpu.system) / 1e6;
  };
  const measure = async () => {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const summary = await collector.runCycle();
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    return { summary, seconds, cpuSeconds: cpuSince(cpu0) };
  };
  /** CPU spent inside runCycle by cyclesFor (discovery, leases, fleet-wide jobs: the part watching does not replace). */
  let cycleCpuSeconds = 0;
  /** The same CPU by part of the cycle (CycleSummary.cpuMs), summed over the cycles since it was last reset. */
  let cycleCpuParts: Record<string, number> = {};
  /** Cycles every POLL_INTERVAL_SECONDS (as the collector's main loop runs them) for `seconds`. */
  const cyclesFor = async (seconds: number) => {
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const next = Date.now() + POLL_INTERVAL_SECONDS * 1000;
      const cpu0 = process.cpuUsage();
      const summary = await collector.runCycle();
      cycleCpuSeconds += cpuSince(cpu0);
      for (const [part, ms] of Object.entries(summary.cpuMs)) cycleCpuParts[part] = (cycleCpuParts[part] ?? 0) + ms;
      await sleep(Math.max(0, Math.min(next, end) - Date.now()));
    }
  };

  // --- cold start ------------------------------------------------------------------------------------
  // Who used the machine meanwhile: the collector, the simulator, PostgreSQL (its postmaster and backends).
  const postmasterPid = await embeddedServerPid(path.join(dir, "db"));
  const simulatorPid = values["sim-pid"] ? Number(values["sim-pid"]) : null;
  // The machine's speed now against the run's start: phases run minutes apart on a host whose speed varies.
  const probeBeforeCold = speedProbeMs();
  const runStartProbe = values["speed-probe"] ? Number(values["speed-probe"]) : null;
  const speedVsRunStart = runStartProbe ? round(probeBeforeCold / runStartProbe, 2) : null;
  console.log(
    `  speed probe before the cold start: ${probeBeforeCold} ms` +
      (speedVsRunStart === null ? "" : `, ${speedVsRunStart}× the run's start (above 1: the machine is slower now)`),
  );
  const coldShares0 = machineShares(simulatorPid, postmasterPid);
  const coldStarted = Date.now();
  const cold = await profiled(mode, "cold", measure);
  const coldShares1 = machineShares(simulatorPid, postmasterPid);
  // Watch mode lists and watches first; versions, Flux and EKS facts are read right after (the facts queue).
  startPhase("facts");
  while (collector.factsPending() > 0) await sleep(100);
  startPhase("idle");
  // The garbage of the cold start (150,000 objects listed and written) is collected before the idle
  // window: a one-off cost of starting, not of idling.
  (globalThis as { gc?: () => void }).gc?.();
  const factsReadSeconds = (Date.now() - coldStarted) / 1000;
  const storedClusters = await count("cluster");
  const storedObjects = await count("flux_object");
  const history0 = await count("flux_object_transition");
  console.log(
    `  cold ${mode === "watch" ? "start (every cluster listed and watched)" : "cycle"}: ${cold.seconds.toFixed(1)} s, CPU ${cold.cpuSeconds.toFixed(1)} s, ` +
      `${cold.summary.requests} requests, ${cold.summary.rowsWritten} rows written, ${storedClusters} clusters / ${storedObjects} objects stored, ` +
      `${cold.summary.failedClusters} clusters failed` +
      (mode === "watch" ? `; facts (versions, Flux, EKS) read for every cluster ${factsReadSeconds.toFixed(1)} s after the start` : ""),
  );

  const coldStartMachine = machineBetween(coldShares0, coldShares1, cold.seconds, cold.cpuSeconds);
  if (coldStartMachine)
    console.log(`  the machine during the cold start: ${describeMachine(coldStartMachine, os.cpus().length, cold.seconds)}`);

  // --- nothing changes -------------------------------------------------------------------------------
  let steady: Awaited<ReturnType<typeof measure>> | null = null;
  let historyNoChange: number | null = null;
  let idleCpuCores: number;
  let idleCpuMeasure: string;
  let steadyCpuCores: number | null = null;
  let steadyCpuMeasure = "poll mode: see idleCpuCores (every cycle reads everything)";
  let requestsPerCluster: number;
  let requestsPerClusterMeasure: string;
  let idleFloor: Pick<ModeFigures, "idleFloorCpuCores" | "idleFloorFramesPerMinute" | "idleCpuVsFloor"> = {};
  let idleNaps: ModeFigures["idleNaps"];
  if (mode === "poll") {
    steady = await profiled(mode, "idle", measure);
    idleCpuCores = steady.cpuSeconds / POLL_INTERVAL_SECONDS;
    idleCpuMeasure = `one no-change cycle's CPU (${steady.cpuSeconds.toFixed(1)} s) per ${POLL_INTERVAL_SECONDS} s interval`;
    requestsPerCluster = steady.summary.requests / Math.max(1, steady.summary.clusters);
    requestsPerClusterMeasure = "per no-change cycle (every 60 s)";
    historyNoChange = (await count("flux_object_transition")) - history0;
    console.log(
      `  no-change cycle: ${steady.seconds.toFixed(1)} s, CPU ${steady.cpuSeconds.toFixed(1)} s, ${steady.summary.requests} requests, ` +
        `${steady.summary.rowsWritten} rows written, ${historyNoChange} history rows`,
    );
  } else {
    // The floor (bare Node.js holding the same watches, scripts/watch-floor.ts) is measured over the same
    // minutes as the collector's quiet window, on the machine as it is then: its process opens its watches
    // first (spread over a minute) while the collector idles unmeasured, and both windows start together.
    const quietSeconds = Math.min(QUIET_SECONDS, idleSeconds);
    const windowAt = Date.now() + FLOOR_LEAD_SECONDS * 1000;
    const floorFigures = values["fleet-kubeconfig"]
      ? measureWatchFloor(values["fleet-kubeconfig"], quietSeconds, windowAt).catch((err: unknown): null => {
          console.log(`  floor: not measured (${oneLine(err)})`);
          return null;
        })
      : Promise.resolve(null);
    await cyclesFor((windowAt - Date.now()) / 1000);
    // The first QUIET_SECONDS of the window: nothing changes and, right after the cold start's facts reads,
    // none of the periodic ones is due (the goal's "2 minutes with no changes"). The whole window (default
    // 300 s, one facts and EKS interval) adds every watched cluster's periodic reads: the steady cost.
    const requests0 = collector.watchStats().requests;
    const reads0 = collector.periodicReads();
    const cpu0 = process.cpuUsage();
    const threads0 = threadCpu();
    const connects0 = databaseConnects;
    const naps0 = naps.stats();
    const gc = watchGc();
    const t0 = Date.now();
    cycleCpuSeconds = 0;
    cycleCpuParts = {};
    let quiet = {
      seconds: 0,
      cpu: 0,
      cycles: 0,
      cycleParts: "",
      facts: 0,
      eks: 0,
      requests: 0,
      threads: "",
      connects: 0,
      gc: "",
      naps: 0,
      nappedSeconds: 0,
    };
    await profiled(mode, "idle", async () => {
      await cyclesFor(quietSeconds);
      quiet = {
        seconds: (Date.now() - t0) / 1000,
        cpu: cpuSince(cpu0),
        cycles: cycleCpuSeconds,
        cycleParts: Object.entries(cycleCpuParts)
          .map(([part, ms]) => `${part} ${(ms / 1000 / ((Date.now() - t0) / 1000)).toFixed(4)}`)
          .join(", "),
        facts: collector.periodicReads().facts - reads0.facts,
        eks: collector.periodicReads().eks - reads0.eks,
        requests: collector.watchStats().requests - requests0,
        threads: describeThreadCpu(threads0, threadCpu(), (Date.now() - t0) / 1000),
        connects: databaseConnects - connects0,
        gc: describeGc(gc.stop()),
        naps: naps.stats().naps - naps0.naps,
        nappedSeconds: (naps.stats().nappedMs - naps0.nappedMs) / 1000,
      };
      await cyclesFor(idleSeconds - quietSeconds);
    });
    const seconds = (Date.now() - t0) / 1000;
    idleCpuCores = quiet.cpu / quiet.seconds;
    idleNaps = { naps: quiet.naps, nappedSeconds: round(quiet.nappedSeconds, 1) };
    idleCpuMeasure =
      `CPU over the first ${quiet.seconds.toFixed(0)} s with no change (cycles every ${POLL_INTERVAL_SECONDS} s included: ` +
      `${(quiet.cycles / quiet.seconds).toFixed(4)} cores in discovery, leases and fleet-wide jobs; ` +
      `${quiet.facts} facts reads and ${quiet.eks} EKS reads asked for in it)`;
    steadyCpuCores = cpuSince(cpu0) / seconds;
    const reads = { facts: collector.periodicReads().facts - reads0.facts, eks: collector.periodicReads().eks - reads0.eks };
    steadyCpuMeasure =
      `CPU over ${seconds.toFixed(0)} s with no change, every watched cluster's periodic reads included ` +
      `(${reads.facts} facts reads, ${reads.eks} EKS reads asked for; due every ${FACTS_INTERVAL_SECONDS} s and ${EKS_INTERVAL_SECONDS} s)`;
    const stats = collector.watchStats();
    requestsPerCluster = (stats.requests - requests0) / Math.max(1, storedClusters);
    requestsPerClusterMeasure =
      `requests per cluster on its connection over ${seconds.toFixed(0)} s idle: watch resumes and the periodic facts reads' GETs ` +
      `(${(quiet.requests / Math.max(1, storedClusters)).toFixed(2)} in the first ${quiet.seconds.toFixed(0)} s)`;
    console.log(
      `  idle, first ${quiet.seconds.toFixed(0)} s: CPU ${idleCpuCores.toFixed(4)} cores (cycles ${(quiet.cycles / quiet.seconds).toFixed(4)}; ` +
        `${quiet.facts} facts and ${quiet.eks} EKS reads; ${quiet.connects} database connections opened)\n` +
        `  idle, first ${quiet.seconds.toFixed(0)} s, by thread (cores): ${quiet.threads}; the cycles by part: ${quiet.cycleParts}\n` +
        `  idle, first ${quiet.seconds.toFixed(0)} s, garbage collections: ${quiet.gc}; ${quiet.naps} naps while quiet, ` +
        `${quiet.nappedSeconds.toFixed(1)} s in all (COLLECTOR_IDLE_NAP_MS ${naps.napMs})\n` +
        `  idle, all ${seconds.toFixed(0)} s: CPU ${steadyCpuCores.toFixed(4)} cores (${reads.facts} facts and ${reads.eks} EKS reads), ` +
        `${stats.requests - requests0} requests on the clusters' connections (${quiet.requests} in the first ${quiet.seconds.toFixed(0)} s), ` +
        `${(await count("flux_object_transition")) - history0} history rows; sessions ${JSON.stringify(stats.sessions)}`,
    );
    const floor = await floorFigures;
    if (floor) {
      const ratio = floor.floorCpuCores > 0 ? round(idleCpuCores / floor.floorCpuCores, 1) : null;
      idleFloor = { idleFloorCpuCores: floor.floorCpuCores, idleFloorFramesPerMinute: floor.framesPerMinute, idleCpuVsFloor: ratio };
      console.log(`  floor, the same ${quietSeconds} s: ${describeFloor(floor, ratio)}`);
    }
  }

  const memory = process.memoryUsage();
  console.log(
    `  memory after the idle phase: RSS ${Math.round(memory.rss / 1048576)} MB, heap used ${Math.round(memory.heapUsed / 1048576)} MB ` +
      `of ${Math.round(memory.heapTotal / 1048576)} MB, external ${Math.round(memory.external / 1048576)} MB (buffers ${Math.round(memory.arrayBuffers / 1048576)} MB)`,
  );
  if (values.profile) v8.writeHeapSnapshot(path.join(values.profile, `${mode}-idle.heapsnapshot`));

  // --- the safety-net relist (watch mode) -------------------------------------------------------------
  // Each watched resource lists again every DEFAULT_RELIST_INTERVAL_MS, spread over time; here every cluster's
  // now, --concurrency clusters at a time: its CPU, and that it finds nothing to write on a fleet that did not change.
  let relist: RelistFigures | null = null;
  if (mode === "watch") {
    startPhase("relist");
    const { DEFAULT_RELIST_INTERVAL_MS } = await import("../lib/kube/watch/engine");
    const history0 = await count("flux_object_transition");
    const requests0 = collector.watchStats().requests;
    const cpu0 = process.cpuUsage();
    const t0 = Date.now();
    const sessions = await Promise.race([collector.relistAll(), sleep(RELIST_DEADLINE_SECONDS * 1000).then(() => null)]);
    if (sessions === null) {
      console.log(`  safety-net relist: not finished within ${RELIST_DEADLINE_SECONDS} s (a cluster's lists keep failing?)`);
    } else {
      const seconds = (Date.now() - t0) / 1000;
      const cpuSeconds = cpuSince(cpu0);
      await sleep(2_000); // anything it found is flushed within FLUSH_MS
      relist = {
        seconds: round(seconds, 1),
        cpuSeconds: round(cpuSeconds, 1),
        cpuCoresPerInterval: round(cpuSeconds / (DEFAULT_RELIST_INTERVAL_MS / 1000), 4),
        sessions,
        requests: collector.watchStats().requests - requests0,
        historyRows: (await count("flux_object_transition")) - history0,
      };
      console.log(
        `  safety-net relist of every watched resource (${sessions} clusters, ${concurrency} at a time): ${relist.seconds} s, CPU ${relist.cpuSeconds} s ` +
          `(${relist.cpuCoresPerInterval} cores spread over its ${DEFAULT_RELIST_INTERVAL_MS / 60_000}-minute interval), ${relist.requests} requests, ` +
          `${relist.historyRows} history rows`,
      );
    }
  }

  // --- churn -----------------------------------------------------------------------------------------
  startPhase("churn");
  const readable = new Set(
    (
      await db.query<{ name: string }>(
        `SELECT name FROM cluster WHERE "lastSuccessAt" IS NOT NULL AND ("lastErrorAt" IS NULL OR "lastSuccessAt" > "lastErrorAt")`,
      )
    ).rows.map((r) => r.name),
  );
  const fromId = (await db.query<{ id: string }>(`SELECT COALESCE(max(id), 0)::text AS id FROM flux_object_transition`)).rows[0].id;
  let churnFigures = {
    changesMade: 0,
    changesToUnreadClusters: 0,
    transitionsWritten: 0,
    lost: 0,
    duplicate: 0,
    p50: null as number | null,
    p95: null as number | null,
  };
  if (controlUrl && churnRate > 0 && churnSeconds > 0) {
    const before = await control<ChurnLog>(`${controlUrl}/churn?limit=0`);
    await control(`${controlUrl}/churn`, { method: "POST", body: JSON.stringify({ rate: churnRate }) });
    const stopChurn = setTimeout(
      () => void control(`${controlUrl}/churn`, { method: "POST", body: JSON.stringify({ rate: 0 }) }),
      churnSeconds * 1000,
    );
    // Poll mode needs the cycle after the churn stopped to see its last changes; watch mode a few seconds.
    await profiled(mode, "churn", () => cyclesFor(churnSeconds + (mode === "poll" ? 1 : 0)));
    clearTimeout(stopChurn);
    await control(`${controlUrl}/churn`, { method: "POST", body: JSON.stringify({ rate: 0 }) });
    await sleep(5000);
    if (mode === "poll") await collector.runCycle();
    const log = await control<ChurnLog>(`${controlUrl}/churn?since=${before.total}&limit=1000000`);
    const expected = new Map<string, { n: number; lastAt: number }>();
    let unread = 0;
    for (const c of log.changes) {
      if (!readable.has(c.cluster)) {
        unread++;
        continue;
      }
      const key = `${c.cluster}/${c.kind}/${c.namespace}/${c.name}`;
      const e = expected.get(key) ?? { n: 0, lastAt: 0 };
      e.n++;
      e.lastAt = Math.max(e.lastAt, c.at);
      expected.set(key, e);
    }
    const { rows } = await db.query<{ key: string; n: string; writtenAt: string }>(
      `SELECT c.name || '/' || o.kind || '/' || o.namespace || '/' || o.name AS key, count(*)::text AS n,
              (extract(epoch FROM max(o."updatedAt")) * 1000)::bigint::text AS "writtenAt"
         FROM flux_object_transition t JOIN flux_object o ON o.id = t."objectId" JOIN cluster c ON c.id = t."clusterId"
        WHERE t.id > $1::bigint AND t.change = 'changed' GROUP BY 1`,
      [fromId],
    );
    const written = new Map(rows.map((r) => [r.key, { n: Number(r.n), at: Number(r.writtenAt) }]));
    let lost = 0;
    let duplicate = 0;
    const latencies: number[] = [];
    for (const [key, e] of expected) {
      const w = written.get(key);
      const n = w?.n ?? 0;
      lost += Math.max(0, e.n - n);
      duplicate += Math.max(0, n - e.n);
      // The object's row was last written when its last change was: that change's change → row time.
      if (w && n >= e.n) latencies.push((w.at - e.lastAt) / 1000);
    }
    for (const [key, w] of written) if (!expected.has(key)) duplicate += w.n;
    latencies.sort((x, y) => x - y);
    churnFigures = {
      changesMade: log.changes.length,
      changesToUnreadClusters: unread,
      transitionsWritten: rows.reduce((sum, r) => sum + Number(r.n), 0),
      lost,
      duplicate,
      p50: percentile(latencies, 0.5),
      p95: percentile(latencies, 0.95),
    };
    console.log(
      `  churn ${churnRate}/s for ${churnSeconds} s: ${log.changes.length} changes made (${unread} to clusters it cannot read), ` +
        `${churnFigures.transitionsWritten} history rows written, ${lost} lost, ${duplicate} doubled; change → row ` +
        `p50 ${churnFigures.p50?.toFixed(2) ?? "–"} s, p95 ${churnFigures.p95?.toFixed(2) ?? "–"} s`,
    );
  }

  // --- routine reconciles -------------------------------------------------------------------------------
  // A real fleet is never quiet: every Kustomization and HelmRelease reconciles on its interval and writes
  // its status as it goes, and every kubelet re-posts its Node's status. What that costs, and that none of
  // it is a history row.
  startPhase("reconciles");
  let reconciles: ReconcileFigures | null = null;
  if (controlUrl && reconcileSeconds > 0) {
    const from = (await db.query<{ id: string }>(`SELECT COALESCE(max(id), 0)::text AS id FROM flux_object_transition`)).rows[0].id;
    const startedAt = new Date();
    const switchTo = (enabled: boolean) =>
      control<{ started: number; writes: number; kubeletReports: number }>(`${controlUrl}/reconciles`, {
        method: "POST",
        body: JSON.stringify({ enabled }),
      });
    const before = await switchTo(true);
    const cpu0 = process.cpuUsage();
    const t0 = Date.now();
    await profiled(mode, "reconciles", () => cyclesFor(reconcileSeconds));
    const after = await switchTo(false);
    const seconds = (Date.now() - t0) / 1000;
    const cpuCores = cpuSince(cpu0) / seconds;
    // What the last seconds delivered is flushed (watch mode) or was read by the last cycle (poll mode).
    await sleep(2000);
    const { rows: written } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM flux_object WHERE "updatedAt" >= $1`, [
      startedAt,
    ]);
    const { rows: history } = await db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM flux_object_transition WHERE id > $1::bigint`,
      [from],
    );
    reconciles = {
      seconds: round(seconds, 1),
      statusWrites: after.writes - before.writes,
      passesStarted: after.started - before.started,
      kubeletReports: after.kubeletReports - before.kubeletReports,
      cpuCores: round(cpuCores, 4),
      objectsWritten: Number(written[0].n),
      historyRows: Number(history[0].n),
    };
    console.log(
      `  routine reconciles for ${reconciles.seconds} s (every Kustomization and HelmRelease on its interval, written as Flux writes it): ` +
        `${reconciles.statusWrites} status writes (${(reconciles.statusWrites / seconds).toFixed(0)}/s) in ${reconciles.passesStarted} passes, ` +
        `${reconciles.kubeletReports} kubelet status reports (${(reconciles.kubeletReports / seconds).toFixed(1)}/s); ` +
        `collector CPU ${reconciles.cpuCores.toFixed(4)} cores; ${reconciles.objectsWritten} objects rewritten, ${reconciles.historyRows} history rows`,
    );
  }

  phasePeaks[phase] = peak.read();
  const peakRssMB = Math.round(Math.max(...Object.values(phasePeaks)) / 1024 / 1024);
  console.log(
    `  peak RSS by phase: ${Object.entries(phasePeaks)
      .map(([name, bytes]) => `${name} ${Math.round(bytes / 1048576)} MB`)
      .join(", ")}` + (peak.resettable ? "" : " (each since the process started: the kernel's mark could not be reset)"),
  );
  const stats = collector.watchStats();
  const socketsPerCluster = mode === "watch" ? stats.openSockets / Math.max(1, storedClusters) : null;
  console.log(
    `  peak RSS of the collector process: ${peakRssMB} MB; requests per cluster ${requestsPerCluster.toFixed(2)} ${requestsPerClusterMeasure}` +
      (mode === "watch"
        ? `; open sockets per cluster ${socketsPerCluster!.toFixed(2)} (${stats.openStreams} open watch streams over ${stats.connections} connections made)`
        : "; sockets: keep-alive agents per cluster, not counted"),
  );
  // --- change → browser -------------------------------------------------------------------------------
  // After the collector's own figures (its CPU and RSS are not disturbed): the web app and Chromium are
  // processes of their own; the collector goes on with its cycles (poll mode reads only in them).
  let browser: BrowserLatency | null = null;
  if (controlUrl && browserSamples > 0) {
    let measuring = true;
    // The harness's own waits (Playwright's answers, the simulator's control) are not the collector's to
    // delay: no naps while it measures, so a tab's time is the product's, not a nap's.
    const measured = collector.activity.begin();
    const cycles = (async () => {
      while (measuring) {
        const next = Date.now() + POLL_INTERVAL_SECONDS * 1000;
        await collector.runCycle();
        while (measuring && Date.now() < next) await sleep(250);
      }
    })();
    try {
      browser = await measureChangeToBrowser({
        databaseUrl: process.env.DATABASE_URL,
        controlUrl,
        samples: browserSamples,
        spacingMs: 1000,
        // Poll mode sees a change at its next cycle (up to 60 s), then the page's stream.
        waitMs: (mode === "poll" ? POLL_INTERVAL_SECONDS + 30 : 30) * 1000,
        log: (line) => console.log(`  ${line}`),
      }).catch((err: unknown) => ({
        // The collector's figures stand; the browser figure is missing, and says why.
        p50Seconds: null,
        p95Seconds: null,
        samples: 0,
        unseen: 0,
        measure: `failed: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]}`,
      }));
    } finally {
      measured();
      measuring = false;
      await cycles;
    }
    console.log(
      `  change → browser: p50 ${browser.p50Seconds?.toFixed(2) ?? "–"} s, p95 ${browser.p95Seconds?.toFixed(2) ?? "–"} s ` +
        `over ${browser.samples} changes, ${browser.unseen} not seen (${browser.measure})`,
    );
    if (browser.samples)
      console.log(
        `  where it went: change → row p50 ${browser.rowP50Seconds?.toFixed(2) ?? "–"} s, p95 ${browser.rowP95Seconds?.toFixed(2) ?? "–"} s; ` +
          `change → the tab told by its stream p50 ${browser.streamP50Seconds?.toFixed(2) ?? "–"} s, p95 ${browser.streamP95Seconds?.toFixed(2) ?? "–"} s; ` +
          `the rest is the tab's debounce (0.5 s), its fetch and render`,
      );
    if (browser.refreshes)
      console.log(
        `  the tabs' refreshes meanwhile: ${browser.refreshes.finished} finished (p50 ${browser.refreshes.p50Seconds?.toFixed(2) ?? "–"} s, ` +
          `p95 ${browser.refreshes.p95Seconds?.toFixed(2) ?? "–"} s), ${browser.refreshes.failed} failed`,
      );
  } else {
    console.log("  change → browser: skipped (--browser-samples 0)");
  }
  await collector.close();
  // --- restart ---------------------------------------------------------------------------------------
  // As a deploy restarts it: this collector stopped (its leases released), a new process on the history it
  // stored. Nothing changed meanwhile, so the restart must write no history row.
  const restart = await runRestart(dir, mode, simulatorPid);
  if (restart) {
    console.log(
      `  restart (a new process, the stored history kept): every cluster listed${mode === "watch" ? " and watched" : ""} in ` +
        `${restart.seconds.toFixed(1)} s, CPU ${restart.cpuSeconds.toFixed(1)} s, ${restart.requests} requests, ${restart.rowsWritten} rows written, ` +
        `${restart.historyRows} history rows, ${restart.failedClusters} clusters failed; facts read again ${restart.factsReadSeconds.toFixed(1)} s ` +
        `after the start; peak RSS ${restart.peakRssMB} MB`,
    );
    if (restart.machine)
      console.log(`  the machine during the restart: ${describeMachine(restart.machine, os.cpus().length, restart.seconds)}`);
  }
  db.on("error", () => {});
  await db.end();
  const figures: ModeFigures = {
    coldStartSeconds: round(cold.seconds),
    factsReadSeconds: round(factsReadSeconds),
    idleCpuCores: round(idleCpuCores, 4),
    idleCpuMeasure,
    idleNaps,
    ...idleFloor,
    steadyCpuCores: steadyCpuCores === null ? null : round(steadyCpuCores, 4),
    steadyCpuMeasure,
    changeToRowP50Seconds: churnFigures.p50 === null ? null : round(churnFigures.p50),
    changeToRowP95Seconds: churnFigures.p95 === null ? null : round(churnFigures.p95),
    changeToBrowserP50Seconds: browser?.p50Seconds == null ? null : round(browser.p50Seconds),
    changeToBrowserP95Seconds: browser?.p95Seconds == null ? null : round(browser.p95Seconds),
    changeToStreamP95Seconds: browser?.streamP95Seconds == null ? null : round(browser.streamP95Seconds),
    changeToBrowserSamples: browser?.samples ?? 0,
    changeToBrowserUnseen: browser?.unseen ?? 0,
    changeToBrowserMeasure: browser?.measure ?? "skipped (--browser-samples 0)",
    changesMade: churnFigures.changesMade,
    changesToUnreadClusters: churnFigures.changesToUnreadClusters,
    transitionsWritten: churnFigures.transitionsWritten,
    lostTransitions: churnFigures.lost,
    duplicateTransitions: churnFigures.duplicate,
    peakRssMB,
    requestsPerCluster: round(requestsPerCluster, 2),
    requestsPerClusterMeasure,
    socketsPerCluster: socketsPerCluster === null ? null : round(socketsPerCluster, 2),
    socketsPerClusterNote:
      mode === "watch" ? "TCP sockets open at the end of the run, per cluster" : "not counted (keep-alive agents per cluster)",
    coldStartMachine,
    speedProbeMs: probeBeforeCold,
    speedVsRunStart,
    restart,
    reconciles,
    relist,
  };
  const legacy = {
    clusters: storedClusters,
    objects: storedObjects,
    cycleSeconds: steady ? round(steady.seconds) : null,
    coldCycleSeconds: round(cold.seconds),
    cpuSeconds: steady ? round(steady.cpuSeconds) : null,
    coldCpuSeconds: round(cold.cpuSeconds),
    peakRssMB,
    requestsPerCycle: steady?.summary.requests ?? null,
    failedClusters: (steady ?? cold).summary.failedClusters,
    historyRowsNoChangeCycle: historyNoChange,
    rowsWrittenNoChangeCycle: steady?.summary.rowsWritten ?? null,
  };
  await closeDatabase();
  await database.stop();
  console.log(JSON.stringify({ ...legacy, mode: figures }));
  process.exit(0);
}

(values.worker ? (values.restart ? restartMain(values.worker) : workerMain(values.worker)) : main()).catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  cleanup();
  if (!values.worker) rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
