// The collector's change plan written to the real database: stored once, no history on an unchanged poll.
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { applyPlan, planObjectWrites } from "./changes";
import { fixtureItems } from "../kube/fixtures";
import { objectKey, toFluxObject } from "../kube/flux";
import type { FluxKind, FluxObjectRecord } from "../kube/types";
import { useTestDatabase } from "../testing/db";
import { loadKnownObjects, writeObjectPlan } from "../db/writes/flux-objects";
import { getObject } from "../db/queries/objects";

const db = useTestDatabase();
const ALL = new Set<FluxKind>(["Kustomization", "HelmRelease", "GitRepository", "OCIRepository", "HelmRepository", "HelmChart"]);

function fleetObjects(): FluxObjectRecord[] {
  return [
    ...fixtureItems("02-list-kustomizations-all.http").map((i) => toFluxObject("Kustomization", i)),
    ...fixtureItems("33-list-helmreleases-all.http").map((i) => toFluxObject("HelmRelease", i)),
    ...fixtureItems("30-list-gitrepositories-all.http").map((i) => toFluxObject("GitRepository", i)),
  ];
}

async function poll(clusterId: number, records: FluxObjectRecord[], at: string) {
  const known = await loadKnownObjects(db.pool(), clusterId);
  const plan = planObjectWrites(known, records, ALL, at);
  const result = await writeObjectPlan(db.pool(), clusterId, plan, known, at);
  applyPlan(known, plan, result.ids);
  return result;
}

/** The pool, counting what is sent: statements by their first word, and connections checked out. */
function counted(pool: pg.Pool) {
  const sent: string[] = [];
  let connects = 0;
  const word = (text: unknown) => String(text).trim().split(/\s+/)[0].toUpperCase();
  const db = {
    query: ((text: string, values?: unknown[]) => {
      sent.push(word(text));
      return pool.query(text, values);
    }) as pg.Pool["query"],
    connect: (async () => {
      connects++;
      const client = await pool.connect();
      return {
        query: (text: string, values?: unknown[]) => {
          sent.push(word(text));
          return client.query(text, values);
        },
        release: (err?: Error) => client.release(err),
      } as unknown as pg.PoolClient;
    }) as unknown as pg.Pool["connect"],
  };
  return { db, sent, connects: () => connects };
}

