// A row written before validation existed (or by hand) can hold any timestamp PostgreSQL accepts: year
// 1 BC, year 12345, ±infinity. No page data or JSON route may answer 500 because of one.
import { beforeAll, describe, expect, it } from "vitest";
import { listAuditEntries } from "@/lib/auth/audit";
import { makeCluster, makeObject } from "@/lib/db/queries/test-factories";
import { useTestDatabase } from "@/lib/testing/db";
import { GET as addonsCsv } from "./addons/csv/route";
import { GET as addons } from "./addons/route";
import { GET as cluster } from "./clusters/[cluster]/route";
import { GET as failures } from "./failures/route";
import { GET as fleet } from "./fleet/route";
import { GET as freshness } from "./freshness/route";
import { GET as object } from "./objects/[cluster]/[kind]/[namespace]/[name]/route";
import { GET as upgradeCluster } from "./upgrades/[cluster]/route";
import { GET as upgrades } from "./upgrades/route";
import { GET as trends } from "./upgrades/trends/route";
import { GET as go } from "../go/route";

const db = useTestDatabase();
const ODD = ["0001-01-01 00:00:00 BC", "12345-06-07 00:00:00", "infinity", "-infinity"];

beforeAll(async () => {
  const c = await makeCluster(db.prisma(), { name: "odd" });
  const pool = db.pool();
  await pool.query(`UPDATE cluster SET "lastSuccessAt" = '-infinity', "firstSeenAt" = '0001-01-01 BC' WHERE id = $1`, [c.id]);
  for (const [i, at] of ODD.entries()) {
    const o = await makeObject(db.prisma(), c.id, {
      name: `apps-${i}`,
      health: "failing",
      readyStatus: "False",
      readyReason: "BuildFailed",
    });
    await pool.query(
      `UPDATE flux_object SET "lastReconcileAt" = $2::timestamp, "firstFailedAt" = $2::timestamp, "lastReadyAt" = $2::timestamp WHERE id = $1`,
      [o.id, at],
    );
    await pool.query(
      `INSERT INTO flux_object_transition ("objectId", "clusterId", at, change, fields, health) VALUES ($1, $2, $3::timestamp, 'changed', '{health}', 'failing')`,
      [o.id, c.id, at],
    );
    await pool.query(
      `INSERT INTO webhook_event ("clusterId", "objectId", "dedupeKey", "involvedKind", "involvedNamespace", "involvedName", severity, reason, message, "eventTime")
       VALUES ($1, $2, $3, 'Kustomization', 'flux-system', $4, 'error', 'x', 'y', $5::timestamp)`,
      [c.id, o.id, `odd-${i}`, `apps-${i}`, at],
    );
    await pool.query(
      `INSERT INTO kube_event ("clusterId", "objectId", uid, "involvedKind", "involvedNamespace", "involvedName", type, reason, message, "firstTimestamp", "lastTimestamp")
       VALUES ($1, $2, $3, 'Kustomization', 'flux-system', $4, 'Warning', 'x', 'y', $5::timestamp, $5::timestamp)`,
      [c.id, o.id, `uid-${i}`, `apps-${i}`, at],
    );
    await pool.query(
      `INSERT INTO cluster_version_change ("clusterId", at, component, "toVersion") VALUES ($1, $2::timestamp, 'kubernetes', '1.3${i}')`,
      [c.id, at],
    );
    await pool.query(
      `INSERT INTO audit_entry (at, actor, role, action, result, "clusterName", kind, namespace, name) VALUES ($1::timestamp, 'a', 'admin', 'reconcile', 'ok', 'odd', 'Kustomization', 'flux-system', $2)`,
      [at, `apps-${i}`],
    );
  }
});

const req = (path: string) => new Request(`http://localhost${path}`);
const params = <T>(p: T) => ({ params: Promise.resolve(p) });

describe("stored timestamps out of any sane range", () => {
  it.each(ODD.map((at, i) => [at, i] as const))("the object with %s answers 200 with ISO dates", async (_at, i) => {
    const res = await object(
      req(`/api/objects/odd/kustomization/flux-system/apps-${i}`),
      params({ cluster: "odd", kind: "kustomization", namespace: "flux-system", name: `apps-${i}` }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.timeline.length).toBeGreaterThan(0);
  });

  it("every other JSON route answers 200", async () => {
    const answers: Record<string, Response> = {
      cluster: await cluster(req("/api/clusters/odd"), params({ cluster: "odd" })),
      fleet: await fleet(req("/api/fleet")),
      failures: await failures(req("/api/failures")),
      freshness: await freshness(req("/api/freshness")),
      addons: await addons(req("/api/addons")),
      addonsCsv: await addonsCsv(req("/api/addons/csv")),
      upgrades: await upgrades(req("/api/upgrades")),
      upgradeCluster: await upgradeCluster(req("/api/upgrades/odd"), params({ cluster: "odd" })),
      trends: await trends(req("/api/upgrades/trends?days=400")),
      go: await go(req("/go?cluster=odd&name=apps-0&format=json")),
    };
    // The object page's audit trail and the audit log read through Prisma, which cannot read these times.
    expect(await listAuditEntries({ clusterName: "odd" })).toHaveLength(ODD.length);
    for (const [name, res] of Object.entries(answers)) expect(res.status, `${name}: ${await res.clone().text()}`).toBe(200);
  });
});
