// Liveness and readiness for probes and people: is the database reachable, and at which migration?
import { getPool } from "@/lib/db/client";
import { currentMigration } from "@/lib/db/health";
import { oneLine } from "@/lib/errors";

// Reads the database on every request (and stays testable outside a Next.js request scope).
export const dynamic = "force-dynamic";

export async function GET() {
  const started = Date.now();
  try {
    const pool = getPool();
    await pool.query("SELECT 1");
    const migration = await currentMigration(pool);
    return Response.json({ status: "ok", database: { status: "up", latencyMs: Date.now() - started, migration } });
  } catch (err) {
    return Response.json({ status: "error", database: { status: "down", error: oneLine(err), migration: null } }, { status: 503 });
  }
}
