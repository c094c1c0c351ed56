// The web-side cache on the real embedded PostgreSQL: one load per change of the data, a NOTIFY makes it
// reload (requests during the reload get the previous value), and a short TTL when LISTEN is down.
import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing/db";
import { changeCache } from "./change-cache";
import { createNotificationListener } from "./notifications";

const db = useTestDatabase({ migrate: false });
const listener = () => createNotificationListener({ connectionString: db.url(), initialBackoffMs: 50 });
const open: ReturnType<typeof listener>[] = [];
afterAll(async () => {
  for (const l of open) await l.close();
});

async function until(probe: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("change cache", () => {
  it("loads once per change of the data, however many ask", async () => {
    const l = listener();
    open.push(l);
    let loads = 0;
    const cache = changeCache("test", async () => ++loads, {
      listener: l,
      channel: "test_cache_a",
      serveStaleMs: 0,
      minReloadIntervalMs: 0,
    });
    await cache.get();
    await until(() => l.listening());
    const first = await cache.get(); // the reconnect counted as a change: one reload
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual([first, first, first]);
    const before = loads;
    await db.pool().query("SELECT pg_notify('test_cache_a', 'cluster-1')");
    await until(async () => (await cache.get()) === before + 1);
    expect(await cache.get()).toBe(before + 1);
    expect(loads).toBe(before + 1);
  });

  it("answers with the previous value while a slow reload runs, if it is young enough", async () => {
    const l = listener();
    open.push(l);
    let loads = 0;
    let release: () => void = () => {};
    const cache = changeCache(
      "test-stale",
      async () => {
        loads++;
        if (loads > 2) await new Promise<void>((r) => (release = r));
        return loads;
      },
      { listener: l, channel: "test_cache_b", serveStaleMs: 60_000, minReloadIntervalMs: 0 },
    );
    await cache.get(); // subscribes
    await until(() => l.listening());
    await until(async () => (await cache.get()) === 2); // reloaded once after connecting
    await db.pool().query("SELECT pg_notify('test_cache_b', '')");
    await until(async () => (await cache.get()) === 2 && loads === 3); // the reload runs; meanwhile the previous value
    expect(await cache.get()).toBe(2);
    release();
    await until(async () => (await cache.get()) === 3);
  });

  it("keeps a value only for the TTL while LISTEN is down", async () => {
    const l = listener();
    let loads = 0;
    const cache = changeCache("test-ttl", async () => ++loads, {
      listener: l,
      channel: "test_cache_c",
      ttlWhenDownMs: 200,
      serveStaleMs: 0,
    });
    await l.close(); // nothing will ever be heard
    expect(await cache.get()).toBe(1);
    expect(await cache.get()).toBe(1);
    await new Promise((r) => setTimeout(r, 250));
    expect(await cache.get()).toBe(2);
  });

  it("forgets its value when this replica wrote the change", async () => {
    const l = listener();
    open.push(l);
    let loads = 0;
    const cache = changeCache("test-invalidate", async () => ++loads, {
      listener: l,
      channel: "test_cache_d",
      serveStaleMs: 60_000,
      minReloadIntervalMs: 0,
    });
    await cache.get(); // subscribes
    await until(() => l.listening());
    await until(async () => (await cache.get()) === 2);
    const value = await cache.get();
    cache.invalidate();
    expect(await cache.get()).toBe(value + 1); // no stale answer after an invalidate
  });

  it("reloads at most once per interval under a stream of changes", async () => {
    const l = listener();
    open.push(l);
    let loads = 0;
    const cache = changeCache("test-interval", async () => ++loads, {
      listener: l,
      channel: "test_cache_e",
      serveStaleMs: 60_000,
      minReloadIntervalMs: 400,
    });
    await cache.get();
    await until(() => l.listening());
    await new Promise((r) => setTimeout(r, 450));
    await until(async () => (await cache.get()) === 2); // the reconnect: one reload
    for (let i = 0; i < 5; i++) {
      await db.pool().query("SELECT pg_notify('test_cache_e', $1)", [String(i)]);
      await new Promise((r) => setTimeout(r, 20));
      expect(await cache.get()).toBe(2); // within the interval: the copy in hand
    }
    await new Promise((r) => setTimeout(r, 450));
    await until(async () => (await cache.get()) === 3); // then one reload for all five changes
    expect(loads).toBe(3);
  });
});
