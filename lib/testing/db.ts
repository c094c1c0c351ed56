// Gives a test file its own freshly migrated database on the test run's embedded PostgreSQL.
//   const db = useTestDatabase();   // at the top of a test file
//   it("...", async () => { await db.prisma().cluster.create(...) })
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { closeDatabase, getPool, getPrisma } from "../db/client";
import { migrate } from "../db/migrate";
import { resetEnvCache } from "../env";

/** Refuses anything but a loopback server: tests create and drop databases. */
export function assertLocal(url: string): void {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
    throw new Error(`refusing to run database tests against non-local host ${host}`);
  }
}

export function withDatabase(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  assertLocal(adminUrl);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return withDatabase(adminUrl, name);
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export interface TestDatabase {
  /** Connection URL of this file's database (also set as DATABASE_URL). */
  url: () => string;
  adminUrl: () => string;
  prisma: typeof getPrisma;
  pool: typeof getPool;
  /** Empties every application table (keeps the migrations record). */
  truncate: () => Promise<void>;
}

export function useTestDatabase(options: { migrate?: boolean } = {}): TestDatabase {
  const name = `test_${randomBytes(6).toString("hex")}`;
  let url = "";
  const adminUrl = inject("pgAdminUrl");
  beforeAll(async () => {
    url = await createDatabase(adminUrl, name);
    if (options.migrate !== false) await migrate(url);
    process.env.DATABASE_URL = url;
    resetEnvCache();
  });
  afterAll(async () => {
    await closeDatabase();
    await dropDatabase(adminUrl, name);
  });
  return {
    url: () => url,
    adminUrl: () => adminUrl,
    prisma: getPrisma,
    pool: getPool,
    truncate: async () => {
      const { rows } = await getPool().query<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'crows_nest_migrations'",
      );
      if (rows.length) await getPool().query(`TRUNCATE ${rows.map((r) => `"${r.tablename}"`).join(", ")} RESTART IDENTITY CASCADE`);
    },
  };
}
