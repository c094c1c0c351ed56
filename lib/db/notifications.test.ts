// The LISTEN connection against the real embedded PostgreSQL: notifications arrive, and after the server
// drops the connection the listener comes back by itself and says so.
import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing/db";
import { createNotificationListener } from "./notifications";

const db = useTestDatabase({ migrate: false });
const listeners: ReturnType<typeof createNotificationListener>[] = [];
afterAll(async () => {
  for (const l of listeners) await l.close();
});

async function until(what: string, probe: () => boolean, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("notification listener", () => {
  it("delivers payloads, reconnects with backoff after the connection drops, and reports the reconnect", async () => {
    const listener = createNotificationListener({ connectionString: db.url(), initialBackoffMs: 50, maxBackoffMs: 200 });
    listeners.push(listener);
    const got: string[] = [];
    let reconnects = 0;
    listener.onReconnect(() => reconnects++);
    listener.subscribe("test_changes", (p) => got.push(p));
    await until("listening", () => listener.listening());
    expect(reconnects).toBe(1);
    await db.pool().query("SELECT pg_notify('test_changes', 'a')");
    await until("first payload", () => got.length === 1);

    // The server ends the session (a failover, a restart, an idle-connection killer).
    await db.pool().query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`);
    await until("connection lost", () => !listener.listening());
    await until("listening again", () => listener.listening());
    expect(reconnects).toBe(2);
    await db.pool().query("SELECT pg_notify('test_changes', 'b')");
    await until("payload after the reconnect", () => got.length === 2);
    expect(got).toEqual(["a", "b"]);
  });

  it("a channel subscribed later is listened on too, and a bad name is refused", async () => {
    const listener = createNotificationListener({ connectionString: db.url() });
    listeners.push(listener);
    const got: string[] = [];
    listener.subscribe("test_one", () => {});
    await until("listening", () => listener.listening());
    listener.subscribe("test_two", (p) => got.push(p));
    await new Promise((r) => setTimeout(r, 100));
    await db.pool().query("SELECT pg_notify('test_two', 'x')");
    await until("payload on the later channel", () => got.length === 1);
    expect(() => listener.subscribe("drop table; --", () => {})).toThrow("not a channel name");
  });
});
