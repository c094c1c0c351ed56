// Starts the real stack once for every spec: embedded PostgreSQL (throw-away), the fleet simulator
// with its clock stopped (specs move it with E2E_SIM_CONTROL_URL), the collector polling every
// 2 seconds, and the production build of the web app.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, startEmbeddedPostgres } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { startSimulator } from "../lib/simulator";
import type { SimFleet } from "../lib/simulator/fleet";
import { nextBin, startChild, stopChild, waitForHttp } from "../scripts/lib/processes";
import { E2E_FLEET } from "./fleet";

export const E2E_WEBHOOK_SECRET = "e2e-webhook-secret-0123456789abcdef";

export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT ?? 3100);
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!existsSync(path.join(distDir, "BUILD_ID"))) {
    throw new Error(`no production build in ${distDir}: run \`npm run build\` before \`npm run test:e2e\``);
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "crows-nest-e2e-db-"));
  const db = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
  await migrate(db.url);

  const simDir = await mkdtemp(path.join(os.tmpdir(), "crows-nest-e2e-sim-"));
  const sim = await startSimulator({ outDir: simDir, ...E2E_FLEET, speed: 0 });

  const baseEnv = {
    ...process.env,
    DATABASE_URL: db.url,
    LOG_LEVEL: "warn",
    WEBHOOK_HMAC_SECRET: E2E_WEBHOOK_SECRET,
    AUTH_MODE: "none",
    HOSTNAME: "127.0.0.1",
  };
  const collector = startChild(
    "collector",
    process.execPath,
    ["--import", "tsx", "lib/collector/main.ts"],
    {
      ...baseEnv,
      ...sim.collectorEnv,
      COLLECTOR_INTERVAL_SECONDS: "2",
      // Versions, nodes and EKS facts change rarely in production; here the specs watch them change.
      COLLECTOR_FACTS_INTERVAL_SECONDS: "5",
      COLLECTOR_EKS_INTERVAL_SECONDS: "5",
      COLLECTOR_METRICS_PORT: "0",
    },
    { quiet: !process.env.E2E_VERBOSE },
  );
  // Their logs would drown the test report (E2E_VERBOSE=1 shows them); a child that dies shows its last lines.
  const web = startChild("web", process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], baseEnv, {
    quiet: !process.env.E2E_VERBOSE,
  });
  await waitForHttp(`http://127.0.0.1:${port}/api/health`, 90_000, web);

  process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`;
  process.env.E2E_DATABASE_URL = db.url;
  process.env.E2E_SIM_CONTROL_URL = sim.controlUrl;
  process.env.E2E_SIM_DIR = simDir;
  process.env.E2E_SIM_EPOCH = String((sim.model as SimFleet).epoch);
  process.env.E2E_WEBHOOK_SECRET = E2E_WEBHOOK_SECRET;

  return async () => {
    await stopChild(web);
    await stopChild(collector);
    await sim.stop();
    await db.stop();
    await rm(simDir, { recursive: true, force: true });
  };
}
