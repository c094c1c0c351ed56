// Discovery's hub lists in watch mode. The first time discovery lists a path (the Secrets of a namespace,
// Crossplane resources, the hub's Flux objects, labelled Secrets), a LIST + WATCH of it starts on one hub
// connection; later cycles read the watch's copy instead of listing again. `generation` moves with every
// change any of these watches sees after its first list, so a cycle in which it did not move can reuse the
// last discovery whole.
//
// A path whose watch is not healthy right now (backing off after a failure, given up) is listed afresh as
// before, so a hub that stops answering makes discovery incomplete as it always did, never silently stale.
// A path whose first list fails (not served, RBAC without list) is not watched for a while: it is listed
// every cycle as before. A fresh list moves the generation when it answers, or fails differently than last
// time, so nothing is reused across a change it could have brought.
import { oneLine } from "../../errors";
import type { KubeReader } from "../../kube/client";
import { listAll } from "../../kube/list";
import type { Raw } from "../../kube/raw";
import { ResourceWatch, type WatchEvent, type WatchResource } from "../../kube/watch/engine";
import type { WatchSettings } from "../../kube/watch/resource-watch";
import type { ClusterTransport } from "../../kube/watch/transport";
import { objectKeyOf } from "../../kube/watch/wire";
import type { Logger } from "../../logger";
import type { HubReader } from "./hub-reader";

/** The watch of a list path, or null for a path that is not a plain list (`/apis/g/v/plural`, `/api/v1/namespaces/ns/secrets`…). */
export function watchResourceOf(path: string, labelSelector?: string): WatchResource | null {
  if (path.includes("?")) return null;
  const parts = path.split("/").map(decodeURIComponent);
  if (parts[0] !== "") return null;
  let group: string;
  let rest: string[];
  if (parts[1] === "api" && parts.length >= 4) [group, rest] = ["", parts.slice(2)];
  else if (parts[1] === "apis" && parts.length >= 5) [group, rest] = [parts[2], parts.slice(3)];
  else return null;
  const [version, ...tail] = rest;
  const namespaced = tail.length === 3 && tail[0] === "namespaces" && tail[1] !== "";
  if (!(tail.length === 1 || namespaced) || !version) return null;
  const plural = tail[tail.length - 1];
  if (!plural) return null;
  return { group, version, plural, kind: plural, namespace: namespaced ? tail[1] : undefined, labelSelector: labelSelector || undefined };
}

/** A path whose first list failed, or whose watch kept failing, is listed afresh every cycle and watched again after this. */
const RETRY_WATCH_AFTER_MS = 10 * 60_000;

class WatchedList {
  readonly objects = new Map<string, Raw>();
  readonly firstRound: Promise<void>;
  synced = false;
  /** Watching it kept failing (see verdict.ts): it is listed afresh, and watched again later. */
  gaveUp = false;
  private readonly watch: ResourceWatch;

  constructor(spec: WatchResource, transport: ClusterTransport, settings: WatchSettings, log: Logger, changed: () => void) {
    let firstRoundDone = () => {};
    this.firstRound = new Promise((resolve) => (firstRoundDone = resolve));
    this.watch = new ResourceWatch(spec, {
      transport,
      settings,
      log,
      random: Math.random,
      emit: (event: WatchEvent) => {
        if (event.type === "synced") this.synced = true;
        if (event.type !== "added" && event.type !== "modified" && event.type !== "deleted") return;
        const key = objectKeyOf(event.object);
        if (!key) return;
        if (event.type === "deleted") this.objects.delete(key);
        else this.objects.set(key, event.object);
        // The first list's objects are what the list() that started this watch answers: nothing computed
        // before it read them. Moving the generation for them made the next discovery compute again for nothing.
        if (this.synced) changed();
      },
      giveUp: (resource, verdict) => {
        this.gaveUp = true;
        this.objects.clear();
        changed();
        log.warn({ resource, reason: verdict.reason, detail: verdict.detail }, "watching a hub list keeps failing; listing it every cycle");
      },
      firstRoundDone,
    });
    this.watch.start();
  }

  /** Its copy is whole and current: listed once, and watching (or between two watch requests, or relisting). */
  get usable(): boolean {
    if (!this.synced || this.gaveUp) return false;
    const { mode } = this.watch.health();
    return mode === "watching" || mode === "starting" || mode === "listing";
  }

  stop(): Promise<void> {
    return this.watch.stop();
  }
}

export class WatchedHub implements HubReader {
  private readonly lists = new Map<string, WatchedList>();
  /** Paths whose first list failed: when watching them may be tried again. */
  private readonly unwatched = new Map<string, number>();
  /** How the last fresh list of each path ended ("ok" or its error). */
  private readonly lastFresh = new Map<string, string>();
  private changes = 0;
  private closed = false;
  private readonly log: Logger;

  constructor(
    /** For single objects, `/apis`, and lists whose watch is not usable. */
    private readonly direct: KubeReader,
    private readonly transport: ClusterTransport,
    private readonly settings: WatchSettings,
    log: Logger,
  ) {
    this.log = log.child({ component: "hub-watch" });
  }

  get server(): string {
    return this.direct.server;
  }

  get requests(): number {
    return this.direct.requests + this.transport.stats().requests;
  }

  get generation(): number {
    return this.changes;
  }

  /** Lists watched, how many are usable now, and how many are listed afresh because their first list failed. */
  stats(): { watched: number; usable: number; objects: number; unwatched: number } {
    const lists = [...this.lists.values()];
    return {
      watched: lists.length,
      usable: lists.filter((l) => l.usable).length,
      objects: lists.reduce((n, l) => n + l.objects.size, 0),
      unwatched: this.unwatched.size,
    };
  }

  getJson<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T> {
    return this.direct.getJson<T>(path, query);
  }

  async list(path: string, options: { labelSelector?: string } = {}): Promise<Raw[]> {
    const id = options.labelSelector ? `${path}?labelSelector=${options.labelSelector}` : path;
    let list = this.lists.get(id);
    if (list?.gaveUp) {
      // Its watch loop has already ended; stop() records it as stopped (and would end any request left).
      void list.stop();
      this.lists.delete(id);
      this.unwatched.set(id, Date.now() + RETRY_WATCH_AFTER_MS);
      list = undefined;
    }
    if (!list && !this.closed && (this.unwatched.get(id) ?? 0) <= Date.now()) list = await this.watch(id, path, options.labelSelector);
    if (list?.usable) return [...list.objects.values()];
    return this.listFresh(id, path, options);
  }

  private async watch(id: string, path: string, labelSelector: string | undefined): Promise<WatchedList | undefined> {
    const spec = watchResourceOf(path, labelSelector);
    if (!spec) return undefined;
    const list = new WatchedList({ ...spec, id }, this.transport, this.settings, this.log, () => this.changes++);
    await list.firstRound;
    if (!list.synced) {
      await list.stop();
      this.unwatched.set(id, Date.now() + RETRY_WATCH_AFTER_MS);
      return undefined;
    }
    this.unwatched.delete(id);
    this.lists.set(id, list);
    return list;
  }

  private async listFresh(id: string, path: string, options: { labelSelector?: string }): Promise<Raw[]> {
    try {
      const items = await listAll(this.direct, path, options);
      this.changes++; // what it answered is not compared: nothing computed from it is reused
      this.lastFresh.set(id, "ok");
      return items;
    } catch (err) {
      const outcome = oneLine(err);
      if (this.lastFresh.get(id) !== outcome) this.changes++;
      this.lastFresh.set(id, outcome);
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.lists.values()].map((list) => list.stop()));
    this.lists.clear();
    this.transport.close();
  }
}
