// A PostgreSQL restart under a live web process: its idle pooled connections (the raw pg pool and Prisma's)
// are dropped by the server. The process must carry on, say so in one log line per connection, and work
// again once the database is back. Run in a child process: an uncaught "error" event would kill it.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded";

const work = mkdtempSync(path.join(os.tmpdir(), "crows-nest-pool-errors-"));
chmodSync(work, 0o755); // as root the embedded PostgreSQL runs as `postgres`, which must enter this folder
let db: EmbeddedDatabase | undefined;
let child: ChildProcessWithoutNullStreams | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  await db?.stop().catch(() => {});
  rmSync(work, { recursive: true, force: true });
});

// The web app's own client module, three connections opened and left idle in the pools.
const SCRIPT = `
import { getPool, getPrisma } from "./lib/db/client.ts";
const pool = getPool();
const prisma = getPrisma();
await Promise.all([pool.query("SELECT pg_sleep(0.1)"), pool.query("SELECT pg_sleep(0.1)"), prisma.$queryRaw\`SELECT 1\`]);
console.log("READY");
process.stdin.on("data", async () => {
  try {
    await pool.query("SELECT 1");
    await prisma.$queryRaw\`SELECT 1\`;
    console.log("QUERIED");
  } catch (err) {
    console.log("QUERY FAILED " + err.message);
  }
});
`;

function waitFor(output: () => string, text: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + ms;
    const poll = setInterval(() => {
      if (output().includes(text)) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() > deadline || child?.exitCode !== null) {
        clearInterval(poll);
        reject(new Error(`no "${text}" within ${ms} ms (exit ${child?.exitCode}); output:\n${output().slice(-2000)}`));
      }
    }, 100);
  });
}

it("survives a PostgreSQL restart under live pools, logging one line per lost connection", async () => {
  const port = await freePort();
  const dataDir = path.join(work, "db");
  db = await startEmbeddedPostgres({ dataDir, port });
  let output = "";
  child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SCRIPT], {
    env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: "info" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  await waitFor(() => output, "READY", 60_000);

  await db.stop();
  await waitFor(() => output, "database connection lost", 15_000);
  await new Promise((r) => setTimeout(r, 1000));
  expect(child.exitCode).toBeNull();
  const lost = output.split("\n").filter((l) => l.includes("database connection lost"));
  expect(lost.length).toBeGreaterThanOrEqual(1);
  for (const line of lost) expect(JSON.parse(line)).toMatchObject({ level: 40, component: expect.stringMatching(/pool$/) });
  expect(output).not.toMatch(/Uncaught|triggerUncaughtException|^\s+at /m);

  db = await startEmbeddedPostgres({ dataDir, port });
  child.stdin.write("go\n");
  await waitFor(() => output, "QUERIED", 30_000);
  expect(child.exitCode).toBeNull();
}, 180_000);
