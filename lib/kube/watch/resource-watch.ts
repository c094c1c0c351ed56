// LIST then WATCH one resource of one cluster, for as long as the engine runs:
//
//   list (paginated; an expired continue token restarts it) → reconcile with what we knew → watch from the
//   list's resourceVersion with bookmarks → on a clean end at the timeout we asked for, resume at once from
//   the last resourceVersion or bookmark → on a broken stream, resume after a backoff with jitter → on a
//   too-old resourceVersion (ERROR 410 line, or HTTP 410), list again and reconcile → every relist
//   interval, list again as a safety net.
//
// The consumer sees added/modified only when an object's resourceVersion moved, deleted once, and a
// `synced` (first list) or `relisted` (later lists) marker after each list's changes.
import { backoffMs, ClusterRequestError, classifyNetworkError, type ErrorKind } from "../errors";
import type { Raw } from "../raw";
import { holdsResourceVersion, type KnownObjects, packKnown, reconcileList } from "./reconcile";
import { sweeperEvery } from "./sweeper";
import type { ClusterTransport, WatchStream } from "./transport";
import { type AttemptOutcome, describeOutcome, type Verdict, watchVerdict } from "./verdict";
import { decodeListPage, decodeWatchLine, LineSplitter } from "./wire";

/** The API path a resource is listed and watched at: `/apis/<group>/<version>[/namespaces/<ns>]/<plural>` (`/api/v1/…` for core). */
export function resourcePath(spec: Pick<WatchResource, "group" | "version" | "plural" | "namespace">): string {
  const prefix = spec.group ? `/apis/${spec.group}/${spec.version}` : `/api/${spec.version}`;
  return `${prefix}${spec.namespace ? `/namespaces/${encodeURIComponent(spec.namespace)}` : ""}/${spec.plural}`;
}

export interface WatchResource {
  /** API group ("" for core), version and plural, e.g. kustomize.toolkit.fluxcd.io / v1 / kustomizations. */
  group: string;
  version: string;
  plural: string;
  /** The kind, for the stub of an object found deleted by a relist. */
  kind: string;
  /** Only this namespace (default: all). */
  namespace?: string;
  fieldSelector?: string;
  labelSelector?: string;
  /** Name in events and health (default `group/version/plural`, plus the selectors). */
  id?: string;
  /** `namespace/name` → resourceVersion the consumer already holds: the first list reports only differences. */
  known?: Iterable<readonly [string, string]>;
}

export type WatchEvent =
  | { type: "added" | "modified" | "deleted"; resource: string; object: Raw }
  /** The first list is complete (its changes came before this). */
  | { type: "synced"; resource: string; objects: number }
  /** A later list is complete: why, and what it found changed. */
  | { type: "relisted"; resource: string; reason: RelistReason; objects: number; added: number; modified: number; deleted: number };

export type RelistReason = "expired" | "periodic" | "gone";

export type ResourceMode = "starting" | "listing" | "watching" | "backoff" | "not-served" | "fallback" | "stopped";

export interface ResourceWatchHealth {
  resource: string;
  mode: ResourceMode;
  /** A watch stream is open now. */
  connected: boolean;
  resourceVersion: string | null;
  objects: number;
  /** Times in epoch milliseconds (a watch sees thousands of bookmarks a minute: no date is made per frame). */
  lastEventAtMs: number | null;
  lastBookmarkAtMs: number | null;
  lastListAtMs: number | null;
  consecutiveFailures: number;
  lastError: string | null;
  lastErrorKind: ErrorKind | null;
  lists: number;
  watches: number;
  relists: Record<RelistReason, number>;
  /** added + modified + deleted handed to the consumer */
  events: number;
}

