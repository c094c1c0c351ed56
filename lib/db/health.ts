// Database status for /api/health. Kept apart from the migration runner, which reads the file system.
import type pg from "pg";

/** Newest applied migration, or null when none. */
export async function currentMigration(client: { query: pg.Pool["query"] }): Promise<string | null> {
  try {
    const { rows } = await client.query<{ name: string }>("SELECT name FROM crows_nest_migrations ORDER BY name DESC LIMIT 1");
    return rows[0]?.name ?? null;
  } catch {
    return null;
  }
}
