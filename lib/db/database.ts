// The database a process runs on: DATABASE_URL when set, otherwise the project's embedded PostgreSQL.
// Migrations are applied before anything else touches it.
import path from "node:path";
import pg from "pg";
import { env } from "../env";
import { DatabaseStartError, oneLine } from "../errors";
import { startEmbeddedPostgres } from "./embedded";
import { migrate, type MigrationResult } from "./migrate";

export interface ReadyDatabase {
  url: string;
  embedded: boolean;
  migration: MigrationResult;
  stop(): Promise<void>;
}

async function checkReachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (err) {
    const host = (() => {
      try {
        const u = new URL(url);
        return `${u.hostname}:${u.port || 5432}${u.pathname}`;
      } catch {
        return "DATABASE_URL";
      }
    })();
    throw new DatabaseStartError(`cannot reach the database at ${host}: ${oneLine(err)}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Starts (if embedded) and migrates the database; sets DATABASE_URL for this process and its children. */
export async function ensureDatabase(onLog?: (line: string) => void): Promise<ReadyDatabase> {
  const settings = env();
  let url = settings.DATABASE_URL;
  let stop = async () => {};
  const embedded = !url;
  if (!url) {
    const db = await startEmbeddedPostgres({
      dataDir: path.resolve(settings.CROWS_NEST_DATA_DIR),
      port: settings.EMBEDDED_PG_PORT,
      onLog,
    });
    url = db.url;
    stop = db.stop;
    await ensureAppDatabase(url);
    url = withDatabaseName(url, "crows_nest");
  }
  await checkReachable(url);
  let migration: MigrationResult;
  try {
    migration = await migrate(url);
  } catch (err) {
    await stop();
    throw err;
  }
  if (migration.unknown.length) {
    onLog?.(`the database has migrations this version does not know (${migration.unknown.join(", ")}): a newer version ran here`);
    console.warn(
      `crows-nest: the database has newer migrations than this version (${migration.unknown.join(", ")}); continuing, as migrations only add`,
    );
  }
  process.env.DATABASE_URL = url;
  return { url, embedded, migration, stop };
}

function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The embedded server starts with only `postgres`; the app keeps its tables in `crows_nest`. */
async function ensureAppDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = 'crows_nest'");
    if (!rowCount) await client.query("CREATE DATABASE crows_nest");
  } catch (err) {
    // Two processes starting together may both try to create it.
    if (!/already exists/.test(oneLine(err))) throw err;
  } finally {
    await client.end();
  }
}
