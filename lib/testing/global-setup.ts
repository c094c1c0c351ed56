// One embedded PostgreSQL for the whole test run, in a throw-away folder on a free port.
// Each test file then gets its own database from it (see ./db.ts).
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from "../db/embedded";
import { DatabaseStartError } from "../errors";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  // Parents of the folder must be traversable by the postgres OS user: use the system temp dir.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "crows-nest-test-"));
  const port = await freePort();
  let db: EmbeddedDatabase;
  try {
    db = await startEmbeddedPostgres({ dataDir, port, ephemeral: true });
  } catch (err) {
    if (!(err instanceof DatabaseStartError)) throw err;
    // The message says what to do; Vitest's code frame and stack around it would only bury it.
    process.stderr.write(`\nthe tests need PostgreSQL: ${err.message}\n\n`);
    process.exit(1);
  }
  project.provide("pgAdminUrl", db.url);
  return async () => {
    await db.stop();
  };
}
