// Database clients, created lazily: `next build` imports every route module, and a client made at
// module scope would fail the build without DATABASE_URL.
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";
import { env } from "../env";

// Columns are `timestamp(3) without time zone` holding UTC (Prisma's convention). Read and write them
// as UTC whatever the server's or the session's time zone is.
pg.types.setTypeParser(1114, (text: string) => new Date(text.replace(" ", "T") + "Z"));
pg.defaults.parseInputDatesAsUTC = true;
/** Session settings for every connection: UTC for now() and CURRENT_TIMESTAMP defaults. */
export const SESSION_OPTIONS = "-c TimeZone=UTC";

let pool: pg.Pool | undefined;
let prisma: PrismaClient | undefined;

export function databaseUrl(): string {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start through `npm run demo` / `npm start`, or set it");
  return url;
}

/** A pg pool for raw SQL (bulk writes, LISTEN/NOTIFY, health). */
export function getPool(): pg.Pool {
  pool ??= new pg.Pool({ connectionString: databaseUrl(), max: 10, idleTimeoutMillis: 30_000, options: SESSION_OPTIONS });
  return pool;
}

export function getPrisma(): PrismaClient {
  prisma ??= new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl(), max: 10 }) });
  return prisma;
}

export async function closeDatabase(): Promise<void> {
  const [p, q] = [prisma, pool];
  prisma = undefined;
  pool = undefined;
  await Promise.all([p?.$disconnect(), q?.end()]);
}
