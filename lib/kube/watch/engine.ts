// The watch engine of one cluster: a LIST + WATCH loop per resource it is given, all on one connection
// (HTTP/2 when the server speaks it), with one health record and one verdict for the cluster. It does no
// database work: events go to the consumer's callback, synchronously and in order per resource.
//
//   const engine = createWatchEngine({ cluster, kubeConfig, resources, onEvent, onFallback });
//   await engine.start();   // every resource listed once (or its first list failed)
//   engine.health();        // per resource: mode, resourceVersion, failures…; sockets and requests
//   await engine.stop();    // a lost lease: every stream and socket closed at once
//
// When watching keeps failing (see verdict.ts) the engine stops its watches, keeps the verdict in its
// health and calls onFallback once: the caller polls that cluster instead and may try a new engine later.
import type { KubeConfig } from "@kubernetes/client-node";
import type { ErrorKind } from "../errors";
import { logger } from "../../logger";
import { ClusterTransport, type TransportOptions, type TransportStats } from "./transport";
import { ResourceWatch, type ResourceWatchHealth, type WatchEvent, type WatchResource, type WatchSettings } from "./resource-watch";

export { ResourceWatch } from "./resource-watch";
import type { Verdict } from "./verdict";

export type { WatchEvent, WatchResource } from "./resource-watch";
export { ClusterTransport, transportReader } from "./transport";
export type { Verdict } from "./verdict";

