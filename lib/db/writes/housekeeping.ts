// Collector runs (for the freshness header), nudges handled, and retention pruning in batches.
import type pg from "pg";
import { staleSql, unclaimedSql } from "../queries/shared";

type Db = Pick<pg.Pool, "query">;

export async function startRun(db: Db, replica: string, startedAt: Date): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO collector_run (replica, "startedAt") VALUES ($1, $2) RETURNING id::text AS id`,
    [replica, startedAt],
  );
  return rows[0].id;
}

export async function finishRun(
  db: Db,
  id: string,
  run: {
    finishedAt: Date;
    clusters: number;
    failedClusters: number;
    objects: number;
    requests: number;
    rowsWritten: number;
    durationMs: number;
  },
): Promise<void> {
  await db.query(
    `UPDATE collector_run SET "finishedAt" = $2, clusters = $3, "failedClusters" = $4, objects = $5, requests = $6, "rowsWritten" = $7, "durationMs" = $8
      WHERE id = $1`,
    [id, run.finishedAt, run.clusters, run.failedClusters, run.objects, run.requests, run.rowsWritten, run.durationMs],
  );
}

export interface PendingNudge {
  id: string;
  clusterName: string;
  kind: string | null;
  namespace: string | null;
  name: string | null;
}

export async function pendingNudges(db: Db): Promise<PendingNudge[]> {
  const { rows } = await db.query<PendingNudge>(
    `SELECT id::text AS id, "clusterName", kind, namespace, name FROM collector_nudge WHERE "handledAt" IS NULL ORDER BY "requestedAt" LIMIT 500`,
  );
  return rows;
}

export async function markNudgesHandled(db: Db, ids: string[], at: Date): Promise<void> {
  if (ids.length) await db.query(`UPDATE collector_nudge SET "handledAt" = $2 WHERE id = ANY($1::bigint[])`, [ids, at]);
}

/**
 * Live objects per kind and health as pages show it now (stale and unclaimed derived with the page rules;
 * an unreachable cluster's objects keep their last health here), for the collector's gauges.
 */
export async function objectHealthTotals(db: Db, now: Date): Promise<Array<{ kind: string; health: string; n: number }>> {
  const { rows } = await db.query<{ kind: string; health: string; n: number }>(
    `SELECT kind, CASE WHEN ${staleSql("$1")} THEN 'stale' WHEN ${unclaimedSql("$1")} THEN 'unclaimed' ELSE health END AS health,
            count(*)::int AS n
       FROM flux_object o WHERE o."deletedAt" IS NULL GROUP BY 1, 2`,
    [now],
  );
  return rows;
}

/** Deletes history older than the retention, a batch at a time so no long lock is held. Returns rows deleted. */
export async function pruneHistory(db: Db, before: Date, batchSize = 5000): Promise<number> {
  const tables: Array<[string, string]> = [
    ["flux_object_transition", "at"],
    ["cluster_version_change", "at"],
    ["kube_event", `"lastTimestamp"`],
    ["webhook_event", `"receivedAt"`],
    ["collector_run", `"startedAt"`],
    ["collector_nudge", `"requestedAt"`],
  ];
  let total = 0;
  for (const [table, column] of tables) {
    for (;;) {
      const { rowCount } = await db.query(`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${column} < $1 LIMIT $2)`, [
        before,
        batchSize,
      ]);
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < batchSize) break;
    }
  }
  // Objects and nodes that left their cluster longer ago than the retention go too (objects with their history).
  for (const table of ["flux_object", "node"]) {
    for (;;) {
      const { rowCount } = await db.query(`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE "deletedAt" < $1 LIMIT $2)`, [
        before,
        batchSize,
      ]);
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < batchSize) break;
    }
  }
  return total;
}
