import { mkdir, mkdtemp, writeFile, cp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { createDatabase } from "../testing/db";
import { migrate, readMigrations } from "./migrate";

const adminUrl = inject("pgAdminUrl");
let n = 0;
const freshDb = () => createDatabase(adminUrl, `migrate_${process.pid}_${Date.now()}_${n++}`);

async function tempMigrations(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "migrations-"));
  for (const [name, sql] of Object.entries(files)) {
    await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

async function tables(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname='public' ORDER BY 1");
  await c.end();
  return rows.map((r) => r.tablename);
}

describe("migrate", () => {
  it("applies the project's migrations once and records them", async () => {
    const url = await freshDb();
    const first = await migrate(url);
    const all = await readMigrations();
    expect(first.applied).toEqual(all.map((m) => m.name));
    expect(first.version).toBe(all.at(-1)!.name);
    const second = await migrate(url);
    expect(second.applied).toEqual([]);
    expect(second.version).toBe(first.version);
    expect(await tables(url)).toContain("flux_object");
  });

  it("is safe when several processes start at once", async () => {
    const url = await freshDb();
    const results = await Promise.all([migrate(url), migrate(url), migrate(url)]);
    const appliedCounts = results.map((r) => r.applied.length).sort();
    const total = (await readMigrations()).length;
    expect(appliedCounts).toEqual([0, 0, total]);
  });

  it("refuses a migration edited after it was applied", async () => {
    const url = await freshDb();
    const dir = await tempMigrations({ "20260101000000_one": "CREATE TABLE one (id int);" });
    await migrate(url, dir);
    await writeFile(path.join(dir, "20260101000000_one", "migration.sql"), "CREATE TABLE one (id bigint);");
    await expect(migrate(url, dir)).rejects.toThrow(/20260101000000_one was edited after it was applied/);
  });

  it("rolls back a failing migration completely and reports it in one line", async () => {
    const url = await freshDb();
    const dir = await tempMigrations({
      "20260101000000_ok": "CREATE TABLE ok (id int);",
      "20260102000000_bad": "CREATE TABLE half (id int);\nINSERT INTO missing_table VALUES (1);",
    });
    const err = await migrate(url, dir).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(
      /^migration 20260102000000_bad failed and was rolled back: relation "missing_table" does not exist$/,
    );
    expect(await tables(url)).toEqual(["crows_nest_migrations", "ok"]);
  });

  it("starts on a database migrated by a newer version (a rollback) and reports what it does not know", async () => {
    const url = await freshDb();
    const dir = await tempMigrations({ "20260101000000_one": "SELECT 1;", "20260102000000_two": "SELECT 1;" });
    await migrate(url, dir);
    const older = await mkdtemp(path.join(os.tmpdir(), "migrations-"));
    await cp(path.join(dir, "20260101000000_one"), path.join(older, "20260101000000_one"), { recursive: true });
    const result = await migrate(url, older);
    expect(result.applied).toEqual([]);
    expect(result.unknown).toEqual(["20260102000000_two"]);
  });

  it("reports an unreachable database in one line", async () => {
    const err = await migrate("postgresql://postgres:x@127.0.0.1:1/none").catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^cannot connect to the database: /);
  });
});
