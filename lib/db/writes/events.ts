// Kubernetes Events kept beyond their hour in the cluster: one row per event uid, count and last
// timestamp moved forward as the cluster reports repeats, at most MAX_KEPT_EVENTS_PER_OBJECT per object.
import type pg from "pg";
import type { KubeEventRecord } from "../../kube/types";

export interface EventRow extends KubeEventRecord {
  objectId: string | null;
}

/** Events kept per involved object (newest by last occurrence); older ones are dropped as new ones arrive. */
export const MAX_KEPT_EVENTS_PER_OBJECT = 50;

/** Signature of what may change on an event; an unchanged signature is not written again. */
export const eventSignature = (e: KubeEventRecord) => `${e.count}|${e.lastTimestamp}|${e.message.length}`;

export async function loadEventSignatures(db: Pick<pg.Pool, "query">, clusterId: number, since: Date): Promise<Map<string, string>> {
  const { rows } = await db.query<{ uid: string; count: number; lastTimestamp: Date; len: number }>(
    `SELECT uid, count, "lastTimestamp", length(message) AS len FROM kube_event WHERE "clusterId" = $1 AND "lastTimestamp" >= $2`,
    [clusterId, since],
  );
  return new Map(rows.map((r) => [r.uid, `${r.count}|${r.lastTimestamp.toISOString()}|${r.len}`]));
}

export async function upsertEvents(db: Pick<pg.Pool, "query">, clusterId: number, events: EventRow[]): Promise<number> {
  if (!events.length) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO kube_event ("clusterId", "objectId", uid, "involvedApiVersion", "involvedKind", "involvedNamespace", "involvedName", type,
            reason, message, count, "firstTimestamp", "lastTimestamp", "reportingController", revision)
     SELECT $1, x."objectId", x.uid, x."involvedApiVersion", x."involvedKind", x."involvedNamespace", x."involvedName", x.type, x.reason,
            x.message, x.count, x."firstTimestamp", x."lastTimestamp", x."reportingController", x.revision
       FROM jsonb_to_recordset($2::jsonb) AS x("objectId" bigint, uid text, "involvedApiVersion" text, "involvedKind" text,
            "involvedNamespace" text, "involvedName" text, type text, reason text, message text, count int, "firstTimestamp" timestamp(3),
            "lastTimestamp" timestamp(3), "reportingController" text, revision text)
     ON CONFLICT ("clusterId", uid) DO UPDATE SET count = EXCLUDED.count, "lastTimestamp" = EXCLUDED."lastTimestamp",
            message = EXCLUDED.message, revision = COALESCE(EXCLUDED.revision, kube_event.revision),
            "objectId" = COALESCE(EXCLUDED."objectId", kube_event."objectId")
      WHERE (kube_event.count, kube_event."lastTimestamp", kube_event.message) IS DISTINCT FROM (EXCLUDED.count, EXCLUDED."lastTimestamp", EXCLUDED.message)`,
    [clusterId, JSON.stringify(events)],
  );
  await capEvents(db, clusterId, events);
  return rowCount ?? 0;
}

/** Drops the oldest events of the objects just written beyond MAX_KEPT_EVENTS_PER_OBJECT (through the involved index). */
async function capEvents(db: Pick<pg.Pool, "query">, clusterId: number, events: EventRow[]): Promise<void> {
  const objects = [...new Map(events.map((e) => [`${e.involvedKind}\u0000${e.involvedNamespace}\u0000${e.involvedName}`, e])).values()];
  await db.query(
    `DELETE FROM kube_event WHERE id IN (
       SELECT id FROM (
         SELECT k.id, row_number() OVER (PARTITION BY k."involvedKind", k."involvedNamespace", k."involvedName"
                                         ORDER BY k."lastTimestamp" DESC, k.id DESC) AS n
           FROM kube_event k JOIN unnest($2::text[], $3::text[], $4::text[]) AS o(kind, namespace, name)
             ON k."involvedKind" = o.kind AND k."involvedNamespace" = o.namespace AND k."involvedName" = o.name
          WHERE k."clusterId" = $1) ranked
        WHERE n > $5)`,
    [
      clusterId,
      objects.map((e) => e.involvedKind),
      objects.map((e) => e.involvedNamespace),
      objects.map((e) => e.involvedName),
      MAX_KEPT_EVENTS_PER_OBJECT,
    ],
  );
}
