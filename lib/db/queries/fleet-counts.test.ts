// The fleet overview takes per-cluster counts from what the collector keeps on the cluster row, and
// aggregates objects only for clusters that have none yet.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../testing/db";
import { getFleet } from "./fleet";

const db = useTestDatabase();

describe("fleet counts", () => {
  it("reads kept counts, and aggregates for clusters without them", async () => {
    const pool = db.pool();
    const now = new Date();
    await pool.query(
      `INSERT INTO cluster (name, "lastSuccessAt", "healthCounts") VALUES
         ('kept', $1, '{"Kustomization": {"ready": 40, "failing": 2}, "HelmRelease": {"stalled": 1}}'),
         ('fresh', $1, NULL)`,
      [now],
    );
    // Objects of "fresh" only; "kept" has none in flux_object, so its figures can only come from the row.
    await pool.query(`
      INSERT INTO flux_object ("clusterId", kind, "apiVersion", namespace, name, health, "contentHash", "deletedAt")
      SELECT (SELECT id FROM cluster WHERE name = 'fresh'), 'Kustomization', 'v1', 'ns', 'o' || i,
             CASE WHEN i <= 3 THEN 'failing' ELSE 'ready' END, 'h', CASE WHEN i = 10 THEN now() ELSE NULL END
      FROM generate_series(1, 10) AS i`);
    const fleet = await getFleet({} as never, now);
    const kept = fleet.clusters.find((c) => c.name === "kept")!;
    const fresh = fleet.clusters.find((c) => c.name === "fresh")!;
    expect(kept.counts.kustomization).toMatchObject({ ready: 40, failing: 2 });
    expect(kept.counts.helmrelease).toMatchObject({ stalled: 1 });
    expect(fresh.counts.kustomization).toMatchObject({ ready: 6, failing: 3 });
  });
});
