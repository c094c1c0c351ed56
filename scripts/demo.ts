// `npm run demo`: a living fleet on this machine. Embedded PostgreSQL (data kept in .data/), the fleet
// simulator (state in .sim/), the collector polling it, and the web app served from a production build
// (built once into .next-demo/, reused while the sources are unchanged), with one line when ready.
import path from "node:path";
import { parseArgs } from "node:util";
import { closeDatabase } from "../lib/db/client";
import { ensureDatabase } from "../lib/db/database";
import { seedCampaignIfNone } from "../lib/db/writes/campaigns";
import { EXAMPLE_CAMPAIGN } from "../lib/upgrades/campaign";
import { enforceSafeAuthConfig } from "../lib/auth/startup-guard";
import { env, resetEnvCache } from "../lib/env";
import { oneLine } from "../lib/errors";
import { startSimulator } from "../lib/simulator";
import { COLLECTOR_NODE_FLAGS } from "../lib/collector/heap";
import type { SimFleet } from "../lib/simulator/fleet/index";
import { nextBin, onShutdown, startChild, stopChild, waitForHttp, type Child } from "./lib/processes";
import { browserAddresses, DEMO_DIST_DIR, ensureProductionBuild, type BuildResult } from "./lib/web-build";

const { values: args } = parseArgs({
  options: {
    clusters: { type: "string", default: "12" },
    objects: { type: "string", default: "40" },
    seed: { type: "string", default: "42" },
    // Spokes only Argo CD's cluster secrets lead to (the demo shows both engines).
    "argocd-spokes": { type: "string", default: "3" },
    // Real time by default: timestamps then match the wall clock. Faster speeds play the scenarios
    // sooner, but simulated times run ahead of the clock.
    speed: { type: "string", default: "1" },
    // Flux's controllers reconcile every object again on its interval, writing its status as they go: a
    // real fleet is never quiet ("off": only the scenarios change objects).
    reconciles: { type: "string", default: "on" },
    // The development server instead of the production build: for changing the code while it runs.
    dev: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});

async function main() {
  if (args.reconciles !== "on" && args.reconciles !== "off") throw new Error(`--reconciles is on or off, got "${args.reconciles}"`);
  const settings = env();
  // Refuse to serve the fleet without sign-in on a network address (one line, exit 1).
  enforceSafeAuthConfig(settings);
  const started = Date.now();
  const children: Child[] = [];
  // The build is the slow part on a first start: the database, simulator and collector start meanwhile.
  const build: Promise<BuildResult | null> = args.dev
    ? Promise.resolve(null)
    : ensureProductionBuild({
        root: process.cwd(),
        distDir: DEMO_DIST_DIR,
        verbose: args.verbose,
        onBuild: () =>
          console.log("Building the web app for the demo (about 1–3 minutes, once: the build is reused until the sources change)…"),
      });
  build.catch(() => {}); // awaited below; keeps an early failure from being reported twice
  const db = await ensureDatabase();
  await seedDemoCampaign(db.url);
  const sim = await startSimulator({
    outDir: path.resolve(".sim"),
    clusters: Number(args.clusters),
    objects: Number(args.objects),
    seed: Number(args.seed),
    speed: Number(args.speed),
    argocdSpokes: Number(args["argocd-spokes"]),
    reconciles: args.reconciles === "on",
  });
  let stopping = false;
  const stopAll = async () => {
    stopping = true;
    for (const child of [...children].reverse()) await stopChild(child);
    await sim.stop();
    await db.stop();
  };
  onShutdown(stopAll);

  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, HOSTNAME: settings.HOSTNAME };
  children.push(
    startChild(
      "collector",
      process.execPath,
      [...COLLECTOR_NODE_FLAGS, "--import", "tsx", "lib/collector/main.ts"],
      {
        ...childEnv,
        ...sim.collectorEnv,
        COLLECTOR_INTERVAL_SECONDS: childEnv.COLLECTOR_INTERVAL_SECONDS ?? "15",
        COLLECTOR_METRICS_PORT: childEnv.COLLECTOR_METRICS_PORT ?? "0",
      },
      { quiet: !args.verbose },
    ),
  );

  let built: BuildResult | null;
  try {
    built = await build;
  } catch (err) {
    await stopAll();
    throw err;
  }
  // "localhost" may resolve to ::1 alone on some machines: listen on 127.0.0.1 so both names reach it.
  const host = settings.HOSTNAME === "localhost" ? "127.0.0.1" : settings.HOSTNAME;
  const port = String(settings.PORT);
  const web = startChild(
    "web",
    process.execPath,
    [nextBin, args.dev ? "dev" : "start", "-p", port, "-H", host],
    args.dev ? childEnv : { ...childEnv, NEXT_DIST_DIR: DEMO_DIST_DIR },
    { quiet: !args.verbose },
  );
  children.push(web);
  const [first, ...others] = browserAddresses(settings.HOSTNAME, port);
  // Ask for the page itself, so the first visitor finds it ready (and, under --dev, compiled).
  const probeHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  await waitForHttp(`http://${probeHost}:${port}/`, 120_000, web);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const how = args.dev
    ? "development server"
    : built?.reused
      ? "production build reused"
      : `production build made in ${built?.seconds} s, reused from now on`;
  // The fleet page also lists the cluster Crossplane fails to create: it has no API server to simulate.
  const { provisioning } = (sim.model as SimFleet).facts;
  console.log(
    `Crow's Nest demo ready at ${first}${others.length ? ` (also ${others.join(", ")})` : ""} ` +
      `(${sim.clusters.length} simulated clusters, ${Object.keys(provisioning.availableAt).length} of them created by Crossplane during the run, and ${provisioning.failing}, which ` +
      `Crossplane fails to create; speed ×${args.speed}, ${how}, ${seconds} s; Ctrl-C stops)`,
  );
  const code = await Promise.race(children.map((c) => c.exited.then((code) => ({ name: c.name, code }))));
  if (stopping) return; // Ctrl-C: the children were asked to stop
  const died = children.find((c) => c.name === code.name);
  console.error(
    `crows-nest: ${code.name} exited with code ${code.code}${
      died
        ? died
            .lastLines()
            .slice(-5)
            .map((l) => `\n  ${l}`)
            .join("")
        : ""
    }`,
  );
  await stopAll();
  process.exit(1);
}

/** The demo shows one upgrade campaign from the start (only when the database holds none). */
async function seedDemoCampaign(url: string) {
  process.env.DATABASE_URL = url;
  resetEnvCache();
  const slug = await seedCampaignIfNone(EXAMPLE_CAMPAIGN, "demo");
  if (slug) console.log(`crows-nest: created the demo campaign /upgrades/campaigns/${slug}`);
  await closeDatabase();
}

main().catch((err) => {
  // Keep the child's last output lines that waitForHttp appends; everything else is one line.
  const text = err instanceof Error ? err.message : String(err);
  console.error(`crows-nest: ${text.includes("\n  ") ? text : oneLine(err)}`);
  process.exit(1);
});