export interface WatchEngineOptions {
  /** For logs and health. */
  cluster: string;
  kubeConfig: KubeConfig;
  /** The connection to use (the caller read discovery over it already); by default the engine opens its own. Closed by stop(). */
  transport?: ClusterTransport;
  resources: WatchResource[];
  onEvent(event: WatchEvent): void;
  /** Watching this cluster keeps failing: poll it instead. Called once; the engine has stopped its watches. */
  onFallback?(fallback: { resource: string } & Verdict): void;
  /** Safety-net relist of every resource (default 15 min, jittered ±10 %). */
  relistIntervalMs?: number;
  /** Deadline of a list request and of a watch's response headers (default 15 s). */
  requestTimeoutMs?: number;
  /**
   * Watches ask the server to end them after 1–2× this. Default 1800 s: kube-apiserver's own choice for a
   * watch that names no timeout (30–60 min). client-go's 5–10 min spreads controllers over API servers; for a
   * collector holding 8,000 watches it is 1,000 resumes a minute, and dead connections are found by h2 PING
   * and bookmark silence, not by the timeout.
   */
  minWatchTimeoutSeconds?: number;
  /** After a bookmark on a stream, this much silence means it is dead (default 150 s; bookmarks come ~every 60 s). */
  bookmarkSilenceMs?: number;
  /**
   * Ask for bookmarks (default true). On a watch without selectors they never move the resume point past
   * what the events did; they keep a quiet stream alive through proxies and let a dead one be noticed, and
   * cost a wake-up per watch per minute.
   */
  allowWatchBookmarks?: boolean;
  /** "http1" never tries HTTP/2 (tests, or a proxy known to break it). */
  protocol?: "auto" | "http1";
  pageSize?: number;
  /** h2 PING after this much silence on the connection (default 90 s: bookmarks come every ~60 s), answer expected within pingTimeoutMs (15 s). */
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
  /** Backoff between failed attempts: base × 2^n, capped (defaults 500 ms and 30 s), with jitter. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  random?: () => number;
}

/** Each resource's safety-net relist, unless the options say otherwise (jittered ±10 %). */
export const DEFAULT_RELIST_INTERVAL_MS = 15 * 60_000;

export type EngineMode = "starting" | "watching" | "fallback" | "stopped";

export interface ClusterWatchHealth extends TransportStats {
  cluster: string;
  mode: EngineMode;
  /** Why this cluster is polled instead, once watching kept failing. */
  fallback: ({ resource: string; since: string } & Verdict) | null;
  resources: ResourceWatchHealth[];
}

export interface WatchEngine {
  /** Starts every resource; resolves once each has listed once or failed its first list. */
  start(): Promise<void>;
  /** Closes every stream and socket; resolves when every loop has ended. */
  stop(): Promise<void>;
  health(): ClusterWatchHealth;
  /** The connection's counters alone (requests, sockets, streams): no resource's health is built. */
  connectionStats(): TransportStats;
  /** Lists every resource again now, as the periodic safety net does; resolves once each has relisted (or the engine stopped). */
  relist(): Promise<void>;
  /** The first resource `which` picks that cannot be read now, and why (see ResourceWatch.listFailure). */
  listFailure(which: (resource: string) => boolean): { resource: string; message: string; kind: ErrorKind } | null;
  /** A rotated kubeconfig (token, certificate): used from the next request on. */
  setKubeConfig(kc: KubeConfig): void;
}

/** The connection settings the engine's options ask for (a caller opening the transport first uses the same). */
export function transportOptions(
  options: Pick<WatchEngineOptions, "requestTimeoutMs" | "protocol" | "pingIntervalMs" | "pingTimeoutMs"> &
    Pick<TransportOptions, "activity">,
): TransportOptions {
  return {
    requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
    protocol: options.protocol,
    pingIntervalMs: options.pingIntervalMs,
    pingTimeoutMs: options.pingTimeoutMs,
    activity: options.activity,
  };
}

/** Every resource watch's settings: the options given, defaults for the rest. */
export function watchSettings(options: Omit<WatchEngineOptions, "cluster" | "kubeConfig" | "resources" | "onEvent">): WatchSettings {
  return {
    requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
    relistIntervalMs: options.relistIntervalMs ?? DEFAULT_RELIST_INTERVAL_MS,
    minWatchTimeoutSeconds: options.minWatchTimeoutSeconds ?? 1800,
    bookmarkSilenceMs: options.bookmarkSilenceMs ?? 150_000,
    timeoutGraceMs: 30_000,
    pageSize: options.pageSize ?? 500,
    allowWatchBookmarks: options.allowWatchBookmarks ?? true,
    backoffBaseMs: options.backoffBaseMs ?? 500,
    backoffCapMs: options.backoffCapMs ?? 30_000,
  };
}

export function createWatchEngine(options: WatchEngineOptions): WatchEngine {
  const settings = watchSettings(options);
  const transport = options.transport ?? new ClusterTransport(options.kubeConfig, transportOptions(options));
  const log = logger.child({ component: "watch", cluster: options.cluster });
  let mode: EngineMode = "starting";
  let fallback: ClusterWatchHealth["fallback"] = null;
  let pendingFirstRound = new Set<string>();
  let firstRound: (() => void) | undefined;
  let consumerErrors = 0;

  /** relist() calls waiting for their resources' next list. */
  let relists: Array<{ waiting: Set<string>; done: () => void }> = [];

  const emit = (event: WatchEvent) => {
    if (event.type === "relisted" && relists.length) {
      for (const r of relists) if (r.waiting.delete(event.resource) && r.waiting.size === 0) r.done();
      relists = relists.filter((r) => r.waiting.size > 0);
    }
    try {
      options.onEvent(event);
    } catch (err) {
      // The consumer's bug must not stop the watch; it is logged (rarely) and counted.
      if (consumerErrors++ % 100 === 0) log.error({ err, resource: event.resource, type: event.type }, "the watch consumer threw");
    }
  };

  const watches: ResourceWatch[] = options.resources.map(
    (spec) =>
      new ResourceWatch(spec, {
        transport,
        emit,
        log,
        random: options.random ?? Math.random,
        settings,
        firstRoundDone(resource) {
          pendingFirstRound.delete(resource);
          if (pendingFirstRound.size === 0) firstRound?.();
        },
        giveUp(resource, verdict) {
          if (mode === "fallback" || mode === "stopped") return;
          mode = "fallback";
          fallback = { resource, since: new Date().toISOString(), ...verdict };
          log.warn({ resource, reason: verdict.reason, detail: verdict.detail }, "watching keeps failing; falling back to polling");
          void stopAll("fallback").then(() => {
            firstRound?.();
            options.onFallback?.({ resource, ...verdict });
          });
        },
      }),
  );
  const ids = new Set<string>();
  for (const watch of watches) {
    if (ids.has(watch.id)) throw new Error(`two watched resources share the id ${watch.id}`);
    ids.add(watch.id);
  }

  async function stopAll(to: "stopped" | "fallback"): Promise<void> {
    await Promise.all(watches.map((watch) => watch.stop(to)));
    for (const waiter of relists.splice(0)) waiter.done(); // nothing more will list
    transport.close();
  }

  return {
    start() {
      if (mode !== "starting") return Promise.resolve();
      pendingFirstRound = new Set(watches.map((watch) => watch.id));
      const done = new Promise<void>((resolve) => (firstRound = resolve));
      if (watches.length === 0) firstRound?.();
      for (const watch of watches) watch.start();
      return done.then(() => {
        if (mode === "starting") mode = "watching";
      });
    },
    async stop() {
      if (mode === "stopped") return;
      const wasFallback = mode === "fallback";
      mode = "stopped";
      await stopAll(wasFallback ? "fallback" : "stopped");
      firstRound?.();
      if (wasFallback) mode = "fallback";
    },
    health() {
      return { cluster: options.cluster, mode, fallback, ...transport.stats(), resources: watches.map((watch) => watch.health()) };
    },
    connectionStats() {
      return transport.stats();
    },
    relist() {
      const waiting = new Set(watches.filter((watch) => watch.relistNow()).map((watch) => watch.id));
      if (!waiting.size) return Promise.resolve();
      return new Promise<void>((done) => relists.push({ waiting, done }));
    },
    listFailure(which) {
      for (const watch of watches) {
        if (!which(watch.id)) continue;
        const failure = watch.listFailure();
        if (failure) return { resource: watch.id, ...failure };
      }
      return null;
    },
    setKubeConfig(kc) {
      transport.setKubeConfig(kc);
    },
  };
}
