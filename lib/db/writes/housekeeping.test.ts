import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../testing/db";
import { pruneHistory } from "./housekeeping";

const db = useTestDatabase();

describe("pruneHistory", () => {
  it("deletes history older than the retention in batches and keeps the rest", async () => {
    const pool = db.pool();
    const { rows } = await pool.query<{ id: number }>(`INSERT INTO cluster (name) VALUES ('c') RETURNING id`);
    const clusterId = rows[0].id;
    const obj = async (name: string, deletedAt: string | null) =>
      (
        await pool.query<{ id: string }>(
          `INSERT INTO flux_object ("clusterId", kind, "apiVersion", namespace, name, health, "contentHash", "deletedAt")
           VALUES ($1, 'Kustomization', 'kustomize.toolkit.fluxcd.io/v1', 'ns', $2, 'ready', 'h', $3) RETURNING id::text AS id`,
          [clusterId, name, deletedAt],
        )
      ).rows[0].id;
    const live = await obj("live", null);
    const longGone = await obj("long-gone", "2020-01-01T00:00:00Z");
    await pool.query(
      `INSERT INTO flux_object_transition ("objectId", "clusterId", at, change, fields, health)
       SELECT $1, $2, now() - make_interval(days => g), 'changed', '{health}', 'ready' FROM generate_series(1, 30) g`,
      [live, clusterId],
    );
    await pool.query(
      `INSERT INTO flux_object_transition ("objectId", "clusterId", at, change, fields, health) VALUES ($1, $2, '2020-01-01', 'deleted', '{deleted}', 'ready')`,
      [longGone, clusterId],
    );
    await pool.query(
      `INSERT INTO cluster_version_change ("clusterId", at, component, "fromVersion", "toVersion") VALUES ($1, now() - interval '20 days', 'kubernetes', 'v1.32', 'v1.33'), ($1, now(), 'kubernetes', 'v1.33', 'v1.34')`,
      [clusterId],
    );
    const deleted = await pruneHistory(pool, new Date(Date.now() - 10 * 86_400_000), 7);
    const count = async (sql: string) => Number((await pool.query(sql)).rows[0].count);
    expect(await count(`SELECT count(*) FROM flux_object_transition`)).toBe(9);
    expect(await count(`SELECT count(*) FROM cluster_version_change`)).toBe(1);
    expect(await count(`SELECT count(*) FROM flux_object WHERE name = 'long-gone'`)).toBe(0);
    expect(await count(`SELECT count(*) FROM flux_object WHERE name = 'live'`)).toBe(1);
    expect(deleted).toBe(21 + 1 + 1 + 1);
  });
});
