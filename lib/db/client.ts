// Database clients, created lazily: `next build` imports every route module, and a client made at
// module scope would fail the build without DATABASE_URL.
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";
import { env } from "../env";
import { oneLine } from "../errors";
import { logger } from "../logger";
import { parseTimestamp } from "./timestamps";

// Columns are `timestamp(3) without time zone` holding UTC (Prisma's convention). Read and write them
// as UTC whatever the server's or the session's time zone is, BC years and ±infinity included.
pg.types.setTypeParser(1114, parseTimestamp);
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

/**
 * An idle pooled connection that the server drops (a restart, a failover) emits "error" on its pool; with
 * no listener that is an uncaught exception dump per connection. One warning line instead: the pool opens
 * a new connection on the next query, and a query that fails meanwhile fails on its own.
 */
export function logPoolError(component: string): (err: Error) => void {
  return (err) => logger.warn({ component, err: oneLine(err) }, "database connection lost; reconnecting on next use");
}

/** A pg pool for raw SQL (bulk writes, LISTEN/NOTIFY, health). */
export function getPool(): pg.Pool {
  if (!pool) {
    pool = new pg.Pool({ connectionString: databaseUrl(), max: 10, idleTimeoutMillis: 30_000, options: SESSION_OPTIONS });
    pool.on("error", logPoolError("db-pool"));
  }
  return pool;
}

/**
 * How long the collector keeps an idle connection: longer than a cycle (60 s by default). With pg's default
 * (10 s) the pool closed its connections between one cycle and the next, and the next cycle's lease renewals
 * and heartbeat batches opened them again: a SCRAM exchange on both sides and a new server process each.
 */
export const COLLECTOR_IDLE_CONNECTION_MS = 5 * 60_000;

/** The collector's pool: a connection per cluster read at once (and a few for its own work), kept across cycles. */
export function collectorPool(url: string, concurrency: number): pg.Pool {
  const db = new pg.Pool({
    connectionString: url,
    max: Math.min(40, concurrency + 4),
    idleTimeoutMillis: COLLECTOR_IDLE_CONNECTION_MS,
    options: SESSION_OPTIONS,
  });
  db.on("error", logPoolError("collector-pool"));
  return db;
}

export function getPrisma(): PrismaClient {
  prisma ??= new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl(), max: 10 }, { onPoolError: logPoolError("prisma-pool") }),
  });
  return prisma;
}

export async function closeDatabase(): Promise<void> {
  const [p, q] = [prisma, pool];
  prisma = undefined;
  pool = undefined;
  await Promise.all([p?.$disconnect(), q?.end()]);
}
