// Postgres leases: a cluster is polled by the replica holding its lease. Taking a lease is one atomic
// upsert that succeeds only when the row is free, expired, or already ours; a crashed replica's leases
// expire and are taken over. Leases are sticky across cycles so a replica keeps its warm caches.
import type pg from "pg";

type Db = Pick<pg.Pool, "query">;

/**
 * Cluster ids as one Postgres array literal (`{1,2,3}`) for an `$n::int[]` parameter. node-postgres turns a
 * JavaScript array into one quoted, escaped string per element; the lease heartbeat sends a thousand ids every
 * 5 s, and that conversion was the largest allocation of an idle collector's lease queries.
 */
export function intArrayLiteral(ids: readonly number[]): string {
  for (const id of ids) if (!Number.isSafeInteger(id)) throw new Error(`not an integer id: ${id}`);
  return `{${ids.join(",")}}`;
}

/** Lease id for fleet-wide jobs (EKS catalogues, pruning, upstream versions): not a cluster id. */
export const GLOBAL_JOBS_LEASE = -1;

/**
 * Each running replica also holds a heartbeat lease below -1, derived from its name, so replicas can count
 * each other: a replica that exits gives it back, a crashed one's expires like its cluster leases.
 */
export function heartbeatLeaseId(holder: string): number {
  let h = 2166136261;
  for (const ch of holder) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return -2 - (h % 1_000_000_000);
}

/**
 * A lease whose holder's heartbeat ran out is free at once, whatever its own expiry says: a replica killed
 * with kill -9 stops renewing its heartbeat within seconds, while its cluster leases would last minutes.
 * (Heartbeat rows themselves are never stale this way.)
 */
const STALE_HOLDER = (lease: string) =>
  `(${lease}."clusterId" > -2 AND EXISTS (SELECT 1 FROM collector_lease h WHERE h.holder = ${lease}.holder AND h."clusterId" <= -2 AND h."expiresAt" <= now()))`;

