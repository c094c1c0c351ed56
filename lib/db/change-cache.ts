// Values computed from the database once per change of the data rather than once per request. Each web
// replica keeps the last value and the generation of the change channel it was computed at; the
// collector NOTIFYs the channel when it writes, which moves the generation on. When LISTEN is down
// (connection lost, reconnecting) a value lives `ttlWhenDownMs` instead.
//
// A value that changed is recomputed once however many requests ask (they share one load), at most once per
// `minReloadIntervalMs`; a load that takes longer than `waitForFreshMs` is not waited for: requests get the
// previous value if it is younger than `serveStaleMs`, so a fleet the collector writes to every few seconds
// never makes a page wait for (or the server recompute for) every write.
import { logger } from "../logger";
import { oneLine } from "../errors";
import { CHANGE_CHANNEL } from "./channels";
import { notificationListener, type NotificationListener } from "./notifications";

export interface ChangeCacheOptions {
  /** How long a value lives while LISTEN is down. */
  ttlWhenDownMs?: number;
  /** How old a value may be to answer while its replacement loads... */
  serveStaleMs?: number;
  /** ...once the replacement has taken this long. */
  waitForFreshMs?: number;
  /** At most one reload per this interval: under a stream of changes, requests get the last copy meanwhile. */
  minReloadIntervalMs?: number;
  /** Listener to use (tests); default: the process's. */
  listener?: NotificationListener;
  channel?: string;
}

export interface ChangeCache<T> {
  get(): Promise<T>;
  /** Forget the value (this replica wrote the change itself). */
  invalidate(): void;
}

const generations = new Map<string, { value: number; unsubscribe: () => void }>();

function generationOf(listener: NotificationListener, channel: string): number {
  let g = generations.get(`${channel}`);
  if (!g) {
    const entry = { value: 0, unsubscribe: () => {} };
    const off1 = listener.subscribe(channel, () => entry.value++);
    const off2 = listener.onReconnect(() => entry.value++);
    entry.unsubscribe = () => {
      off1();
      off2();
    };
    generations.set(channel, entry);
    g = entry;
  }
  return g.value;
}

/** Caching is for long-running servers (Next.js); scripts and tests read the database directly. */
export const cachingEnabled = () => !!process.env.NEXT_RUNTIME && process.env.CROWS_NEST_CACHE !== "off";

export function changeCache<T>(name: string, load: () => Promise<T>, options: ChangeCacheOptions = {}): ChangeCache<T> {
  const ttl = options.ttlWhenDownMs ?? 5_000;
  const serveStale = options.serveStaleMs ?? 30_000;
  const waitForFresh = options.waitForFreshMs ?? 250;
  const minInterval = options.minReloadIntervalMs ?? 5_000;
  let lastReloadAt = 0;
  const channel = options.channel ?? CHANGE_CHANNEL;
  const log = logger.child({ component: "change-cache", cache: name });
  let entry: { value: T; generation: number; local: number; loadedAt: number } | null = null;
  let loading: Promise<T> | null = null;
  /** Moves on when this replica changes the data itself (a load started before it is stale). */
  let local = 0;

  let loadingLocal = -1;
  const reload = (listener: NotificationListener): Promise<T> => {
    // A load already running counts unless this replica changed the data after it started.
    if (loading && loadingLocal === local) return loading;
    const previous = loading;
    const started = local;
    loadingLocal = started;
    lastReloadAt = Date.now();
    const current: Promise<T> = (async () => {
      if (previous) await previous.catch(() => undefined);
      const generation = generationOf(listener, channel);
      const value = await load();
      entry = { value, generation, local: started, loadedAt: Date.now() };
      return value;
    })();
    loading = current;
    const clear = () => {
      if (loading === current) loading = null;
    };
    current.then(clear, clear);
    return current;
  };

  return {
    async get() {
      if (!(options.listener || cachingEnabled())) return load();
      const listener = options.listener ?? notificationListener();
      const generation = generationOf(listener, channel);
      const now = Date.now();
      const usable = entry && entry.local === local;
      if (entry && usable) {
        const fresh = listener.listening() ? entry.generation === generation : now - entry.loadedAt < ttl;
        if (fresh) return entry.value;
      }
      // Changed again soon after the last reload: the copy in hand answers until the interval has passed.
      if (entry && usable && !loading && now - lastReloadAt < minInterval && now - entry.loadedAt < serveStale) return entry.value;
      const next = reload(listener);
      if (entry && usable && now - entry.loadedAt < serveStale) {
        // Wait a moment for the new value (small fleets reload in milliseconds); if it takes longer, answer
        // with the previous one rather than make every request wait for the reload.
        const previous = entry.value;
        let timer: NodeJS.Timeout | undefined;
        const settled = await Promise.race([
          next.then(() => true),
          new Promise<false>((r) => (timer = setTimeout(() => r(false), waitForFresh))),
        ]).catch(() => false);
        clearTimeout(timer);
        if (settled) return next;
        next.catch((err: unknown) => log.warn({ error: oneLine(err) }, "reload failed; serving the previous value"));
        return previous;
      }
      return next;
    },
    invalidate() {
      local++;
    },
  };
}
