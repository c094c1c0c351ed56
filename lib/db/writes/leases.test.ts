import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_OPTIONS } from "../client";
import { useTestDatabase } from "../../testing/db";
import { acquireLeases, heartbeatLeaseId, heldLeases, intArrayLiteral, releaseLeases, renewLease, replicaHeartbeat } from "./leases";

const db = useTestDatabase();
// Two replicas: two independent pools, as two processes would have.
let a: pg.Pool;
let b: pg.Pool;
beforeAll(() => {
  a = new pg.Pool({ connectionString: db.url(), max: 4, options: SESSION_OPTIONS });
  b = new pg.Pool({ connectionString: db.url(), max: 4, options: SESSION_OPTIONS });
});
afterAll(async () => {
  await Promise.all([a.end(), b.end()]);
});

const ids = Array.from({ length: 60 }, (_, i) => i + 1);
/** The watched clusters whose lease the replica lost, as its heartbeat reports them. */
const lostOf = async (pool: pg.Pool, holder: string, watched: number[]) =>
  (await replicaHeartbeat(pool, holder, 15, { watched, countOrphans: false })).lost;
/** Dead replicas' leases, as the heartbeat counts them. */
const orphanedFor = async (pool: pg.Pool, holder: string) =>
  (await replicaHeartbeat(pool, holder, 15, { watched: [], countOrphans: true })).orphaned;

describe("intArrayLiteral", () => {
  it("writes ids as one Postgres array literal, and refuses anything that is not an integer", () => {
    expect(intArrayLiteral([])).toBe("{}");
    expect(intArrayLiteral([3, -1, 1_000_000_001])).toBe("{3,-1,1000000001}");
    expect(() => intArrayLiteral([1, 2.5])).toThrow("not an integer id: 2.5");
    expect(() => intArrayLiteral([Number.NaN])).toThrow("not an integer id");
    expect(() => intArrayLiteral(["1,2" as unknown as number])).toThrow("not an integer id: 1,2");
  });
});

