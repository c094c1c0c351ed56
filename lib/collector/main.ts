// npm run collector [-- --once]
// The collector process: migrates the database (embedded PostgreSQL when DATABASE_URL is unset), then
// polls the fleet every COLLECTOR_INTERVAL_SECONDS, hears nudges within a second (LISTEN/NOTIFY), serves
// /metrics, and on SIGTERM finishes the current work, gives its leases back and exits.
import { parseArgs } from "node:util";
import pg from "pg";
import { closeDatabase, collectorPool, SESSION_OPTIONS } from "../db/client";
import { ensureDatabase } from "../db/database";
import { ACTION_CHANNEL, NUDGE_CHANNEL } from "../db/channels";
import { env, resetEnvCache } from "../env";
import { oneLine } from "../errors";
import { loadHubConfig } from "../kube/kubeconfig";
import { backoffMs } from "../kube/errors";
import { logger } from "../logger";
import { Collector } from "./collector";
import { napWhileQuiet } from "./idle-reads";
import { CollectorMetrics } from "./metrics";

const log = logger.child({ component: "collector" });

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { once: { type: "boolean" }, help: { type: "boolean", short: "h" } }, strict: true });
  if (values.help) {
    console.log("usage: npm run collector [-- --once]\n  --once  run one full cycle and exit");
    return;
  }
  const settings = env();
  const database = await ensureDatabase((line) => log.debug({ postgres: line }));
  resetEnvCache(); // ensureDatabase set DATABASE_URL for this process
  const db = collectorPool(database.url, settings.COLLECTOR_CONCURRENCY);
  const hubConfig = loadHubConfig({ kubeconfigPath: settings.KUBECONFIG, context: settings.HUB_CONTEXT });
  const metrics = new CollectorMetrics();
  const collector = new Collector(
    db,
    {
      replica: settings.COLLECTOR_REPLICA_ID,
      hubConfig,
      hubName: settings.HUB_NAME,
      secretLabel: settings.DISCOVERY_SECRET_LABEL,
      secretNamespaces: settings.DISCOVERY_SECRET_NAMESPACES,
      intervalSeconds: settings.COLLECTOR_INTERVAL_SECONDS,
      concurrency: settings.COLLECTOR_CONCURRENCY,
      requestTimeoutMs: settings.COLLECTOR_REQUEST_TIMEOUT_MS,
      eksRegions: settings.EKS_REGIONS,
      eksAssumeRoles: settings.EKS_ASSUME_ROLES,
      eksEndpoint: settings.CROWS_NEST_EKS_ENDPOINT,
      stsEndpoint: settings.CROWS_NEST_STS_ENDPOINT,
      eksIntervalSeconds: settings.COLLECTOR_EKS_INTERVAL_SECONDS,
      factsIntervalSeconds: settings.COLLECTOR_FACTS_INTERVAL_SECONDS,
      // One full cycle is a poll: there is no later moment for a watch to deliver anything.
      mode: values.once ? "poll" : settings.COLLECTOR_MODE,
      relistIntervalSeconds: settings.COLLECTOR_RELIST_INTERVAL_SECONDS,
      jobs: { operatorActions: true, upstreamVersions: true },
      fullCycle: values.once === true,
      retentionDays: settings.RETENTION_DAYS,
    },
    log,
    metrics,
  );
  log.info({ replica: collector.replica, hub: settings.HUB_NAME, embeddedDatabase: database.embedded }, "collector starting");

  const shutdownDatabase = async () => {
    await db.end().catch(() => {});
    await closeDatabase();
    await database.stop();
  };

  if (values.once) {
    try {
      const summary = await collector.runCycle();
      await collector.runOperatorActions().catch((err) => log.warn({ error: oneLine(err) }, "operator actions failed"));
      console.log(JSON.stringify(summary));
    } finally {
      await collector.close();
      await shutdownDatabase();
    }
    return;
  }

  const metricsServer = settings.COLLECTOR_METRICS_PORT
    ? await metrics.serve(settings.COLLECTOR_METRICS_PORT).catch((err) => {
        log.warn({ error: oneLine(err), port: settings.COLLECTOR_METRICS_PORT }, "metrics endpoint not started");
        return undefined;
      })
    : undefined;
  if (metricsServer) log.info({ port: metricsServer.port }, "metrics on /metrics");
  let wake: (() => void) | undefined;
  // A dead replica's leases, free once its heartbeat runs out, are taken by a cycle at once, not at the next.
  collector.startHeartbeat(() => wake?.());

  let stopping = false;

  // Nudges and operator actions run beside the cycle, so they are heard within a second even mid-cycle.
  const serial = (job: () => Promise<unknown>, what: string) => {
    let running = false;
    let again = false;
    const run = async (): Promise<void> => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      // A nudge's reads and an action's requests are not naps' to delay.
      const answered = collector.activity.begin();
      try {
        do {
          again = false;
          await job().catch((err) => log.warn({ error: oneLine(err) }, `${what} failed`));
        } while (again && !stopping);
      } finally {
        answered();
        running = false;
      }
    };
    return run;
  };
  const processNudges = serial(() => collector.handlePendingNudges(), "nudge handling");
  const processActions = serial(() => collector.runOperatorActions(), "operator actions");

  // LISTEN on a dedicated connection; on loss (a Postgres restart), reconnect with backoff and say so. The
  // queue tables are read every second while there is none.
  let listener: pg.Client | undefined;
  let listenAttempt = 0;
  let listenTimer: NodeJS.Timeout | undefined;
  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: database.url, options: SESSION_OPTIONS });
    client.on("notification", (msg) => {
      if (msg.channel === NUDGE_CHANNEL) void processNudges();
      if (msg.channel === ACTION_CHANNEL) void processActions();
    });
    let lost = false;
    const reconnect = (err: unknown, what: string) => {
      if (lost) return;
      lost = true;
      if (listener === client) listener = undefined;
      void client.end().catch((endErr: unknown) => log.debug({ error: oneLine(endErr) }, "closing the lost LISTEN connection failed"));
      if (stopping) return;
      const delay = backoffMs(listenAttempt++, undefined, Math.random, 1000, 30_000);
      log.warn(
        { error: oneLine(err), retryInMs: delay, attempt: listenAttempt },
        `${what}; polling the queue tables every second until LISTEN is back`,
      );
      listenTimer = setTimeout(() => void listen(), delay);
    };
    client.on("error", (err) => reconnect(err, "LISTEN connection lost"));
    client.on("end", () => reconnect(new Error("connection ended"), "LISTEN connection ended"));
    try {
      await client.connect();
      await client.query(`LISTEN ${NUDGE_CHANNEL}`);
      await client.query(`LISTEN ${ACTION_CHANNEL}`);
    } catch (err) {
      reconnect(err, "LISTEN failed");
      return;
    }
    if (listenAttempt > 0) log.info({ attempts: listenAttempt }, "LISTEN connection re-established");
    listenAttempt = 0;
    listener = client;
    // Whatever was queued while nobody listened.
    void processNudges();
    void processActions();
  };
  await listen();
  // Without a LISTEN connection, the queue tables are read every second instead.
  const fallback = setInterval(() => {
    if (!listener && !stopping) {
      void processNudges();
      void processActions();
    }
  }, 1000);
  void processActions();

  // While nothing is in flight and nothing changed, frames are read in batches (idle-reads.ts).
  const naps = napWhileQuiet(collector, settings.COLLECTOR_IDLE_NAP_MS, metrics);

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    naps.stop();
    log.info({ signal }, "stopping after the current work");
    wake?.();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  let nextCycleAt = 0;
  while (!stopping) {
    nextCycleAt = Date.now() + settings.COLLECTOR_INTERVAL_SECONDS * 1000;
    await collector.runCycle().catch((err) => log.error({ error: oneLine(err) }, "cycle failed"));
    void processActions();
    if (stopping) break;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, nextCycleAt - Date.now()));
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wake = undefined;
  }
  clearInterval(fallback);
  clearTimeout(listenTimer);
  await collector.close();
  const closing = listener;
  listener = undefined;
  await closing?.end().catch((err: unknown) => log.debug({ error: oneLine(err) }, "closing the LISTEN connection failed"));
  await metricsServer?.close();
  await shutdownDatabase();
  log.info("collector stopped");
}

main().catch((err) => {
  log.fatal({ error: oneLine(err) }, "collector failed");
  console.error(`collector failed: ${oneLine(err)}`);
  process.exit(1);
});
