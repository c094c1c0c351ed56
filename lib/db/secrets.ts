// Keys generated once per deployment and kept in Postgres, so every web replica (and every copy of a
// module in the Next.js bundle) uses the same one. The first writer wins; everyone reads its value.
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { getPool } from "./client";

export async function getOrCreateSecret(name: string, pool: pg.Pool = getPool()): Promise<string> {
  await pool.query(`INSERT INTO deployment_secret (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
    name,
    randomBytes(32).toString("base64url"),
  ]);
  const { rows } = await pool.query<{ value: string }>(`SELECT value FROM deployment_secret WHERE name = $1`, [name]);
  if (!rows[0]) throw new Error(`deployment secret ${name} vanished`);
  return rows[0].value;
}
