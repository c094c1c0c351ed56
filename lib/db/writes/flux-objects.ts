// Bulk writes of Flux objects and their history: one multi-row upsert per cluster poll (rows passed as one
// JSON parameter and expanded with jsonb_to_recordset), transitions appended in the same transaction.
import type pg from "pg";
import { conditionsToStore } from "../../fleet/message";
import { objectKey, type CaredFields } from "../../kube/flux";
import { keptObject } from "../kept-object";
import type { KnownObject, ObjectPlan, ObjectUpsert } from "../types";

export type Queryable = Pick<pg.Pool, "query" | "connect">;

/** A stored row as loaded back: the fields history is kept for, plus what change detection needs. */
interface KnownRow extends CaredFields {
  id: string;
  kind: string;
  namespace: string;
  name: string;
  contentHash: string;
  firstFailedAt: Date | null;
  lastReadyAt: Date | null;
  lastGoodRevision: string | null;
  lastReconcileAt: Date | null;
  deletedAt: Date | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What we stored for a cluster, keyed by kind/namespace/name. */
export async function loadKnownObjects(db: Pick<pg.Pool, "query">, clusterId: number): Promise<Map<string, KnownObject>> {
  const { rows } = await db.query<KnownRow>(
    `SELECT id::text AS id, kind, namespace, name, "contentHash", health, "healthDetail", "readyStatus", "readyReason", "readyMessage",
            "attemptedRevision", "appliedRevision", "chartVersion", "appVersion", suspended, "firstFailedAt", "lastReadyAt",
            "lastGoodRevision", "lastReconcileAt", "deletedAt"
       FROM flux_object WHERE "clusterId" = $1`,
    [clusterId],
  );
  const known = new Map<string, KnownObject>();
  for (const r of rows) {
    const cared: CaredFields = {
      health: r.health,
      healthDetail: r.healthDetail,
      readyStatus: r.readyStatus,
      readyReason: r.readyReason,
      readyMessage: r.readyMessage,
      attemptedRevision: r.attemptedRevision,
      appliedRevision: r.appliedRevision,
      chartVersion: r.chartVersion,
      appVersion: r.appVersion,
      suspended: r.suspended,
    };
    known.set(
      objectKey(r),
      keptObject(
        r.id,
        r.kind,
        r.contentHash,
        cared,
        {
          firstFailedAt: iso(r.firstFailedAt),
          lastReadyAt: iso(r.lastReadyAt),
          lastGoodRevision: r.lastGoodRevision,
          lastReconcileAt: iso(r.lastReconcileAt),
        },
        r.deletedAt !== null,
      ),
    );
  }
  return known;
}

const UPSERT_COLUMNS = `
  kind text, "apiVersion" text, namespace text, name text, uid text, "creationTimestamp" timestamp(3), generation int,
  "observedGeneration" int, health text, "healthDetail" text, "readyStatus" text, "readyReason" text, "readyMessage" text, "stalledReason" text, "stalledMessage" text,
  reconciling boolean, suspended boolean, conditions jsonb, "attemptedRevision" text, "appliedRevision" text,
  "originRevision" text, "sourceKind" text, "sourceNamespace" text, "sourceName" text, url text, "chartName" text,
  "chartVersion" text, "deployedChartVersion" text, "appVersion" text, "desiredChartVersion" text, "helmChartNamespace" text,
  "helmChartName" text, "dependsOn" jsonb, "interval" text,
  "intervalSeconds" int, "lastHandledReconcileAt" text, "lastReconcileAt" timestamp(3), inventory jsonb, history jsonb,
  spec jsonb, details jsonb, "contentHash" text, "firstFailedAt" timestamp(3), "lastReadyAt" timestamp(3), "lastGoodRevision" text`;

const COLUMN_NAMES = UPSERT_COLUMNS.split(",").map((c) => c.trim().split(/\s+/)[0]);
const UPDATE_SET = COLUMN_NAMES.filter((c) => !["kind", "namespace", "name"].includes(c))
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(", ");

/**
 * The fields only the database holds, as a JSON object, for appending to the record's JSON (as it was hashed:
 * reusing it saves a second serialisation of every object written, 150,000 at a cold start). jsonb keeps
 * the last of duplicate keys, so an appended key replaces the record's own, as an object spread would: the
 * conditions, when a long message Ready shares is stored once.
 */
function storedOnlyFields(u: ObjectUpsert): string {
  const conditions = conditionsToStore(u.record.conditions, u.record.readyMessage);
  return JSON.stringify({
    // A 32 KiB message that Ready and Healthy share is stored once, as readyMessage.
    conditions: conditions.some((c, i) => c !== u.record.conditions[i]) ? conditions : undefined,
    contentHash: u.hash,
    firstFailedAt: u.firstFailedAt,
    lastReadyAt: u.lastReadyAt,
    lastGoodRevision: u.lastGoodRevision,
  });
}

const COMMA = 0x2c;
/** jsonb's binary input format: this version byte, then the JSON text. */
const JSONB_BINARY_VERSION = 1;

/**
 * The upsert rows as one jsonb parameter in binary form, `[{…record,…stored-only fields}, …]` written
 * piece by piece into one buffer of the exact size. Each piece is a flat string, cheap to measure and
 * encode; joining them into one string first left V8 a string to flatten before the driver could measure
 * it (~3 s of CPU at a 1,000-cluster cold start, for ~390 MB of rows).
 */
function upsertRowsParameter(upserts: readonly ObjectUpsert[]): Buffer {
  // Per row: the record's JSON with its closing brace turned into a comma, then the appended object without
  // its opening brace; a comma between rows; the version byte and the brackets.
  const appended = upserts.map((u) => storedOnlyFields(u).slice(1));
  let size = 3 + Math.max(0, upserts.length - 1);
  for (let i = 0; i < upserts.length; i++) size += Buffer.byteLength(upserts[i].json) + Buffer.byteLength(appended[i]);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  out[at++] = JSONB_BINARY_VERSION;
  out[at++] = 0x5b; // [
  for (let i = 0; i < upserts.length; i++) {
    if (i) out[at++] = COMMA;
    at += out.write(upserts[i].json, at);
    // A record always has keys (kind, namespace, name…): `{…}` + `{…}` → `{…,…}`.
    out[at - 1] = COMMA;
    at += out.write(appended[i], at);
  }
  out[at++] = 0x5d; // ]
  if (at !== size) throw new Error(`upsert rows: wrote ${at} bytes of ${size}`);
  return out;
}

export interface WriteResult {
  /** id per key for the rows upserted. */
  ids: Map<string, string>;
  rowsWritten: number;
  transitions: number;
}

const UPSERT_OBJECTS = `INSERT INTO flux_object ("clusterId", ${COLUMN_NAMES.join(", ")}, "deletedAt", "updatedAt", "firstSeenAt")
  SELECT $1, ${COLUMN_NAMES.map((c) => `x.${c}`).join(", ")}, NULL, $3::timestamp(3), $3::timestamp(3)
    FROM jsonb_to_recordset($2::jsonb) AS x(${UPSERT_COLUMNS})
  ON CONFLICT ("clusterId", kind, namespace, name) DO UPDATE SET ${UPDATE_SET}, "deletedAt" = NULL, "updatedAt" = EXCLUDED."updatedAt"
  RETURNING id::text AS id, kind, namespace, name`;

type UpsertedRow = { id: string; kind: string; namespace: string; name: string };

/**
 * Writes one poll's plan in one transaction. Nothing is sent for an empty plan. A plan of new states only
 * (no history, no deletion: a routine reconcile's end, most of what a watched fleet writes) is one
 * statement, a transaction of its own: one round trip instead of BEGIN, the upsert and COMMIT.
 */
export async function writeObjectPlan(
  db: Queryable,
  clusterId: number,
  plan: ObjectPlan,
  known: ReadonlyMap<string, KnownObject>,
  now: string,
): Promise<WriteResult> {
  const ids = new Map<string, string>();
  if (!plan.upserts.length && !plan.deletions.length) return { ids, rowsWritten: 0, transitions: 0 };
  if (!plan.deletions.length && !plan.transitions.length) {
    const { rows: returned } = await db.query<UpsertedRow>(UPSERT_OBJECTS, [clusterId, upsertRowsParameter(plan.upserts), now]);
    for (const r of returned) ids.set(objectKey(r), r.id);
    return { ids, rowsWritten: plan.upserts.length, transitions: 0 };
  }
  const client = await db.connect();
  try {
    await client.query("BEGIN");
    if (plan.upserts.length) {
      const { rows: returned } = await client.query<UpsertedRow>(UPSERT_OBJECTS, [clusterId, upsertRowsParameter(plan.upserts), now]);
      for (const r of returned) ids.set(objectKey(r), r.id);
    }
    if (plan.deletions.length) {
      const deletedIds = plan.deletions.map((k) => known.get(k)?.id).filter((id): id is string => !!id);
      await client.query(
        `UPDATE flux_object SET "deletedAt" = $2::timestamp(3), "updatedAt" = $2::timestamp(3) WHERE id = ANY($1::bigint[])`,
        [deletedIds, now],
      );
      for (const k of plan.deletions) {
        const id = known.get(k)?.id;
        if (id) ids.set(k, id);
      }
    }
    let transitions = 0;
    if (plan.transitions.length) {
      const rows = plan.transitions
        .map((t) => ({
          objectId: ids.get(t.key) ?? known.get(t.key)?.id,
          at: t.at,
          change: t.change,
          fields: t.fields,
          previousHealth: t.previousHealth,
          ...t.cared,
        }))
        .filter((t) => t.objectId);
      await client.query(
        `INSERT INTO flux_object_transition ("objectId", "clusterId", at, change, fields, health, "healthDetail", "previousHealth",
                "readyStatus", "readyReason", "readyMessage", "attemptedRevision", "appliedRevision", "chartVersion", "appVersion", suspended)
         SELECT x."objectId", $1, x.at, x.change, ARRAY(SELECT jsonb_array_elements_text(x.fields)), x.health, x."healthDetail",
                x."previousHealth", x."readyStatus", x."readyReason", x."readyMessage", x."attemptedRevision", x."appliedRevision",
                x."chartVersion", x."appVersion", x.suspended
           FROM jsonb_to_recordset($2::jsonb) AS x("objectId" bigint, at timestamp(3), change text, fields jsonb, health text,
                "healthDetail" text, "previousHealth" text, "readyStatus" text, "readyReason" text, "readyMessage" text, "attemptedRevision" text,
                "appliedRevision" text, "chartVersion" text, "appVersion" text, suspended boolean)`,
        [clusterId, JSON.stringify(rows)],
      );
      transitions = rows.length;
    }
    await client.query("COMMIT");
    return { ids, rowsWritten: plan.upserts.length + plan.deletions.length + transitions, transitions };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * The cluster each object applies to (spec.kubeConfig); every other object of the cluster applies where it
 * lives (null). Writes only the rows that change.
 */
export async function writeObjectTargets(
  db: Pick<pg.Pool, "query">,
  clusterId: number,
  targets: Array<{ kind: string; namespace: string; name: string; targetClusterId: number | null }>,
): Promise<number> {
  const { rowCount: set } = await db.query(
    `UPDATE flux_object o SET "targetClusterId" = x."targetClusterId"
       FROM jsonb_to_recordset($2::jsonb) AS x(kind text, namespace text, name text, "targetClusterId" int)
      WHERE o."clusterId" = $1 AND o.kind = x.kind AND o.namespace = x.namespace AND o.name = x.name
        AND o."targetClusterId" IS DISTINCT FROM x."targetClusterId"`,
    [clusterId, JSON.stringify(targets)],
  );
  const { rowCount: cleared } = await db.query(
    `UPDATE flux_object SET "targetClusterId" = NULL
      WHERE "clusterId" = $1 AND "targetClusterId" IS NOT NULL AND NOT (kind || '/' || namespace || '/' || name = ANY($2::text[]))`,
    [clusterId, targets.filter((t) => t.targetClusterId !== null).map((t) => `${t.kind}/${t.namespace}/${t.name}`)],
  );
  return (set ?? 0) + (cleared ?? 0);
}
