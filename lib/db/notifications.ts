// LISTEN on Postgres channels from a long-running process (each web replica), on one dedicated
// connection, for as long as anyone subscribes. The connection is re-opened with capped, jittered backoff
// when it drops; while it is down `listening()` is false, so callers fall back to their own timers (a
// cache uses a short TTL). Handlers get the channel's payload; a dropped connection may have missed
// notifications, so every (re)connect is reported to `onReconnect` subscribers as "anything may have changed".
import pg from "pg";
import { oneLine } from "../errors";
import { logger } from "../logger";
import { databaseUrl, SESSION_OPTIONS } from "./client";

type Handler = (payload: string) => void;

export interface NotificationListenerOptions {
  connectionString?: string;
  /** First retry delay; doubles up to maxBackoffMs, with ±20 % jitter. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface NotificationListener {
  /** Calls `handler` with each payload on `channel`; returns the unsubscribe function. */
  subscribe(channel: string, handler: Handler): () => void;
  /** Called after every (re)connection, when notifications may have been missed. */
  onReconnect(handler: () => void): () => void;
  /** True while LISTEN is in place on a live connection. */
  listening(): boolean;
  /** Handlers subscribed now (channel and reconnect ones): a subscriber that went away must not stay counted. */
  handlerCount(): number;
  close(): Promise<void>;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

export function createNotificationListener(options: NotificationListenerOptions = {}): NotificationListener {
  const log = logger.child({ component: "notifications" });
  const handlers = new Map<string, Set<Handler>>();
  const reconnectHandlers = new Set<() => void>();
  const initial = options.initialBackoffMs ?? 1_000;
  const max = options.maxBackoffMs ?? 30_000;
  let client: pg.Client | null = null;
  const listenedOn = new Set<string>();
  let live = false;
  let closed = false;
  let attempt = 0;
  let connecting: Promise<void> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;

  const scheduleRetry = () => {
    if (closed || retryTimer) return;
    const delay = Math.min(max, initial * 2 ** attempt) * (0.8 + Math.random() * 0.4);
    attempt++;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, delay);
    retryTimer.unref();
  };

  /** LISTEN on every subscribed channel the live connection does not listen on yet. */
  const listenAll = async (c: pg.Client) => {
    for (const channel of [...handlers.keys()]) {
      if (listenedOn.has(channel)) continue;
      await c.query(`LISTEN ${channel}`);
      listenedOn.add(channel);
    }
  };

  const drop = (err?: unknown) => {
    if (!live && !client) return;
    live = false;
    listenedOn.clear();
    const c = client;
    client = null;
    c?.removeAllListeners();
    // pg may still emit an error for the dead connection: unheard, it would crash the process.
    c?.on("error", () => {});
    c?.end().catch(() => {});
    if (!closed) {
      log.warn({ error: err ? oneLine(err) : "connection ended" }, "LISTEN connection lost; reconnecting");
      scheduleRetry();
    }
  };

  const connect = (): Promise<void> => {
    if (closed || live || connecting) return connecting ?? Promise.resolve();
    connecting = (async () => {
      const c = new pg.Client({ connectionString: options.connectionString ?? databaseUrl(), options: SESSION_OPTIONS });
      c.on("error", (err) => drop(err));
      c.on("end", () => drop());
      c.on("notification", (msg) => {
        for (const h of handlers.get(msg.channel) ?? []) {
          try {
            h(msg.payload ?? "");
          } catch (err) {
            log.warn({ channel: msg.channel, error: oneLine(err) }, "notification handler failed");
          }
        }
      });
      try {
        await c.connect();
        listenedOn.clear();
        await listenAll(c);
        client = c;
        live = true;
        await listenAll(c); // channels subscribed while connecting
        attempt = 0;
        for (const h of reconnectHandlers) h();
      } catch (err) {
        c.removeAllListeners();
        await c.end().catch(() => {});
        log.warn({ error: oneLine(err) }, "LISTEN failed; retrying");
        scheduleRetry();
      }
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  return {
    subscribe(channel, handler) {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        if (live && client) listenAll(client).catch((err: unknown) => drop(err));
      }
      set.add(handler);
      void connect();
      return () => {
        set.delete(handler);
      };
    },
    onReconnect(handler) {
      reconnectHandlers.add(handler);
      return () => reconnectHandlers.delete(handler);
    },
    listening: () => live,
    handlerCount: () => [...handlers.values()].reduce((n, set) => n + set.size, reconnectHandlers.size),
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await connecting;
      const c = client;
      client = null;
      live = false;
      c?.removeAllListeners();
      c?.on("error", () => {});
      await c?.end().catch(() => {});
    },
  };
}

let shared: NotificationListener | undefined;

/** The process's listener (created on first use, so `next build` never connects). */
export function notificationListener(): NotificationListener {
  shared ??= createNotificationListener();
  return shared;
}
