// The change stream against the real embedded PostgreSQL: a NOTIFY on the change channel reaches an open
// stream as an event naming the clusters, and a client that goes away leaves no subscription behind.
import { afterAll, describe, expect, it } from "vitest";
import { CHANGE_CHANNEL } from "@/lib/db/channels";
import { createNotificationListener, notificationListener } from "@/lib/db/notifications";
import { changeStreamResponse, closeAllChangeStreams, openChangeStreams } from "@/lib/live/change-stream";
import { useTestDatabase } from "@/lib/testing/db";
import { GET } from "./route";

const db = useTestDatabase({ migrate: false });
afterAll(() => notificationListener().close());

async function until(what: string, probe: () => boolean, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Reads a response body as text as it arrives. */
function reader(res: Response) {
  const r = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  void (async () => {
    for (;;) {
      const { done, value } = await r.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })();
  return { text: () => text, cancel: () => r.cancel() };
}

describe("GET /api/changes/stream", () => {
  it("streams each change notification as an event and releases its listener when the client goes away", async () => {
    const listener = notificationListener();
    const before = listener.handlerCount();
    const client = new AbortController();
    const res = await GET(new Request("http://localhost/api/changes/stream", { signal: client.signal }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const body = reader(res);
    await until("the retry hint and the ready event", () => body.text().includes("event: ready"));
    expect(body.text()).toMatch(/^retry: \d+\n\n/);
    expect(listener.handlerCount()).toBe(before + 2);
    expect(openChangeStreams()).toBe(1);

    await until("listening", () => listener.listening());
    await db.pool().query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, "prod-eu-1,prod-us-2"]);
    await until("the change event", () => body.text().includes("event: change"));
    expect(body.text()).toContain('event: change\ndata: {"clusters":["prod-eu-1","prod-us-2"]}\n\n');
    await db.pool().query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, "*"]);
    await until("the fleet-wide change", () => body.text().includes('data: {"clusters":["*"]}'));

    client.abort();
    await until("the stream released", () => openChangeStreams() === 0);
    expect(listener.handlerCount()).toBe(before);
    // A later notification goes nowhere (and throws nowhere).
    const length = body.text().length;
    await db.pool().query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, "prod-eu-1"]);
    await new Promise((r) => setTimeout(r, 200));
    expect(body.text()).toHaveLength(length);
  });

  it("says when the LISTEN connection came back, sends heartbeats, and releases on cancel too", async () => {
    // Named, so that only this listener's connection is ended.
    const url = new URL(db.url());
    url.searchParams.set("application_name", "stream_reconnect_test");
    const listener = createNotificationListener({ connectionString: url.toString(), initialBackoffMs: 50, maxBackoffMs: 200 });
    try {
      const res = changeStreamResponse(new AbortController().signal, { listener, maxStreams: 10, heartbeatMs: 50 });
      const body = reader(res);
      await until("listening", () => listener.listening());
      await until("a heartbeat", () => body.text().includes(": heartbeat\n\n"));
      // The stream opened before LISTEN was in place: its first connection already counts as "anything changed".
      const reconnects = () => body.text().split('event: reconnect\ndata: {"clusters":["*"]}').length - 1;
      await until("the first connection's event", () => reconnects() === 1);
      await db.pool().query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'stream_reconnect_test'`);
      await until("the reconnect event", () => reconnects() === 2);
      await body.cancel(); // the browser went away without an abort signal
      await until("the stream released", () => openChangeStreams() === 0);
      expect(listener.handlerCount()).toBe(0);
    } finally {
      await listener.close();
    }
  });

  it("ends every open stream when the server shuts down, so it can stop", async () => {
    const listener = createNotificationListener({ connectionString: db.url() });
    try {
      const bodies = [1, 2].map(() => changeStreamResponse(new AbortController().signal, { listener, maxStreams: 10 }).body!.getReader());
      expect(openChangeStreams()).toBe(2);
      closeAllChangeStreams();
      expect(openChangeStreams()).toBe(0);
      expect(listener.handlerCount()).toBe(0);
      for (const body of bodies) {
        let done = false;
        while (!done) done = (await body.read()).done;
      }
    } finally {
      await listener.close();
    }
  });

  it("refuses streams past the cap with a 503 the page falls back to polling on", async () => {
    const listener = createNotificationListener({ connectionString: db.url() });
    try {
      const first = new AbortController();
      const res = changeStreamResponse(first.signal, { listener, maxStreams: 1 });
      expect(res.status).toBe(200);
      const refused = changeStreamResponse(new AbortController().signal, { listener, maxStreams: 1 });
      expect(refused.status).toBe(503);
      expect((await refused.json()).error.code).toBe("too_many_streams");
      first.abort();
      expect(openChangeStreams()).toBe(0);
      expect(changeStreamResponse(AbortSignal.abort(), { listener, maxStreams: 1 }).status).toBe(200);
      expect(openChangeStreams()).toBe(0);
    } finally {
      await listener.close();
    }
  });
});
