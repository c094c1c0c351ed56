// The fleet-wide "which objects are stale now" question must read the expression index, not scan every
// object: / and /failures ask it on every render. If staleSql and the index drift apart, this fails.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../testing/db";
import { staleSql } from "./shared";

const db = useTestDatabase();

describe("stale objects query", () => {
  it("uses flux_object_stale_after_idx on a fleet-sized table, and finds exactly the stale ones", async () => {
    const pool = db.pool();
    await pool.query(`INSERT INTO cluster (name) VALUES ('c1')`);
    // 20,000 objects: every tenth a Kustomization reconciled every 10 min; most recently, some not for hours.
    await pool.query(`
      INSERT INTO flux_object ("clusterId", kind, "apiVersion", namespace, name, health, "contentHash", "intervalSeconds", "lastReconcileAt", "deletedAt")
      SELECT 1, CASE WHEN i % 10 = 0 THEN 'Kustomization' ELSE 'HelmRelease' END, 'v1', 'ns', 'o' || i,
             CASE WHEN i % 7 = 0 THEN 'failing' ELSE 'ready' END, 'h', 600,
             CASE WHEN i % 1000 = 0 THEN now() - interval '3 hours' ELSE now() - interval '2 minutes' END,
             CASE WHEN i % 3000 = 0 THEN now() ELSE NULL END
      FROM generate_series(1, 20000) AS i`);
    await pool.query("ANALYZE flux_object");
    const sql = `SELECT o.id FROM flux_object o WHERE ${staleSql("$1")}`;
    const plan = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, [new Date()]);
    expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("flux_object_stale_after_idx");
    // i % 1000 = 0 → Kustomizations (i % 10 = 0) reconciled 3 h ago; ready unless i % 7 = 0; live unless i % 3000 = 0.
    const expected = Array.from({ length: 20 }, (_, k) => (k + 1) * 1000).filter((i) => i % 7 !== 0 && i % 3000 !== 0).length;
    const { rows } = await pool.query(sql, [new Date()]);
    expect(rows).toHaveLength(expected);
  });
});
