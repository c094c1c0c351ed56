// Kubernetes Events kept beyond their hour in the cluster: one row per event uid, count and last
// timestamp moved forward as the cluster reports repeats.
import type pg from "pg";
import type { KubeEventRecord } from "../../kube/types";

export interface EventRow extends KubeEventRecord {
  objectId: string | null;
}

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
    `INSERT INTO kube_event ("clusterId", "objectId", uid, "involvedKind", "involvedNamespace", "involvedName", type, reason, message,
            count, "firstTimestamp", "lastTimestamp", "reportingController")
     SELECT $1, x."objectId", x.uid, x."involvedKind", x."involvedNamespace", x."involvedName", x.type, x.reason, x.message, x.count,
            x."firstTimestamp", x."lastTimestamp", x."reportingController"
       FROM jsonb_to_recordset($2::jsonb) AS x("objectId" bigint, uid text, "involvedKind" text, "involvedNamespace" text, "involvedName" text,
            type text, reason text, message text, count int, "firstTimestamp" timestamp(3), "lastTimestamp" timestamp(3), "reportingController" text)
     ON CONFLICT ("clusterId", uid) DO UPDATE SET count = EXCLUDED.count, "lastTimestamp" = EXCLUDED."lastTimestamp",
            message = EXCLUDED.message, "objectId" = COALESCE(EXCLUDED."objectId", kube_event."objectId")
      WHERE (kube_event.count, kube_event."lastTimestamp", kube_event.message) IS DISTINCT FROM (EXCLUDED.count, EXCLUDED."lastTimestamp", EXCLUDED.message)`,
    [clusterId, JSON.stringify(events)],
  );
  return rowCount ?? 0;
}