export interface ResourceWatchContext {
  transport: ClusterTransport;
  emit(event: WatchEvent): void;
  /** Watching this cluster keeps failing: the engine stops every watch and says why. */
  giveUp(resource: string, verdict: Verdict): void;
  /** The first list finished, well or not. */
  firstRoundDone(resource: string): void;
  log: { debug(obj: object, msg: string): void; info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  random: () => number;
  settings: WatchSettings;
}

export interface WatchSettings {
  requestTimeoutMs: number;
  relistIntervalMs: number;
  /** Watches ask for a server timeout between this and twice this (the engine's default: 30–60 min). */
  minWatchTimeoutSeconds: number;
  /** After a bookmark, this much silence means the stream is dead (bookmarks come about every minute). */
  bookmarkSilenceMs: number;
  /** Beyond the timeout we asked for, how long the server may take to end the stream. */
  timeoutGraceMs: number;
  pageSize: number;
  allowWatchBookmarks: boolean;
  backoffBaseMs: number;
  backoffCapMs: number;
}

/** How often an open stream's deadline and silence are checked: a tenth of the silence allowed, at most every 15 s. */
const streamCheckPeriodMs = (settings: Pick<WatchSettings, "bookmarkSilenceMs">) => Math.min(15_000, settings.bookmarkSilenceMs / 10);

/** Failures that also stop lists: the cluster is unreachable, not its watches failing. */
const UNREACHABLE_KINDS = new Set<ErrorKind>(["auth", "tls", "dns", "refused"]);
const PAGE_ATTEMPTS = 3;
const CONTINUE_RESTARTS = 2;

type Ending = "stop" | "relist" | "idle" | null;

export class ResourceWatch {
  readonly id: string;
  private readonly path: string;
  private readonly typeMeta: { apiVersion: string; kind: string };
  private readonly known: KnownObjects = new Map();
  private rv: string | null = null;
  /** Watch requests since the last list: a 410 on the first one means the list's resourceVersion is already too old. */
  private watchesSinceList = 0;
  private needList: RelistReason | "first" | null = "first";
  private mode: ResourceMode = "starting";
  private stream?: WatchStream;
  private ending: Ending = null;
  private failures: AttemptOutcome[] = [];
  private quietFailures = 0;
  private stopped = false;
  private wake?: () => void;
  private relistTimer?: NodeJS.Timeout;
  private firstRound = true;
  private h = {
    lastEventAtMs: null as number | null,
    lastBookmarkAtMs: null as number | null,
    lastListAtMs: null as number | null,
    lastError: null as string | null,
    lastErrorKind: null as ErrorKind | null,
    lists: 0,
    watches: 0,
    events: 0,
    relists: { expired: 0, periodic: 0, gone: 0 } as Record<RelistReason, number>,
  };
  private loop?: Promise<void>;
  /** Retry-After of the last rejected watch request. */
  private retryAfter: number | undefined;

  constructor(
    private readonly spec: WatchResource,
    private readonly ctx: ResourceWatchContext,
  ) {
    const selectors = [
      spec.fieldSelector && `fieldSelector=${spec.fieldSelector}`,
      spec.labelSelector && `labelSelector=${spec.labelSelector}`,
    ]
      .filter(Boolean)
      .join("&");
    const base = `${spec.group || "core"}/${spec.version}/${spec.namespace ? `namespaces/${spec.namespace}/` : ""}${spec.plural}`;
    this.id = spec.id ?? (selectors ? `${base}?${selectors}` : base);
    this.path = resourcePath(spec);
    this.typeMeta = { apiVersion: spec.group ? `${spec.group}/${spec.version}` : spec.version, kind: spec.kind };
    for (const [key, resourceVersion] of spec.known ?? []) this.known.set(key, packKnown(resourceVersion, null));
  }

  start(): void {
    this.loop ??= this.run().catch((err: unknown) => {
      // A bug, not a cluster failure: say so loudly and stop this resource.
      this.mode = "stopped";
      this.ctx.log.warn({ resource: this.id, err }, "the watch loop failed");
      this.reportFirstRound();
    });
  }

  /** Stops at once: the open stream is closed, a pending backoff ends. */
  async stop(mode: "stopped" | "fallback" = "stopped"): Promise<void> {
    this.stopped = true;
    this.mode = mode;
    this.ending = "stop";
    clearTimeout(this.relistTimer);
    this.stream?.close();
    this.wake?.();
    await this.loop;
    this.mode = mode;
  }

  health(): ResourceWatchHealth {
    return {
      resource: this.id,
      mode: this.mode,
      connected: this.mode === "watching" && this.stream !== undefined,
      resourceVersion: this.rv,
      objects: this.known.size,
      consecutiveFailures: this.failures.length,
      ...this.h,
      relists: { ...this.h.relists },
    };
  }