/** Renews this replica's heartbeat and returns how many replicas are alive (itself included). */
export async function liveReplicas(db: Db, holder: string, ttlSeconds: number): Promise<number> {
  await replicaHeartbeat(db, holder, ttlSeconds, { watched: [], countOrphans: false });
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(DISTINCT holder) AS n FROM collector_lease WHERE "clusterId" <= -2 AND "expiresAt" > now()`,
  );
  return Math.max(1, Number(rows[0].n));
}

/**
 * Takes or extends leases on `clusterIds` for `holder`; returns the ids now held. `maxNew` caps how many
 * leases not already ours are taken (a fair share across replicas).
 */
export async function acquireLeases(
  db: Db,
  holder: string,
  clusterIds: number[],
  ttlSeconds: number,
  maxNew = Number.MAX_SAFE_INTEGER,
): Promise<number[]> {
  if (!clusterIds.length) return [];
  const { rows: mine } = await db.query<{ clusterId: number }>(
    `UPDATE collector_lease SET "expiresAt" = now() + make_interval(secs => $3)
      WHERE holder = $1 AND "clusterId" = ANY($2::int[]) AND "expiresAt" > now() RETURNING "clusterId"`,
    [holder, intArrayLiteral(clusterIds), ttlSeconds],
  );
  const held = new Set(mine.map((r) => r.clusterId));
  const wanted = clusterIds.filter((id) => !held.has(id));
  if (wanted.length && maxNew > 0) {
    const { rows } = await db.query<{ clusterId: number }>(
      `WITH candidates AS (
         SELECT id FROM unnest($2::int[]) AS id
          WHERE NOT EXISTS (SELECT 1 FROM collector_lease l WHERE l."clusterId" = id AND l."expiresAt" > now() AND NOT ${STALE_HOLDER("l")})
          LIMIT $4
       )
       INSERT INTO collector_lease ("clusterId", holder, "acquiredAt", "expiresAt")
       SELECT id, $1, now(), now() + make_interval(secs => $3) FROM candidates
       ON CONFLICT ("clusterId") DO UPDATE SET holder = EXCLUDED.holder, "acquiredAt" = EXCLUDED."acquiredAt", "expiresAt" = EXCLUDED."expiresAt"
        WHERE collector_lease."expiresAt" <= now() OR collector_lease.holder = EXCLUDED.holder OR ${STALE_HOLDER("collector_lease")}
       RETURNING "clusterId"`,
      [holder, intArrayLiteral(wanted), ttlSeconds, maxNew],
    );
    for (const r of rows) held.add(r.clusterId);
  }
  return clusterIds.filter((id) => held.has(id));
}

/** Extends one lease right before its cluster is polled; false when another replica took it over. */
export async function renewLease(db: Db, holder: string, clusterId: number, ttlSeconds: number): Promise<boolean> {
  return (await acquireLeases(db, holder, [clusterId], ttlSeconds, 1)).length === 1;
}

/** Gives leases back (on shutdown, or when holding more than a fair share). */
export async function releaseLeases(db: Db, holder: string, clusterIds?: number[]): Promise<void> {
  if (clusterIds) {
    if (clusterIds.length)
      await db.query(`DELETE FROM collector_lease WHERE holder = $1 AND "clusterId" = ANY($2::int[])`, [
        holder,
        intArrayLiteral(clusterIds),
      ]);
  } else {
    await db.query(`DELETE FROM collector_lease WHERE holder = $1`, [holder]);
  }
}

/** Cluster ids whose live lease this holder has. */
export async function heldLeases(db: Db, holder: string): Promise<number[]> {
  const { rows } = await db.query<{ clusterId: number }>(
    `SELECT "clusterId" FROM collector_lease WHERE holder = $1 AND "expiresAt" > now()`,
    [holder],
  );
  return rows.map((r) => r.clusterId);
}

export interface HeartbeatAnswer {
  /** False when the heartbeat lease could not be renewed: another live replica's name hashes to the same id. */
  renewed: boolean;
  /** Of the clusters watched, those whose live lease this replica no longer has: expired, released, taken or never held. */
  lost: number[];
  /**
   * Leases of active clusters that another replica still holds on paper although its heartbeat ran out (it
   * was killed): free to take now, though this replica's loop would only look at its next cycle. Null when not asked.
   */
  orphaned: number | null;
}

/**
 * A replica's heartbeat in one round trip: renews its heartbeat lease (taken again if it ran out), names the
 * watched clusters whose lease it lost, and counts dead replicas' leases when asked. It runs every few
 * seconds for the life of the process: three statements each time were half of an idle collector's queries.
 */
export async function replicaHeartbeat(
  db: Db,
  holder: string,
  ttlSeconds: number,
  check: { watched: readonly number[]; countOrphans: boolean },
): Promise<HeartbeatAnswer> {
  const { rows } = await db.query<HeartbeatAnswer>(
    `WITH beat AS (
       INSERT INTO collector_lease ("clusterId", holder, "acquiredAt", "expiresAt")
       VALUES ($2, $1, now(), now() + make_interval(secs => $3))
       ON CONFLICT ("clusterId") DO UPDATE SET holder = EXCLUDED.holder, "expiresAt" = EXCLUDED."expiresAt",
              "acquiredAt" = CASE WHEN collector_lease.holder = EXCLUDED.holder AND collector_lease."expiresAt" > now()
                                  THEN collector_lease."acquiredAt" ELSE EXCLUDED."acquiredAt" END
        WHERE collector_lease.holder = EXCLUDED.holder OR collector_lease."expiresAt" <= now()
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM beat) AS renewed,
            ARRAY(SELECT id FROM unnest($4::int[]) AS id
                   WHERE NOT EXISTS (SELECT 1 FROM collector_lease l WHERE l."clusterId" = id AND l.holder = $1 AND l."expiresAt" > now())) AS lost,
            CASE WHEN $5::boolean THEN
              (SELECT count(*)::int FROM collector_lease l JOIN cluster c ON c.id = l."clusterId"
                WHERE c.lifecycle = 'active' AND l.holder <> $1 AND l."expiresAt" > now() AND ${STALE_HOLDER("l")})
            END AS orphaned`,
    [holder, heartbeatLeaseId(holder), ttlSeconds, intArrayLiteral(check.watched), check.countOrphans],
  );
  return rows[0];
}

/** Names of the clusters whose live lease this holder has (operator actions are claimed only for those). */
export async function leasedClusterNames(db: Db, holder: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.name FROM cluster c JOIN collector_lease l ON l."clusterId" = c.id WHERE l.holder = $1 AND l."expiresAt" > now()`,
    [holder],
  );
  return rows.map((r) => r.name);
}