describe("collector leases", () => {
  it("never gives one cluster to two holders, even when both grab at the same time", async () => {
    for (let round = 0; round < 5; round++) {
      await db.pool().query("DELETE FROM collector_lease");
      const [gotA, gotB] = await Promise.all([acquireLeases(a, "replica-a", ids, 60), acquireLeases(b, "replica-b", ids, 60)]);
      expect(gotA.filter((id) => gotB.includes(id))).toEqual([]);
      expect(new Set([...gotA, ...gotB]).size).toBe(ids.length);
    }
  });

  it("keeps a holder's leases across renewals and refuses them to others while live", async () => {
    await db.pool().query("DELETE FROM collector_lease");
    expect(await acquireLeases(a, "replica-a", ids, 60)).toEqual(ids);
    expect(await acquireLeases(b, "replica-b", ids, 60)).toEqual([]);
    expect(await renewLease(a, "replica-a", 7, 60)).toBe(true);
    expect(await renewLease(b, "replica-b", 7, 60)).toBe(false);
  });

  it("caps new leases at a fair share", async () => {
    await db.pool().query("DELETE FROM collector_lease");
    expect(await acquireLeases(a, "replica-a", ids, 60, 30)).toHaveLength(30);
    expect(await acquireLeases(b, "replica-b", ids, 60, 30)).toHaveLength(30);
  });

  it("lets another replica take over the leases of a crashed one once they expire", async () => {
    await db.pool().query("DELETE FROM collector_lease");
    expect(await acquireLeases(a, "replica-a", ids, 60)).toEqual(ids);
    // replica-a crashes: nobody renews; time passes beyond its leases.
    await db.pool().query(`UPDATE collector_lease SET "expiresAt" = now() - interval '1 second' WHERE holder = 'replica-a'`);
    expect(await acquireLeases(b, "replica-b", ids, 60)).toEqual(ids);
    expect(await heldLeases(a, "replica-a")).toEqual([]);
    expect(await renewLease(a, "replica-a", 1, 60)).toBe(false);
  });

  it("names the clusters whose lease a holder lost: expired, released or never held", async () => {
    await db.pool().query("DELETE FROM collector_lease");
    await acquireLeases(a, "replica-a", ids, 60);
    expect(await lostOf(a, "replica-a", ids)).toEqual([]);
    expect(await lostOf(a, "replica-a", [])).toEqual([]);
    await db.pool().query(`UPDATE collector_lease SET "expiresAt" = now() - interval '1 second' WHERE "clusterId" = 3`);
    await releaseLeases(a, "replica-a", [5]);
    await acquireLeases(b, "replica-b", [5], 60);
    expect((await lostOf(a, "replica-a", [1, 3, 5, 99])).sort((x, y) => x - y)).toEqual([3, 5, 99]);
    expect(await lostOf(b, "replica-b", [5])).toEqual([]);
  });

  it("gives leases back on release", async () => {
    await db.pool().query("DELETE FROM collector_lease");
    await acquireLeases(a, "replica-a", ids, 60);
    await releaseLeases(a, "replica-a", [1, 2]);
    expect(await acquireLeases(b, "replica-b", ids, 60)).toEqual([1, 2]);
    await releaseLeases(a, "replica-a");
    expect(await heldLeases(a, "replica-a")).toEqual([]);
  });

  it("frees the leases of a replica whose heartbeat ran out at once, though the leases themselves run longer", async () => {
    await db.pool().query("DELETE FROM collector_lease");
    await acquireLeases(a, "replica-a", [heartbeatLeaseId("replica-a")], 1);
    expect(await acquireLeases(a, "replica-a", ids, 600)).toEqual(ids);
    expect(await acquireLeases(b, "replica-b", ids, 600)).toEqual([]);
    // replica-a dies: its heartbeat is not renewed and runs out.
    await db
      .pool()
      .query(`UPDATE collector_lease SET "expiresAt" = now() - interval '1 second' WHERE "clusterId" = $1`, [
        heartbeatLeaseId("replica-a"),
      ]);
    expect(await acquireLeases(b, "replica-b", ids, 600)).toEqual(ids);
    expect(await heldLeases(a, "replica-a")).toEqual([]);
  });

  it("renews a replica's heartbeat in the same statement, keeps when it was first taken, and takes it again after it ran out", async () => {
    await db.pool().query("DELETE FROM collector_lease");
    const heartbeatRow = async (holder: string) =>
      (
        await db
          .pool()
          .query<{ acquiredAt: Date; expiresAt: Date; live: boolean }>(
            `SELECT "acquiredAt", "expiresAt", "expiresAt" > now() AS live FROM collector_lease WHERE "clusterId" = $1`,
            [heartbeatLeaseId(holder)],
          )
      ).rows[0];
    expect(await replicaHeartbeat(a, "replica-a", 15, { watched: [], countOrphans: false })).toEqual({
      renewed: true,
      lost: [],
      orphaned: null,
    });
    const first = await heartbeatRow("replica-a");
    expect(first.live).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await replicaHeartbeat(a, "replica-a", 15, { watched: [], countOrphans: false });
    const renewed = await heartbeatRow("replica-a");
    expect(renewed.acquiredAt).toEqual(first.acquiredAt);
    expect(renewed.expiresAt.getTime()).toBeGreaterThan(first.expiresAt.getTime());
    // The replica stalled past its heartbeat: the next beat takes it again, as new.
    await db
      .pool()
      .query(`UPDATE collector_lease SET "expiresAt" = now() - interval '1 second' WHERE "clusterId" = $1`, [
        heartbeatLeaseId("replica-a"),
      ]);
    expect((await replicaHeartbeat(a, "replica-a", 15, { watched: [], countOrphans: false })).renewed).toBe(true);
    const again = await heartbeatRow("replica-a");
    expect(again.live).toBe(true);
    expect(again.acquiredAt.getTime()).toBeGreaterThan(first.acquiredAt.getTime());
    // A live heartbeat of the same id held by another name is not taken over.
    await db.pool().query(`UPDATE collector_lease SET holder = 'someone-else' WHERE "clusterId" = $1`, [heartbeatLeaseId("replica-a")]);
    expect((await replicaHeartbeat(a, "replica-a", 15, { watched: [], countOrphans: false })).renewed).toBe(false);
  });

  it("counts the leases of active clusters that a replica whose heartbeat ran out still holds", async () => {
    await db.pool().query("DELETE FROM collector_lease");
    const name = (n: string) => `orphans-${n}-${Date.now()}`;
    const { rows } = await db
      .pool()
      .query<{ id: number }>(
        `INSERT INTO cluster (name, lifecycle) VALUES ($1, 'active'), ($2, 'active'), ($3, 'gone'), ($4, 'active') RETURNING id`,
        [name("a1"), name("a2"), name("gone"), name("b1")],
      );
    const [a1, a2, gone, b1] = rows.map((r) => r.id);
    await replicaHeartbeat(a, "replica-a", 15, { watched: [], countOrphans: false });
    await replicaHeartbeat(b, "replica-b", 15, { watched: [], countOrphans: false });
    await acquireLeases(a, "replica-a", [a1, a2, gone], 600);
    await acquireLeases(b, "replica-b", [b1], 600);
    // Both alive: nothing to take.
    expect(await orphanedFor(b, "replica-b")).toBe(0);
    // replica-a is killed: its heartbeat runs out while its cluster leases still stand.
    await db
      .pool()
      .query(`UPDATE collector_lease SET "expiresAt" = now() - interval '1 second' WHERE "clusterId" = $1`, [
        heartbeatLeaseId("replica-a"),
      ]);
    // Its two active clusters; not the gone one, and never the asking replica's own.
    expect(await orphanedFor(b, "replica-b")).toBe(2);
    expect(await acquireLeases(b, "replica-b", [a1, a2], 600)).toEqual([a1, a2]);
    expect(await orphanedFor(b, "replica-b")).toBe(0);
    await db.pool().query(`DELETE FROM cluster WHERE id = ANY($1::int[])`, [[a1, a2, gone, b1]]);
  });
});