  /**
   * Why this resource cannot be read now, if so: it never listed, or its lists fail and no stream is open.
   * Null while it lists or watches, and for a resource the cluster does not serve or no longer watches.
   * (The heartbeat asks this of every resource of every cluster: it reads state, it builds no health.)
   */
  listFailure(): { message: string; kind: ErrorKind } | null {
    if (this.mode === "not-served" || this.mode === "fallback" || !this.h.lastError) return null;
    const neverListed = this.h.lastListAtMs === null;
    // Backing off or listing again after an error: no stream is open (a watching one is "watching").
    const listFailing = (this.mode === "backoff" || this.mode === "listing") && this.h.lastErrorKind !== null;
    return neverListed || listFailing ? { message: this.h.lastError, kind: this.h.lastErrorKind ?? "other" } : null;
  }

  // --- the loop ---------------------------------------------------------------------------------------

  private async run(): Promise<void> {
    let listFailures = 0;
    while (!this.stopped) {
      if (this.needList) {
        this.mode = "listing";
        // Taken before listing: a relist asked for while this list runs lists once more after it.
        const reason = this.needList;
        this.needList = null;
        try {
          await this.list(reason);
          listFailures = 0;
        } catch (err) {
          // Still to do; a first list stays the first (its end is `synced`) whatever was asked meanwhile.
          this.needList = reason === "first" ? reason : (this.needList ?? reason);
          if (this.stopped) break;
          const e = classifyNetworkError(err);
          this.noteError(e);
          if (e.status === 404) {
            this.mode = "not-served";
            this.ctx.log.info({ resource: this.id }, "not served by this cluster; not watched");
            this.reportFirstRound();
            return;
          }
          this.reportFirstRound();
          await this.pause(this.backoff(listFailures++, e.retryAfterSeconds));
          continue;
        }
      }
      const outcome = await this.watchOnce();
      if (this.stopped) break;
      if (outcome === "resume") continue;
      if (outcome === "unreachable") {
        await this.pause(this.backoff(this.quietFailures++));
        continue;
      }
      this.quietFailures = 0;
      this.failures.push(outcome);
      this.h.lastError = describeOutcome(outcome);
      const verdict = watchVerdict(this.failures);
      if (verdict) {
        this.ctx.giveUp(this.id, verdict);
        return;
      }
      this.ctx.log.debug(
        { resource: this.id, failures: this.failures.length, last: this.h.lastError },
        "watch failed; resuming after a backoff",
      );
      await this.pause(this.backoff(this.failures.length - 1, outcome.kind === "rejected" ? this.retryAfter : undefined));
    }
  }

  private backoff(attempt: number, retryAfterSeconds?: number): number {
    return backoffMs(attempt, retryAfterSeconds, this.ctx.random, this.ctx.settings.backoffBaseMs, this.ctx.settings.backoffCapMs);
  }

