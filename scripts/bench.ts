// npm run bench -- [--clusters N] [--objects M] [--concurrency C] [--baseline-sample K]
// Starts the fleet simulator (its own process, simulated time frozen so the fleet does not change), runs
// the collector in this process against it on a throw-away embedded PostgreSQL, and prints figures: a
// cold cycle (everything new), a no-change cycle (the steady state: nothing to write), CPU and peak RSS of
// the collector process, and a baseline of `kubectl get <kinds> -A -o json` per cluster, in a loop.
// The last line is one JSON object with every figure.
import { execFile, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { promisify } from "node:util";
import pg from "pg";
import { processCpuSeconds, startBenchSimulator } from "./lib/processes";

const run = promisify(execFile);

const { values } = parseArgs({
  options: {
    clusters: { type: "string", default: "1000" },
    objects: { type: "string", default: "150" },
    concurrency: { type: "string", default: "48" },
    "baseline-sample": { type: "string", default: "20" },
    worker: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
  strict: true,
});
if (values.help) {
  console.log("usage: npm run bench -- [--clusters N] [--objects M] [--concurrency C] [--baseline-sample K]");
  process.exit(0);
}
const clusters = Number(values.clusters);
const objects = Number(values.objects);
const concurrency = Number(values.concurrency);
const baselineSample = Number(values["baseline-sample"]);
for (const [name, v] of Object.entries({ clusters, objects, concurrency, baselineSample })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
}

const work = values.worker ?? mkdtempSync(path.join(os.tmpdir(), "crows-nest-bench-"));
// As root the embedded PostgreSQL runs as the `postgres` user, which must be able to enter this folder.
chmodSync(work, 0o755);
const simDir = path.join(work, "sim");
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

async function startSimulatorProcess(): Promise<{ kubeconfig: string; awsEnv?: string }> {
  const { child, readyLine } = await startBenchSimulator({ outDir: simDir, clusters, objects });
  children.push(child);
  const kubeconfig = /kubeconfig (\S+?),? /.exec(readyLine + " ")?.[1] ?? path.join(simDir, "hub.kubeconfig");
  const awsEnv = /aws env (\S+?)[ ,(]/.exec(readyLine + " ")?.[1];
  return { kubeconfig, awsEnv };
}

/** Orchestrator: simulator, then the collector in a worker process, then the kubectl baseline. */
async function main() {
  console.log(
    `Crow's Nest collector benchmark: ${clusters} clusters (hub included) x ~${objects} Flux objects, concurrency ${concurrency}`,
  );
  const simStarted = Date.now();
  const sim = await startSimulatorProcess();
  console.log(`  simulator ready in ${((Date.now() - simStarted) / 1000).toFixed(1)} s`);
  const simPid = (children[0] as { pid?: number }).pid;
  const simCpu0 = simPid ? processCpuSeconds(simPid) : 0;

  // The collector runs in its own process: the AWS endpoints' CA (NODE_EXTRA_CA_CERTS) must be known at start.
  const workerEnv = {
    ...process.env,
    ...(sim.awsEnv ? parseEnvFile(sim.awsEnv) : {}),
    KUBECONFIG: sim.kubeconfig,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
  };
  const worker = spawn(process.execPath, ["--import", "tsx", "scripts/bench.ts", "--worker", work, "--concurrency", String(concurrency)], {
    env: workerEnv,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(worker);
  let workerOut = "";
  worker.stdout.on("data", (d: Buffer) => {
    const text = d.toString();
    workerOut += text;
    for (const line of text.split("\n")) if (line.startsWith("  ")) console.log(line);
  });
  const code: number = await new Promise((resolve) => worker.once("exit", (c) => resolve(c ?? 1)));
  const resultLine = workerOut.split("\n").find((l) => l.startsWith("{"));
  if (code !== 0 || !resultLine) throw new Error(`collector worker failed (exit ${code})`);
  const measured = JSON.parse(resultLine) as Record<string, number>;
  const simCpuSeconds = simPid ? processCpuSeconds(simPid) - simCpu0 : null;
  if (simCpuSeconds !== null) console.log(`  simulator CPU during both cycles: ${simCpuSeconds.toFixed(1)} s`);

  // Baseline: what a script looping over `kubectl get <kinds> -A -o json` per cluster spends, sequentially.
  const kinds = [
    "kustomizations.kustomize.toolkit.fluxcd.io",
    "helmreleases.helm.toolkit.fluxcd.io",
    "gitrepositories.source.toolkit.fluxcd.io",
    "ocirepositories.source.toolkit.fluxcd.io",
    "helmrepositories.source.toolkit.fluxcd.io",
    "helmcharts.source.toolkit.fluxcd.io",
  ].join(",");
  const fleetKubeconfig = path.join(simDir, "fleet.kubeconfig");
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
    clusters: measured.clusters,
    objects: measured.objects,
    cycleSeconds: measured.cycleSeconds,
    coldCycleSeconds: measured.coldCycleSeconds,
    cpuSeconds: measured.cpuSeconds,
    coldCpuSeconds: measured.coldCpuSeconds,
    simulatorCpuSeconds: simCpuSeconds === null ? null : Number(simCpuSeconds.toFixed(1)),
    peakRssMB: measured.peakRssMB,
    requestsPerCycle: measured.requestsPerCycle,
    failedClusters: measured.failedClusters,
    historyRowsNoChangeCycle: measured.historyRowsNoChangeCycle,
    rowsWrittenNoChangeCycle: measured.rowsWrittenNoChangeCycle,
    baselineSeconds: Number(baselineSeconds.toFixed(1)),
    baselineSampleClusters: sample.length,
    speedupVsBaseline: Number((baselineSeconds / measured.cycleSeconds).toFixed(1)),
    concurrency,
    cores: os.cpus().length,
  };
  cleanup();
  rmSync(work, { recursive: true, force: true });
  console.log(JSON.stringify(figures));
  process.exit(0);
}

/** Worker: the collector, in-process, on a throw-away embedded PostgreSQL; prints its figures as JSON. */
async function workerMain(dir: string) {
  const { startEmbeddedPostgres, freePort } = await import("../lib/db/embedded");
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

  const { env, resetEnvCache } = await import("../lib/env");
  resetEnvCache();
  const settings = env();
  const { closeDatabase, logPoolError, SESSION_OPTIONS } = await import("../lib/db/client");
  const { loadHubConfig } = await import("../lib/kube/kubeconfig");
  const { logger } = await import("../lib/logger");
  const { Collector } = await import("../lib/collector/collector");
  const db = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Math.min(40, concurrency + 4), options: SESSION_OPTIONS });
  db.on("error", logPoolError("bench-pool"));
  const collector = new Collector(
    db,
    {
      hubConfig: loadHubConfig({ kubeconfigPath: settings.KUBECONFIG }),
      hubName: settings.HUB_NAME,
      secretLabel: settings.DISCOVERY_SECRET_LABEL,
      intervalSeconds: 60,
      concurrency,
      requestTimeoutMs: settings.COLLECTOR_REQUEST_TIMEOUT_MS,
      eksRegions: settings.EKS_REGIONS,
      eksAssumeRoles: settings.EKS_ASSUME_ROLES,
      eksEndpoint: settings.CROWS_NEST_EKS_ENDPOINT,
      stsEndpoint: settings.CROWS_NEST_STS_ENDPOINT,
      eksIntervalSeconds: 3600,
      retentionDays: settings.RETENTION_DAYS,
    },
    logger.child({ component: "collector" }),
  );

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  const count = async (table: string) => Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  const measure = async () => {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const summary = await collector.runCycle();
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    return { summary, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
  };

  const cold = await measure();
  const storedClusters = await count("cluster");
  const storedObjects = await count("flux_object");
  const history0 = await count("flux_object_transition");
  console.log(
    `  cold cycle:      ${cold.seconds.toFixed(1)} s, CPU ${cold.cpuSeconds.toFixed(1)} s, ${cold.summary.requests} requests, ` +
      `${cold.summary.rowsWritten} rows written, ${storedClusters} clusters / ${storedObjects} objects stored, ${cold.summary.failedClusters} clusters failed`,
  );
  const steady = await measure();
  const historyNoChange = (await count("flux_object_transition")) - history0;
  console.log(
    `  no-change cycle: ${steady.seconds.toFixed(1)} s, CPU ${steady.cpuSeconds.toFixed(1)} s, ${steady.summary.requests} requests, ` +
      `${steady.summary.rowsWritten} rows written, ${historyNoChange} history rows`,
  );
  clearInterval(sampler);
  const peakRssMB = Math.round(peakRss / 1024 / 1024);
  console.log(`  peak RSS of the collector process: ${peakRssMB} MB`);
  await collector.close();
  db.on("error", () => {});
  await db.end();
  const figures = JSON.stringify({
    clusters: storedClusters,
    objects: storedObjects,
    cycleSeconds: Number(steady.seconds.toFixed(2)),
    coldCycleSeconds: Number(cold.seconds.toFixed(2)),
    cpuSeconds: Number(steady.cpuSeconds.toFixed(2)),
    coldCpuSeconds: Number(cold.cpuSeconds.toFixed(2)),
    peakRssMB,
    requestsPerCycle: steady.summary.requests,
    failedClusters: steady.summary.failedClusters,
    historyRowsNoChangeCycle: historyNoChange,
    rowsWrittenNoChangeCycle: steady.summary.rowsWritten,
  });
  await closeDatabase();
  await database.stop();
  console.log(figures);
  process.exit(0);
}

(values.worker ? workerMain(values.worker) : main()).catch((err) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  cleanup();
  if (!values.worker) rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