describe("writeObjectPlan", () => {
  it("stores objects once, adds no history on an unchanged poll, records changes and deletions", async () => {
    const { rows } = await db.pool().query<{ id: number }>(`INSERT INTO cluster (name) VALUES ('c1') RETURNING id`);
    const clusterId = rows[0].id;
    const records = fleetObjects();
    const first = await poll(clusterId, records, "2026-11-21T12:00:00.000Z");
    expect(first.transitions).toBe(records.length);
    const count = async (table: string) => Number((await db.pool().query(`SELECT count(*) FROM ${table}`)).rows[0].count);
    expect(await count("flux_object")).toBe(records.length);

    const again = await poll(clusterId, fleetObjects(), "2026-11-21T12:01:00.000Z");
    expect(again).toMatchObject({ rowsWritten: 0, transitions: 0 });
    expect(await count("flux_object_transition")).toBe(records.length);

    const changed = fleetObjects();
    const apps = changed.find((r) => r.name === "apps")!;
    const ready = apps.conditions.find((c) => c.type === "Ready")!;
    Object.assign(ready, {
      status: "True",
      reason: "ReconciliationSucceeded",
      message: "Applied revision: main@sha1:1",
      lastTransitionTime: "2026-11-21T12:01:30Z",
    });
    const reparsed = changed.map((r) =>
      r === apps
        ? {
            ...r,
            health: "ready" as const,
            readyStatus: "True",
            readyReason: "ReconciliationSucceeded",
            readyMessage: "Applied revision: main@sha1:1",
          }
        : r,
    );
    const removed = reparsed.find((r) => r.name !== "apps")!;
    const third = await poll(
      clusterId,
      reparsed.filter((r) => r !== removed),
      "2026-11-21T12:02:00.000Z",
    );
    expect(third.transitions).toBe(2); // apps changed, the first object vanished
    const { rows: history } = await db.pool().query(
      `SELECT t.change, t.at, t.health, t."previousHealth", o.name FROM flux_object_transition t JOIN flux_object o ON o.id = t."objectId"
        WHERE t.change <> 'created' ORDER BY t.id`,
    );
    expect(history).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: "apps",
          change: "changed",
          health: "ready",
          previousHealth: "failing",
          at: new Date("2026-11-21T12:01:30Z"),
        }),
        expect.objectContaining({ name: removed.name, change: "deleted", at: new Date("2026-11-21T12:02:00Z") }),
      ]),
    );
    const { rows: current } = await db
      .pool()
      .query(`SELECT "deletedAt", "firstFailedAt", "lastReadyAt" FROM flux_object WHERE name = $1 AND kind = $2`, [apps.name, apps.kind]);
    expect(current[0]).toMatchObject({ deletedAt: null, firstFailedAt: null, lastReadyAt: new Date("2026-11-21T12:01:30Z") });
  });

  it("stores every field of the record as it is, with the fields only the database holds beside them", async () => {
    const { rows } = await db.pool().query<{ id: number }>(`INSERT INTO cluster (name) VALUES ('c-fields') RETURNING id`);
    const records = fleetObjects();
    // Text beyond ASCII (two-, three- and four-byte UTF-8, a JSON line separator) is stored as it is.
    const text = "déjà vu ✓ 🚀 \u2028 end";
    const first = records[0];
    records.push({
      ...first,
      name: `${first.name}-utf8`,
      readyMessage: text,
      conditions: first.conditions.map((c) => ({ ...c, message: text })),
    });
    const at = "2026-11-21T12:00:00.000Z";
    const known = await loadKnownObjects(db.pool(), rows[0].id);
    const plan = planObjectWrites(known, records, ALL, at);
    await writeObjectPlan(db.pool(), rows[0].id, plan, known, at);
    const { rows: stored } = await db
      .pool()
      .query<Record<string, unknown>>(`SELECT row_to_json(o) AS row FROM flux_object o WHERE "clusterId" = $1`, [rows[0].id]);
    const byKey = new Map(stored.map(({ row }) => [objectKey(row as FluxObjectRecord), row as Record<string, unknown>]));
    // timestamp(3) columns come back without a zone; records hold ISO times with one.
    const isoOf = (v: unknown) =>
      v === null || v === undefined ? null : new Date(/Z$/.test(String(v)) ? String(v) : `${String(v)}Z`).toISOString();
    const times = new Set(["creationTimestamp", "lastReconcileAt"]);
    for (const u of plan.upserts) {
      const row = byKey.get(u.key)!;
      for (const [field, value] of Object.entries(u.record)) {
        if (times.has(field)) expect(isoOf(row[field]), `${u.key} ${field}`).toBe(isoOf(value));
        else expect(row[field], `${u.key} ${field}`).toEqual(value ?? null);
      }
      expect(row).toMatchObject({ contentHash: u.hash, lastGoodRevision: u.lastGoodRevision, deletedAt: null });
      expect(isoOf(row.firstFailedAt)).toBe(isoOf(u.firstFailedAt));
      expect(isoOf(row.lastReadyAt)).toBe(isoOf(u.lastReadyAt));
    }
    expect(byKey.size).toBe(records.length);
  });

  it("stores a 32 KiB message Ready and Healthy share once, and the object page still gets it for both", async () => {
    const { rows } = await db.pool().query<{ id: number }>(`INSERT INTO cluster (name) VALUES ('c-huge') RETURNING id`);
    const huge =
      `health check failed after 10m0.03s: timeout waiting for: [${Array.from(
        { length: 760 },
        (_, i) => `Deployment/tenant-${i}/web status: 'InProgress'`,
      ).join(", ")}]`.slice(0, 32_765) + "...";
    const base = fleetObjects().find((r) => r.kind === "Kustomization")!;
    const record: FluxObjectRecord = {
      ...base,
      name: "tenants",
      health: "failing",
      readyStatus: "False",
      readyReason: "HealthCheckFailed",
      readyMessage: huge,
      conditions: [
        { type: "Ready", status: "False", reason: "HealthCheckFailed", message: huge, lastTransitionTime: "2026-11-21T11:10:00Z" },
        { type: "Healthy", status: "False", reason: "HealthCheckFailed", message: huge, lastTransitionTime: "2026-11-21T11:10:00Z" },
      ],
    };
    await poll(rows[0].id, [record], "2026-11-21T12:00:00.000Z");
    const { rows: stored } = await db
      .pool()
      .query<{ bytes: number }>(
        `SELECT octet_length("readyMessage") + octet_length(conditions::text) AS bytes FROM flux_object WHERE name = 'tenants'`,
      );
    // One copy (32,768 bytes) and the conditions around it, not three.
    expect(stored[0].bytes).toBeLessThan(34_000);
    const detail = await getObject({ cluster: "c-huge", kind: "Kustomization", namespace: record.namespace, name: "tenants" });
    expect(detail!.object.conditions.map((c) => c.message)).toEqual([huge, huge]);
    expect(detail!.object.readyMessage).toBe(huge);
  });
  it("writes new states alone (a routine reconcile's end) as one statement, anything with history in one transaction", async () => {
    const { rows } = await db.pool().query<{ id: number }>(`INSERT INTO cluster (name) VALUES ('c-one-statement') RETURNING id`);
    const clusterId = rows[0].id;
    const write = async (records: FluxObjectRecord[], at: string) => {
      const known = await loadKnownObjects(db.pool(), clusterId);
      const plan = planObjectWrites(known, records, ALL, at);
      const wire = counted(db.pool());
      const result = await writeObjectPlan(wire.db, clusterId, plan, known, at);
      return { plan, result, sent: wire.sent, connects: wire.connects() };
    };
    const first = await write(fleetObjects(), "2026-11-21T12:00:00.000Z");
    expect(first.sent).toEqual(["BEGIN", "INSERT", "INSERT", "COMMIT"]);
    expect(first.connects).toBe(1);

    // Reconciled again, nothing a person cares about changed: a new state, no history.
    const reconciled = fleetObjects().map((r) => (r.name === "apps" ? { ...r, lastReconcileAt: "2026-11-21T12:05:00Z" } : r));
    const routine = await write(reconciled, "2026-11-21T12:05:01.000Z");
    expect(routine.plan).toMatchObject({ transitions: [], deletions: [] });
    expect(routine.plan.upserts.length).toBe(1);
    expect(routine.result).toMatchObject({ rowsWritten: 1, transitions: 0 });
    expect(routine.sent).toEqual(["INSERT"]);
    expect(routine.connects).toBe(0);
    const stored = await db
      .pool()
      .query<{ at: Date }>(
        `SELECT "lastReconcileAt" AS at FROM flux_object WHERE "clusterId" = $1 AND name = 'apps' AND kind = 'Kustomization'`,
        [clusterId],
      );
    expect(stored.rows[0].at.toISOString()).toBe("2026-11-21T12:05:00.000Z");
    expect(routine.result.ids.size).toBe(1);

    // A deletion comes with its history row: one transaction again.
    const gone = await write(reconciled.slice(1), "2026-11-21T12:06:00.000Z");
    expect(gone.sent).toEqual(["BEGIN", "UPDATE", "INSERT", "COMMIT"]);
  });
});
