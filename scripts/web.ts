// `npm start` (production build) and `npm run dev`: database ready and migrated, then Next.js.
import { existsSync } from "node:fs";
import path from "node:path";
import { ensureDatabase } from "../lib/db/database";
import { enforceSafeAuthConfig } from "../lib/auth/startup-guard";
import { env } from "../lib/env";
import { oneLine } from "../lib/errors";
import { nextBin, onShutdown, startChild, stopChild, waitForHttp } from "./lib/processes";

const dev = process.argv.includes("--dev");

async function main() {
  const settings = env();
  // Refuse to serve the fleet without sign-in on a network address (one line, exit 1).
  enforceSafeAuthConfig(settings);
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!dev && !existsSync(path.join(distDir, "BUILD_ID"))) {
    throw new Error(`no production build in ${distDir}: run \`npm run build\` first (or \`npm run dev\`)`);
  }
  const db = await ensureDatabase();
  const host = settings.HOSTNAME;
  const port = String(settings.PORT);
  const web = startChild("web", process.execPath, [nextBin, dev ? "dev" : "start", "-p", port, "-H", host], {
    ...process.env,
    DATABASE_URL: db.url,
    HOSTNAME: host,
  });
  onShutdown(async () => {
    await stopChild(web);
    await db.stop();
  });
  const browserHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  await waitForHttp(`http://${browserHost}:${port}/api/health`, 120_000, web);
  console.log(`Crow's Nest ready at http://${browserHost}:${port}`);
  const code = await web.exited;
  await db.stop();
  process.exit(code);
}

main().catch((err) => {
  console.error(`crows-nest: ${oneLine(err)}`);
  process.exit(1);
});
