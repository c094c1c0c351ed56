// Applies the hand-written SQL migrations in prisma/migrations/<timestamp>_<name>/migration.sql.
// Each runs in its own transaction and is recorded with a checksum; an applied migration that was
// edited afterwards is refused; an advisory lock makes simultaneous start-ups take turns.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { MigrationError, oneLine } from "../errors";

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
  /** Migrations in the database this version does not have: a newer version ran here (a rollback). */
  unknown: string[];
  /** Name of the newest migration in the database after the run. */
  version: string | null;
}

export const MIGRATIONS_TABLE = "crows_nest_migrations";
const TABLE = MIGRATIONS_TABLE;
// Any fixed 64-bit number unique to this purpose.
const LOCK_KEY = 7_294_118_205_331n;

export function defaultMigrationsDir(): string {
  return path.resolve(process.cwd(), "prisma", "migrations");
}

export function checksum(sql: string): string {
  return createHash("sha256").update(sql.replace(/\r\n/g, "\n")).digest("hex");
}

export async function readMigrations(dir = defaultMigrationsDir()): Promise<Migration[]> {
  if (!existsSync(dir)) throw new MigrationError(`migrations folder ${dir} not found`);
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && /^\d{14}_[a-z0-9_]+$/.test(e.name))
    .map((e) => e.name)
    .sort();
  const migrations: Migration[] = [];
  for (const name of entries) {
    const file = path.join(dir, name, "migration.sql");
    if (!existsSync(file)) throw new MigrationError(`migration ${name} has no migration.sql`);
    const sql = await readFile(file, "utf8");
    migrations.push({ name, sql, checksum: checksum(sql) });
  }
  return migrations;
}

/** Applies pending migrations to the database at `url`. Safe to call from several processes at once. */
export async function migrate(url: string, dir = defaultMigrationsDir()): Promise<MigrationResult> {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    throw new MigrationError(`cannot connect to the database: ${oneLine(err)}`);
  }
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY.toString()]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${TABLE} (
         name text PRIMARY KEY,
         checksum text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now(),
         duration_ms integer NOT NULL
       )`,
    );
    const { rows } = await client.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM ${TABLE} ORDER BY name`);
    const applied = new Map(rows.map((r) => [r.name, r.checksum]));
    // Migrations only add, so an older version still works on a newer schema (rolling back the image):
    // report what it does not know instead of refusing to start.
    const known = new Set(migrations.map((m) => m.name));
    const unknown = [...applied.keys()].filter((name) => !known.has(name));
    const done: string[] = [];
    for (const m of migrations) {
      const recorded = applied.get(m.name);
      if (recorded !== undefined) {
        if (recorded !== m.checksum) {
          throw new MigrationError(
            `migration ${m.name} was edited after it was applied (checksum ${recorded.slice(0, 12)} in the database, ${m.checksum.slice(0, 12)} on disk); add a new migration instead`,
          );
        }
        continue;
      }
      const started = Date.now();
      try {
        await client.query("BEGIN");
        await client.query(m.sql);
        await client.query(`INSERT INTO ${TABLE} (name, checksum, duration_ms) VALUES ($1, $2, $3)`, [
          m.name,
          m.checksum,
          Date.now() - started,
        ]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw new MigrationError(`migration ${m.name} failed and was rolled back: ${oneLine(err)}`);
      }
      done.push(m.name);
    }
    const last = await client.query<{ name: string }>(`SELECT name FROM ${TABLE} ORDER BY name DESC LIMIT 1`);
    return { applied: done, unknown, version: last.rows[0]?.name ?? null };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY.toString()]).catch(() => {});
    await client.end().catch(() => {});
  }
}