  /** Waits `ms`, or less when stop() or a due relist wakes it. */
  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.mode = "backoff";
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).then(() => {
      this.wake = undefined;
    });
  }

  private noteError(e: ClusterRequestError): void {
    this.h.lastError = e.message;
    this.h.lastErrorKind = e.kind;
  }

  private reportFirstRound(): void {
    if (!this.firstRound) return;
    this.firstRound = false;
    this.ctx.firstRoundDone(this.id);
  }

  // --- list -------------------------------------------------------------------------------------------

  private async list(reason: RelistReason | "first"): Promise<void> {
    const items: Raw[] = [];
    let rv: string | null = null;
    for (let restarts = CONTINUE_RESTARTS; ; restarts--) {
      items.length = 0;
      let token: string | null = null;
      try {
        do {
          const page = decodeListPage(await this.page(token));
          for (const item of page.items) items.push(item);
          token = page.continueToken;
          rv = page.resourceVersion;
        } while (token);
        break;
      } catch (err) {
        // An expired continue token: the server asks us to start over.
        if (err instanceof ClusterRequestError && err.status === 410 && restarts > 0) continue;
        throw err;
      }
    }
    if (this.stopped) return;
    if (!rv) throw new ClusterRequestError("the list answer carries no resourceVersion", "other");
    this.h.lists++;
    const changes = reconcileList(this.known, items, this.typeMeta);
    let added = 0;
    let modified = 0;
    let deleted = 0;
    for (const change of changes) {
      if (change.type === "added") added++;
      else if (change.type === "modified") modified++;
      else deleted++;
      this.deliver({ type: change.type, resource: this.id, object: change.object });
    }
    this.rv = rv;
    this.watchesSinceList = 0;
    this.h.lastListAtMs = Date.now();
    if (reason === "first") {
      this.ctx.emit({ type: "synced", resource: this.id, objects: this.known.size });
    } else {
      this.h.relists[reason]++;
      this.ctx.emit({ type: "relisted", resource: this.id, reason, objects: this.known.size, added, modified, deleted });
      this.ctx.log.info({ resource: this.id, reason, added, modified, deleted }, "relisted");
    }
    this.scheduleRelist();
    this.reportFirstRound();
  }

  /** One page, retried on timeouts, resets, 429 and 5xx: a continue token stays good for minutes. */
  private async page(token: string | null): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.ctx.transport.getJson(this.path, {
          limit: this.ctx.settings.pageSize,
          continue: token ?? undefined,
          fieldSelector: this.spec.fieldSelector,
          labelSelector: this.spec.labelSelector,
        });
      } catch (err) {
        const e = classifyNetworkError(err);
        if (this.stopped || !e.retryable || attempt + 1 >= PAGE_ATTEMPTS) throw e;
        await this.pause(this.backoff(attempt, e.retryAfterSeconds));
        if (this.stopped) throw e;
      }
    }
  }

  private scheduleRelist(): void {
    clearTimeout(this.relistTimer);
    if (this.stopped) return;
    const interval = this.ctx.settings.relistIntervalMs * (0.9 + 0.2 * this.ctx.random());
    this.relistTimer = setTimeout(() => this.relistNow(), interval);
    this.relistTimer.unref();
  }

  /** Lists again now, as the periodic safety net does. False when it will not: stopped, or not served. */
  relistNow(): boolean {
    if (this.stopped || this.mode === "not-served") return false;
    this.needList ??= "periodic";
    if (this.stream) {
      this.ending = "relist";
      this.stream.close();
    } else {
      this.wake?.();
    }
    return true;
  }

  // --- watch ------------------------------------------------------------------------------------------

  /** One watch request: "resume" to go on at once, "unreachable" for a cluster-level failure, else a failure. */
  private async watchOnce(): Promise<AttemptOutcome | "resume" | "unreachable"> {
    const { settings } = this.ctx;
    const timeoutSeconds = Math.floor(settings.minWatchTimeoutSeconds * (1 + this.ctx.random()));
    const startRv = this.rv;
    const started = Date.now();
    let delivered = 0;
    let bookmarks = 0;
    let lastDataAt = started;
    let stop: { kind: "expired" | "error" | "invalid"; message: string; code?: number | null } | null = null;
    const splitter = new LineSplitter();
    this.ending = null;

    const onLine = (line: string) => {
      if (stop || this.ending) return;
      lastDataAt = Date.now();
      const decoded = decodeWatchLine(line);
      switch (decoded.kind) {
        case "change": {
          delivered++;
          this.rv = decoded.resourceVersion;
          this.h.lastEventAtMs = lastDataAt;
          const before = this.known.get(decoded.key);
          if (decoded.type === "DELETED") {
            if (!before) return;
            this.known.delete(decoded.key);
            this.deliver({ type: "deleted", resource: this.id, object: decoded.object });
            return;
          }
          if (holdsResourceVersion(before, decoded.resourceVersion)) return; // a replay of what we have
          this.known.set(decoded.key, packKnown(decoded.resourceVersion, decoded.uid));
          this.deliver({ type: before ? "modified" : "added", resource: this.id, object: decoded.object });
          return;
        }
        case "bookmark":
          bookmarks++;
          this.rv = laterRv(this.rv, decoded.resourceVersion);
          this.h.lastBookmarkAtMs = lastDataAt;
          return;
        case "expired":
          stop = { kind: "expired", message: decoded.message };
          break;
        case "error":
          stop = { kind: "error", message: decoded.message, code: decoded.code };
          break;
        case "invalid":
          stop = { kind: "invalid", message: decoded.detail };
          break;
      }
      this.stream?.close();
    };

    const query = {
      watch: 1,
      allowWatchBookmarks: settings.allowWatchBookmarks ? "true" : undefined,
      resourceVersion: startRv ?? undefined,
      timeoutSeconds,
      fieldSelector: this.spec.fieldSelector,
      labelSelector: this.spec.labelSelector,
    };
    this.h.watches++;
    this.watchesSinceList++;
    try {
      this.stream = await this.ctx.transport.openStream(this.path, query, (chunk) => splitter.push(chunk, onLine));
    } catch (err) {
      const e = classifyNetworkError(err);
      if (this.stopped) return "resume";
      this.noteError(e);
      if (e.status === 410 || e.reason === "Expired" || e.reason === "Gone") return this.expired(e.message, startRv);
      if (e.status === 404) {
        this.needList = "gone"; // the resource went away (CRD deleted?): the list says whether it is still served
        return "resume";
      }
      // 403 on a watch of a resource we could list: RBAC without the watch verb, where polling works.
      if (e.status === 403 && this.h.lists > 0) return { kind: "rejected", status: 403, message: e.message };
      if (UNREACHABLE_KINDS.has(e.kind)) return "unreachable";
      if (e.status !== undefined) {
        this.retryAfter = e.retryAfterSeconds;
        return { kind: "rejected", status: e.status, message: e.message };
      }
      if (e.kind === "timeout" && e.message.startsWith("no response headers"))
        return { kind: "no-headers", timeoutMs: settings.requestTimeoutMs };
      if (e.kind === "timeout") return "unreachable"; // no connection within the deadline
      return { kind: "broken", ageMs: 0, message: e.message };
    }
    // Lines may arrive before the stream is known here (a 410 comes with the headers).
    if (this.stopped || stop) this.stream.close();
    else if (this.needList) {
      // A relist came due while the request was on its way (nothing could close a stream not yet known).
      this.ending = "relist";
      this.stream.close();
    }
    if (this.stopped) {
      this.stream = undefined;
      return "resume";
    }
    this.mode = "watching";

    // The server ends the stream at timeoutSeconds; after a bookmark, silence means a dead connection.
    // Checked by the process's shared sweeper, not a timer per stream (see sweeper.ts).
    const deadlineMs = timeoutSeconds * 1000 + settings.timeoutGraceMs;
    const stopChecking = sweeperEvery(streamCheckPeriodMs(settings)).add((now) => {
      if (now - started >= deadlineMs || (bookmarks > 0 && now - lastDataAt >= settings.bookmarkSilenceMs)) {
        this.ending ??= "idle";
        this.stream?.close();
      }
    });

    let how: "server" | "client" | ClusterRequestError;
    try {
      how = await this.stream.done;
    } catch (err) {
      how = classifyNetworkError(err);
    } finally {
      stopChecking();
      this.stream = undefined;
    }
    const ageMs = Date.now() - started;
    const ending = this.ending as Ending;
    this.ending = null;
    this.mode = "starting";

    if (ending === "stop" || this.stopped) return "resume";
    if (ending === "relist") return "resume"; // needList is set
    const stopped = stop as { kind: "expired" | "error" | "invalid"; message: string } | null;
    if (stopped?.kind === "expired") return this.expired(stopped.message, startRv);
    if (stopped?.kind === "error") return { kind: "error-event", message: stopped.message };
    if (stopped?.kind === "invalid") return { kind: "broken", ageMs, message: stopped.message };
    if (ending === "idle") return { kind: "idle", silentMs: Date.now() - lastDataAt };
    if (how instanceof ClusterRequestError) {
      this.noteError(how);
      return { kind: "broken", ageMs, message: how.message };
    }
    if (splitter.pending > 0) return { kind: "broken", ageMs, message: "the stream ended inside an event" };
    if (ageMs >= (timeoutSeconds - 1) * 1000) {
      // The server ended it at the timeout we asked for: the normal way a watch ends.
      this.failures = [];
      return "resume";
    }
    return { kind: "ended-early", ageMs, delivered: delivered + bookmarks };
  }

  /** Too old: list again. A 410 on the first watch after the list that gave the resourceVersion is a failure. */
  private expired(message: string, startRv: string | null): AttemptOutcome | "resume" {
    this.needList = "expired";
    this.ctx.log.info({ resource: this.id, resourceVersion: startRv, message }, "resourceVersion too old; relisting");
    if (this.watchesSinceList === 1) return { kind: "expired-at-once", message };
    this.failures = [];
    return "resume";
  }

  private deliver(event: WatchEvent): void {
    this.h.events++;
    this.ctx.emit(event);
  }
}

/** The later of two resourceVersions when both are numbers (etcd revisions), else the newer one given. */
export function laterRv(current: string | null, next: string): string {
  if (current === null || !/^\d+$/.test(current) || !/^\d+$/.test(next)) return next;
  if (current.length !== next.length) return current.length > next.length ? current : next;
  return current > next ? current : next;
}
