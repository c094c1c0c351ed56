// `npm run demo`: a living fleet on this machine. Embedded PostgreSQL (data kept in .data/), the fleet
// simulator (state in .sim/), the collector polling it, and the web app, with one line when ready.
import path from "node:path";
import { parseArgs } from "node:util";
import { closeDatabase } from "../lib/db/client";
import { ensureDatabase } from "../lib/db/database";
import { seedCampaignIfNone } from "../lib/db/writes/campaigns";
import { enforceSafeAuthConfig } from "../lib/auth/startup-guard";
import { env, resetEnvCache } from "../lib/env";
import { oneLine } from "../lib/errors";
import { startSimulator } from "../lib/simulator";
import { nextBin, onShutdown, startChild, stopChild, waitForHttp, type Child } from "./lib/processes";

const { values: args } = parseArgs({
  options: {
    clusters: { type: "string", default: "12" },
    objects: { type: "string", default: "40" },
    seed: { type: "string", default: "42" },
    // Spokes only Argo CD's cluster secrets lead to (0 until the collector discovers through them).
    "argocd-spokes": { type: "string", default: "0" },
    // Real time by default: timestamps then match the wall clock. Faster speeds play the scenarios
    // sooner, but simulated times run ahead of the clock ("in 7 min").
    speed: { type: "string", default: "1" },
    prod: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});

async function main() {
  const settings = env();
  // Refuse to serve the fleet without sign-in on a network address (one line, exit 1).
  enforceSafeAuthConfig(settings);
  const started = Date.now();
  const db = await ensureDatabase();
  await seedDemoCampaign(db.url);
  const children: Child[] = [];
  const sim = await startSimulator({
    outDir: path.resolve(".sim"),
    clusters: Number(args.clusters),
    objects: Number(args.objects),
    seed: Number(args.seed),
    speed: Number(args.speed),
    argocdSpokes: Number(args["argocd-spokes"]),
  });
  onShutdown(async () => {
    for (const child of children.reverse()) await stopChild(child);
    await sim.stop();
    await db.stop();
  });

  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, HOSTNAME: settings.HOSTNAME };
  children.push(
    startChild(
      "collector",
      process.execPath,
      ["--import", "tsx", "lib/collector/main.ts"],
      {
        ...childEnv,
        ...sim.collectorEnv,
        COLLECTOR_INTERVAL_SECONDS: childEnv.COLLECTOR_INTERVAL_SECONDS ?? "15",
        COLLECTOR_METRICS_PORT: childEnv.COLLECTOR_METRICS_PORT ?? "0",
      },
      { quiet: !args.verbose },
    ),
  );

  const host = settings.HOSTNAME;
  const port = String(settings.PORT);
  const web = startChild("web", process.execPath, [nextBin, args.prod ? "start" : "dev", "-p", port, "-H", host], childEnv, {
    quiet: !args.verbose,
  });
  children.push(web);
  const browserHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  // Ask for the page itself so the first visitor does not wait for it to compile.
  await waitForHttp(`http://${browserHost}:${port}/`, 120_000, web);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    `Crow's Nest demo ready at http://${browserHost}:${port} (${sim.clusters.length} simulated clusters, speed ×${args.speed}, ${seconds} s; Ctrl-C stops)`,
  );
  const code = await Promise.race(children.map((c) => c.exited.then((code) => ({ name: c.name, code }))));
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
  for (const child of children) await stopChild(child);
  await sim.stop();
  await db.stop();
  process.exit(1);
}

/** The demo shows one upgrade campaign from the start (only when the database holds none). */
async function seedDemoCampaign(url: string) {
  process.env.DATABASE_URL = url;
  resetEnvCache();
  const slug = await seedCampaignIfNone(
    {
      name: "All clusters on 1.35 by 2027-03-01",
      targetVersion: "1.35",
      deadline: "2027-03-01",
      waveLabel: "env",
      waveOrder: ["dev", "staging", "prod"],
    },
    "demo",
  );
  if (slug) console.log(`crows-nest: created the demo campaign /upgrades/campaigns/${slug}`);
  await closeDatabase();
}

main().catch((err) => {
  // Keep the child's last output lines that waitForHttp appends; everything else is one line.
  const text = err instanceof Error ? err.message : String(err);
  console.error(`crows-nest: ${text.includes("\n  ") ? text : oneLine(err)}`);
  process.exit(1);
});
