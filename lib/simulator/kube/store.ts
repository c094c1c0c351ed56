// One simulated cluster's object store: what etcd plus the watch cache are to a real API server.
//
// The fleet model says what a cluster holds at a simulated time; `sync` diffs that against the store,
// bumps the cluster's single resourceVersion counter for every object that really changed, and emits
// watch events. Client writes (patch, update, create, delete) are kept as an overlay per object and
// re-applied on every sync, so a `flux suspend` or `kubectl annotate` survives the model moving on.
// Every object is serialised once per change; list responses are joined from those strings.
import { createHash } from "node:crypto";
import type { KubeObject } from "../contract";
import { applyChurnMark, type ChurnMark } from "./churn";
import { applyRoutineMark, type RoutineMark } from "../fleet/reconcile-pass";
import { applyMergePatch, composeMergePatches, diffAsMergePatch } from "./patch";
import { applyKubeletReport } from "./kubelets";
import { isBuiltInApiVersion, managedFieldsOf, orderedEntries } from "./managed-fields";
import { checkAgainstCrd, crdSchemaFor, pruneUnknown } from "./crd-schema";
import { groupVersionOf, type ResourceType, ResourceRegistry, resourceKey } from "./registry";
import { matchesFields, matchesLabels, type FieldRequirement, type LabelSelector } from "./selectors";
import {
  alreadyExists,
  badRequest,
  conflict,
  continueTooOld,
  escapeLikeGo,
  invalid,
  KubeError,
  listTooOld,
  notFound,
  resourceVersionTooLarge,
  type StatusCause,
} from "./status";

/**
 * An immutable serialised state of one object at one resourceVersion. Only the JSON is kept (a parsed
 * copy of 150,000 objects would cost gigabytes); `object` parses on demand for the rarer paths.
 */
export class ObjectVersion {
  constructor(
    readonly key: string,
    readonly namespace: string | undefined,
    readonly name: string,
    readonly rv: number,
    readonly json: string,
    readonly labels: Record<string, string> | undefined,
  ) {}

  /** A fresh parsed copy (callers may mutate it). */
  get object(): KubeObject {
    return JSON.parse(this.json) as KubeObject;
  }
}

interface Entry {
  type: ResourceType;
  key: string;
  /**
   * The model's object (or the client's, for objects a client created), serialised; kept only once a
   * client write or a controller reaction makes the served object differ from it. Otherwise the base is
   * the served JSON minus what `render` added.
   */
  baseJson?: string;
  /** `render` filled these in because the base had none. */
  filledUid: boolean;
  filledCreationTimestamp: boolean;
  fromModel: boolean;
  /** Accumulated client changes, as one merge patch over the base. */
  overlay?: unknown;
  generationBump: number;
  /** What the simulated Flux controller has acted on (see reactions in the runtime). */
  handledReconcileAt?: string;
  handledGeneration?: number;
  /** The churn knob's last change to this object (applied over the model, see churn.ts). */
  churn?: ChurnMark;
  /** Where the object's routine reconcile stands (applied over the model and any churn, see reconciles.ts). */
  routine?: RoutineMark;
  /** A Node's kubelet's last status report (see kubelets.ts). */
  kubeletReport?: string;
  firstSeen: number;
  current: ObjectVersion;
}

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

export interface StoreEvent {
  type: WatchEventType;
  resource: string;
  version: ObjectVersion;
  /** The object before this change (lists at an older resourceVersion are rebuilt from it). */
  previous?: ObjectVersion;
}

interface ResourceTable {
  type: ResourceType;
  entries: Map<string, Entry>;
  sorted?: ObjectVersion[];
}

export interface ListOptions {
  namespace?: string;
  labelSelector: LabelSelector;
  fieldSelector: FieldRequirement[];
  limit?: number;
  continueToken?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

export interface ListResult {
  items: ObjectVersion[];
  resourceVersion: number;
  continueToken: string;
  remainingItemCount?: number;
}

export interface WriteResult {
  version: ObjectVersion;
  changed: boolean;
  before?: ObjectVersion;
}

/** Changes the simulated etcd can replay: Events watches and lists at an older resourceVersion. */
const WATCH_HISTORY = 2000;
/** Changes the watch cache keeps per resource (kube-apiserver sizes it dynamically; a fixed size will do). */
const DEFAULT_WATCH_CACHE_SIZE = 1000;
const MAX_SNAPSHOTS = 64;

/**
 * A resource's watch cache, as kube-apiserver's cacher keeps one per resource (never for Events). A watch
 * can resume from any resourceVersion at or after `validFrom`: the list the cache started from, or just
 * before the oldest change it still holds once older ones were dropped.
 */
interface WatchCache {
  events: StoreEvent[];
  validFrom: number;
  /** The last change of this resource since the cache started; 0 = none yet (then no bookmarks are sent). */
  lastEventRv: number;
}

/** Events (core and events.k8s.io) have no watch cache: their watches are served from etcd. */
export const hasWatchCache = (resource: string) => !/^(|events\.k8s\.io)\/[^/]+\/events$/.test(resource);

const objectKey = (namespace: string | undefined, name: string) => (namespace ? `${namespace}/${name}` : name);

function deterministicUid(seed: string): string {
  const hex = createHash("sha256").update(seed).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const isFluxGroup = (group: string) => group.endsWith(".toolkit.fluxcd.io");

export function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv, start })).toString("base64url");
}

function decodeContinue(token: string): { rv: number; start: string } {
  const invalidByte = token.search(/[^A-Za-z0-9_-]/);
  if (invalidByte >= 0 || token.length % 4 === 1) {
    const at = invalidByte >= 0 ? invalidByte : token.length - 1;
    throw badRequest(`invalid continue token: continue key is not valid: illegal base64 data at input byte ${at}`);
  }
  try {
    const decoded = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { v?: unknown; rv?: unknown; start?: unknown } | null;
    if (decoded?.v !== "meta.k8s.io/v1")
      throw new Error("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
    if (typeof decoded.rv !== "number" || typeof decoded.start !== "string") throw new Error("continue key is not valid");
    return { rv: decoded.rv, start: decoded.start };
  } catch (error) {
    throw badRequest(`invalid continue token: ${(error as Error).message}`);
  }
}

export class ClusterStore {
  readonly registry: ResourceRegistry;
  private tables = new Map<string, ResourceTable>();
  private rv: number;
  /** Lists and continue tokens older than this answer 410 Expired, as after an etcd compaction. */
  private compactedRv = 0;
  private history: StoreEvent[] = [];
  private historyStartRv: number;
  private listeners = new Set<(event: StoreEvent) => void>();
  private snapshots = new Map<string, ObjectVersion[]>();
  private deletedByClient = new Set<string>();
  private caches = new Map<string, WatchCache>();
  /** Where a watch cache created now starts: the store's first revision, or the last restart. */
  private cacheStartRv: number;

  constructor(
    readonly clusterName: string,
    registry?: ResourceRegistry,
    startRv = 1,
    private readonly watchCacheSize = DEFAULT_WATCH_CACHE_SIZE,
  ) {
    this.registry = registry ?? new ResourceRegistry();
    this.rv = startRv;
    this.historyStartRv = startRv;
    this.cacheStartRv = startRv;
  }

  get resourceVersion(): number {
    return this.rv;
  }

  get oldestWatchableRv(): number {
    return this.historyStartRv;
  }

  get compactedResourceVersion(): number {
    return this.compactedRv;
  }

  /**
   * A write elsewhere in the cluster (a node's Lease renewal, a leader election) moves etcd's revision
   * without touching any object we serve: no event, but older revisions can now be compacted away.
   */
  advanceRevision() {
    this.rv++;
  }

  /** Forget history up to `rv` (default: now): older continue tokens and Exact lists get 410. */
  compact(rv = this.rv) {
    this.compactedRv = Math.min(rv, this.rv);
    for (const key of this.snapshots.keys()) {
      if (Number(key.split("|")[0]) < this.compactedRv) this.snapshots.delete(key);
    }
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private table(type: ResourceType): ResourceTable {
    const key = resourceKey(type);
    let table = this.tables.get(key);
    if (!table) {
      table = { type, entries: new Map() };
      this.tables.set(key, table);
    }
    return table;
  }

  private cache(resource: string): WatchCache {
    let cache = this.caches.get(resource);
    if (!cache) {
      cache = { events: [], validFrom: this.cacheStartRv, lastEventRv: 0 };
      this.caches.set(resource, cache);
    }
    return cache;
  }

  private emit(event: StoreEvent) {
    this.history.push(event);
    if (this.history.length > WATCH_HISTORY) {
      const dropped = this.history.splice(0, this.history.length - WATCH_HISTORY);
      this.historyStartRv = dropped[dropped.length - 1].version.rv;
    }
    if (hasWatchCache(event.resource)) {
      const cache = this.cache(event.resource);
      cache.events.push(event);
      cache.lastEventRv = event.version.rv;
      if (cache.events.length > this.watchCacheSize) {
        cache.events.splice(0, cache.events.length - this.watchCacheSize);
        cache.validFrom = cache.events[0].version.rv - 1;
      }
    }
    for (const listener of this.listeners) listener(event);
  }

  /**
   * Changes after `rv` for one resource, or the 410 kube-apiserver answers when it cannot replay them: from
   * the watch cache (every resource but Events) "too old resource version: RV (OLDEST)", from etcd (Events)
   * "The resourceVersion for the provided watch is too old." once compaction passed `rv`. An RV etcd
   * compacted but the watch cache still holds is replayed, as on a real server.
   */
  eventsSince(rv: number, resource: string): StoreEvent[] {
    if (!hasWatchCache(resource)) {
      if (rv < this.compactedRv || rv < this.historyStartRv) {
        throw new KubeError(410, "Expired", "The resourceVersion for the provided watch is too old.");
      }
      return this.history.filter((event) => event.version.rv > rv && event.resource === resource);
    }
    const cache = this.cache(resource);
    if (rv < cache.validFrom) throw new KubeError(410, "Expired", `too old resource version: ${rv} (${cache.validFrom})`);
    return cache.events.filter((event) => event.version.rv > rv);
  }

  /** The resourceVersion of a bookmark for `resource`: its last change since the cache started, or null (no bookmark). */
  bookmarkRv(resource: string): number | null {
    if (!hasWatchCache(resource)) return null;
    return this.caches.get(resource)?.lastEventRv || null;
  }

  /**
   * What an API server restart does to watchers: every watch cache starts over from a fresh list at the
   * current revision, so resuming from an older resourceVersion answers "too old", and no bookmark is sent
   * for a resource until it changes again. etcd (Events, lists) is unaffected.
   */
  restartWatchCache() {
    this.cacheStartRv = this.rv;
    this.caches.clear();
  }

  // --- building objects ------------------------------------------------------------------------------

  private render(entry: Entry, base: KubeObject, rv: number): ObjectVersion {
    const overlay = entry.overlay !== undefined && entry.type.overlayFor ? entry.type.overlayFor(base, entry.overlay) : entry.overlay;
    const object = (overlay === undefined ? { ...base } : applyMergePatch(base, overlay)) as KubeObject;
    const metadata = { ...object.metadata };
    entry.filledUid = metadata.uid === undefined;
    entry.filledCreationTimestamp = metadata.creationTimestamp === undefined;
    metadata.uid ??= deterministicUid(`${this.clusterName}/${resourceKey(entry.type)}/${entry.key}`);
    metadata.creationTimestamp ??= new Date(entry.firstSeen).toISOString().replace(/\.\d{3}Z$/, "Z");
    if (entry.generationBump > 0) metadata.generation = (base.metadata.generation ?? 1) + entry.generationBump;
    metadata.resourceVersion = String(rv);
    object.metadata = metadata;
    if (entry.handledReconcileAt !== undefined || entry.handledGeneration !== undefined) {
      object.status = controllerStatus(object.status, entry);
    }
    if (entry.churn) object.status = applyChurnMark(object, entry.churn);
    if (entry.routine) object.status = applyRoutineMark(object, entry.routine);
    if (entry.kubeletReport) object.status = applyKubeletReport(object, entry.kubeletReport);
    metadata.managedFields = orderedEntries(managedFieldsOf(object, entry.type.hasStatus), isBuiltInApiVersion(object.apiVersion));
    return new ObjectVersion(entry.key, metadata.namespace, metadata.name, rv, escapeLikeGo(JSON.stringify(object)), metadata.labels);
  }

  /** The base object of an entry (see Entry.baseJson). */
  private baseOf(entry: Entry): KubeObject {
    if (entry.baseJson !== undefined) return JSON.parse(entry.baseJson) as KubeObject;
    const object = entry.current.object;
    delete object.metadata.resourceVersion;
    delete object.metadata.managedFields;
    if (entry.filledUid) delete object.metadata.uid;
    if (entry.filledCreationTimestamp) delete object.metadata.creationTimestamp;
    return object;
  }

  /** Before the served object starts to differ from its base, remember the base. */
  private keepBase(entry: Entry) {
    if (entry.baseJson === undefined) entry.baseJson = JSON.stringify(this.baseOf(entry));
  }

  /** Re-renders an entry; bumps the resourceVersion and emits an event only when the object changed. */
  private refresh(entry: Entry, table: ResourceTable, type: WatchEventType, base: KubeObject = this.baseOf(entry)): WriteResult {
    const before = entry.current as ObjectVersion | undefined;
    if (before && type !== "ADDED") {
      const same = this.render(entry, base, before.rv);
      if (same.json === before.json) return { version: before, changed: false, before };
    }
    return this.commit(entry, table, type, this.render(entry, base, ++this.rv), before);
  }

  private commit(
    entry: Entry,
    table: ResourceTable,
    type: WatchEventType,
    version: ObjectVersion,
    before: ObjectVersion | undefined,
  ): WriteResult {
    entry.current = version;
    table.sorted = undefined;
    this.emit({ type, resource: resourceKey(entry.type), version, previous: before });
    return { version, changed: true, before };
  }

  private removeEntry(table: ResourceTable, entry: Entry) {
    table.entries.delete(entry.key);
    table.sorted = undefined;
    this.emit({
      type: "DELETED",
      resource: resourceKey(entry.type),
      version: withRevision(entry.current, ++this.rv),
      previous: entry.current,
    });
  }

  // --- model sync ------------------------------------------------------------------------------------

  /** Makes the store hold what the model says (plus client overlays). Returns how many objects changed. */
  sync(objects: KubeObject[], now: number): number {
    let changes = 0;
    const seen = new Set<string>();
    for (const object of objects) {
      if (typeof object?.apiVersion !== "string" || typeof object.kind !== "string" || typeof object.metadata?.name !== "string") {
        throw new Error(`cluster ${this.clusterName}: the model returned an object without apiVersion, kind or metadata.name`);
      }
      const type = this.registry.typeFor(object);
      const table = this.table(type);
      const key = objectKey(type.namespaced ? object.metadata.namespace : undefined, object.metadata.name);
      const fullKey = `${resourceKey(type)}|${key}`;
      seen.add(fullKey);
      if (this.deletedByClient.has(fullKey)) continue;
      const entry = table.entries.get(key);
      if (entry) {
        entry.fromModel = true;
        if (entry.baseJson !== undefined) entry.baseJson = JSON.stringify(object);
        if (this.refresh(entry, table, "MODIFIED", object).changed) changes++;
      } else {
        const created: Entry = {
          type,
          key,
          fromModel: true,
          generationBump: 0,
          firstSeen: now,
          filledUid: false,
          filledCreationTimestamp: false,
          current: undefined as unknown as ObjectVersion,
        };
        table.entries.set(key, created);
        this.refresh(created, table, "ADDED", object);
        changes++;
      }
    }
    for (const table of this.tables.values()) {
      for (const entry of [...table.entries.values()]) {
        if (entry.fromModel && !seen.has(`${resourceKey(table.type)}|${entry.key}`)) {
          this.removeEntry(table, entry);
          changes++;
        }
      }
    }
    return changes;
  }

  // --- reads ---------------------------------------------------------------------------------------

  get(type: ResourceType, namespace: string | undefined, name: string): ObjectVersion {
    const entry = this.table(type).entries.get(objectKey(type.namespaced ? namespace : undefined, name));
    if (!entry) throw notFound(type, name);
    return entry.current;
  }

  private sortedVersions(type: ResourceType): ObjectVersion[] {
    const table = this.table(type);
    if (!table.sorted) {
      table.sorted = [...table.entries.values()].map((entry) => entry.current);
      table.sorted.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    }
    return table.sorted;
  }

  list(type: ResourceType, options: ListOptions): ListResult {
    const { limit, continueToken, resourceVersion, resourceVersionMatch } = options;
    if (resourceVersionMatch && !resourceVersion) {
      throw new KubeError(
        422,
        "Invalid",
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        {
          group: "meta.k8s.io",
          kind: "ListOptions",
          causes: [
            {
              reason: "FieldValueForbidden",
              message: "Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
              field: "resourceVersionMatch",
            },
          ],
        },
      );
    }
    if (resourceVersionMatch && resourceVersionMatch !== "Exact" && resourceVersionMatch !== "NotOlderThan") {
      throw badRequest(`resourceVersionMatch: Unsupported value: "${resourceVersionMatch}": supported values: "Exact", "NotOlderThan"`);
    }
    if (continueToken && resourceVersion && resourceVersion !== "0") {
      throw badRequest("specifying resource version is not allowed when using continue");
    }

    let rv = this.rv;
    let source = this.sortedVersions(type);
    let start = "";
    let paginate = limit !== undefined && limit > 0;

    if (continueToken) {
      const token = decodeContinue(continueToken);
      start = token.start.replace(/\u0000$/, "");
      if (token.rv >= 0 && token.rv < this.compactedRv) throw continueTooOld(encodeContinue(-1, token.start));
      if (token.rv >= 0) {
        rv = token.rv;
        source = this.snapshots.get(`${rv}|${resourceKey(type)}`) ?? source;
      }
    } else if (resourceVersion !== undefined && resourceVersion !== "") {
      const requested = Number(resourceVersion);
      if (!Number.isInteger(requested) || requested < 0) {
        throw badRequest(`invalid resource version: ${resourceVersion}`);
      }
      if (requested === 0) {
        paginate = false; // served from the watch cache, which ignores limit
      } else {
        if (requested > this.rv) throw resourceVersionTooLarge(requested, this.rv);
        const exact = resourceVersionMatch === "Exact" || (!resourceVersionMatch && paginate);
        if (exact) {
          if (requested < this.compactedRv) throw listTooOld();
          source = this.snapshots.get(`${requested}|${resourceKey(type)}`) ?? this.stateAt(requested, type);
          rv = requested;
        }
      }
    }

    const namespace = type.namespaced ? options.namespace : undefined;
    const filtered = options.labelSelector.length > 0 || options.fieldSelector.length > 0;
    const matches = (version: ObjectVersion) =>
      (namespace === undefined || version.namespace === namespace) &&
      (options.labelSelector.length === 0 || matchesLabels(options.labelSelector, version.labels)) &&
      (options.fieldSelector.length === 0 || matchesFields(options.fieldSelector, version.object));

    const items: ObjectVersion[] = [];
    let index = 0;
    if (start) {
      // Binary search for the first key after `start`.
      let low = 0;
      let high = source.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (source[middle].key <= start) low = middle + 1;
        else high = middle;
      }
      index = low;
    }
    let continueFrom: string | undefined;
    for (; index < source.length; index++) {
      const version = source[index];
      if (!matches(version)) continue;
      if (paginate && items.length === limit) {
        continueFrom = items[items.length - 1].key;
        break;
      }
      items.push(version);
    }

    if (continueFrom === undefined) return { items, resourceVersion: rv, continueToken: "" };
    this.keepSnapshot(rv, type, source);
    let remaining: number | undefined;
    if (!filtered) {
      remaining = 0;
      for (let rest = index; rest < source.length; rest++) if (matches(source[rest])) remaining++;
    }
    return { items, resourceVersion: rv, continueToken: encodeContinue(rv, `${continueFrom}\u0000`), remainingItemCount: remaining };
  }

  /** A resource's objects as they were at `rv`, rebuilt by undoing the watch history after it. */
  private stateAt(rv: number, type: ResourceType): ObjectVersion[] {
    if (rv >= this.rv) return this.sortedVersions(type);
    if (rv < this.historyStartRv) throw listTooOld();
    const resource = resourceKey(type);
    const state = new Map(this.sortedVersions(type).map((version) => [version.key, version]));
    for (let index = this.history.length - 1; index >= 0 && this.history[index].version.rv > rv; index--) {
      const event = this.history[index];
      if (event.resource !== resource) continue;
      if (event.type === "ADDED" || !event.previous) state.delete(event.version.key);
      else state.set(event.version.key, event.previous);
    }
    return [...state.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private keepSnapshot(rv: number, type: ResourceType, source: ObjectVersion[]) {
    const key = `${rv}|${resourceKey(type)}`;
    if (this.snapshots.has(key)) return;
    this.snapshots.set(key, source);
    if (this.snapshots.size > MAX_SNAPSHOTS) this.snapshots.delete(this.snapshots.keys().next().value as string);
  }

  // --- writes --------------------------------------------------------------------------------------

  /**
   * Applies a client write to one object. `mutate` gets a copy of the current object and returns the
   * desired one; only the parts a client may change through this endpoint are kept.
   */
  write(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    subresource: "status" | undefined,
    mutate: (current: KubeObject) => KubeObject,
    options: { requireResourceVersion?: boolean } = {},
  ): WriteResult {
    const table = this.table(type);
    const key = objectKey(type.namespaced ? namespace : undefined, name);
    const entry = table.entries.get(key);
    if (!entry) throw notFound(type, name);
    const current = entry.current.object;
    const desired = mutate(structuredClone(current));
    if (!desired || typeof desired !== "object" || Array.isArray(desired)) throw badRequest("the object is not a JSON object");
    const desiredMeta = (desired.metadata ?? {}) as KubeObject["metadata"];

    const requestedRv = desiredMeta.resourceVersion;
    if (requestedRv !== undefined && requestedRv !== "" && requestedRv !== current.metadata.resourceVersion) {
      throw conflict(type, name);
    }
    if (options.requireResourceVersion && !requestedRv) {
      throw invalid(type, name, [
        { reason: "FieldValueInvalid", message: "Invalid value: 0x0: must be specified for an update", field: "metadata.resourceVersion" },
      ]);
    }
    if (desiredMeta.name !== undefined && desiredMeta.name !== name) {
      throw badRequest(`the name of the object (${String(desiredMeta.name)}) does not match the name on the URL (${name})`);
    }

    const causes = validate(type, desired);
    if (causes.length) throw invalid(type, name, causes);
    const crd = crdSchemaFor(groupVersionOf(type), type.kind);
    const stored = crd ? pruneUnknown(crd, desired) : desired;

    const editable = (object: KubeObject) => editableParts(object, type, subresource);
    const delta = diffAsMergePatch(editable(current), editable(stored));
    if (delta === undefined) return { version: entry.current, changed: false, before: entry.current };
    // The generation moves with the spec; without a status subresource, with anything but metadata (Argo CD's
    // Application: every status or operation write bumps it, as on a real server).
    const specChanged =
      subresource === undefined &&
      type.group !== "" &&
      (type.hasStatus
        ? JSON.stringify(current.spec) !== JSON.stringify(stored.spec)
        : JSON.stringify(withoutMeta(current)) !== JSON.stringify(withoutMeta(stored)));
    this.keepBase(entry);
    entry.overlay = entry.overlay === undefined ? delta : composeMergePatches(entry.overlay, delta);
    if (specChanged) entry.generationBump++;
    return this.refresh(entry, table, "MODIFIED");
  }

  create(type: ResourceType, namespace: string | undefined, created: KubeObject, now: number): ObjectVersion {
    const crd = created?.metadata ? crdSchemaFor(groupVersionOf(type), type.kind) : undefined;
    const object = crd ? pruneUnknown(crd, created) : created;
    const name = object?.metadata?.name;
    const causes = validate(type, object);
    if (!name)
      causes.unshift({ reason: "FieldValueRequired", message: "Required value: name or generateName is required", field: "metadata.name" });
    if (causes.length) throw invalid(type, name ?? "", causes);
    const table = this.table(type);
    const key = objectKey(type.namespaced ? namespace : undefined, name);
    if (table.entries.has(key)) throw alreadyExists(type, name);
    this.deletedByClient.delete(`${resourceKey(type)}|${key}`);
    const { resourceVersion: _ignored, ...metadata } = object.metadata;
    const base: KubeObject = {
      ...object,
      metadata: { ...metadata, ...(type.namespaced ? { namespace } : {}), generation: 1 },
    };
    const entry: Entry = {
      type,
      key,
      baseJson: JSON.stringify(base),
      fromModel: false,
      generationBump: 0,
      firstSeen: now,
      filledUid: false,
      filledCreationTimestamp: false,
      current: undefined as unknown as ObjectVersion,
    };
    table.entries.set(key, entry);
    return this.refresh(entry, table, "ADDED", base).version;
  }

  delete(type: ResourceType, namespace: string | undefined, name: string): ObjectVersion {
    const table = this.table(type);
    const key = objectKey(type.namespaced ? namespace : undefined, name);
    const entry = table.entries.get(key);
    if (!entry) throw notFound(type, name);
    if (entry.fromModel) this.deletedByClient.add(`${resourceKey(type)}|${key}`);
    const last = entry.current;
    this.removeEntry(table, entry);
    return last;
  }

  /** The simulated Flux controller's reaction: records what it handled and re-renders. */
  markHandled(type: ResourceType, namespace: string | undefined, name: string, handled: { reconcileAt?: string; generation?: number }) {
    const table = this.table(type);
    const entry = table.entries.get(objectKey(type.namespaced ? namespace : undefined, name));
    if (!entry) return;
    this.keepBase(entry);
    if (handled.reconcileAt !== undefined) entry.handledReconcileAt = handled.reconcileAt;
    if (handled.generation !== undefined) entry.handledGeneration = handled.generation;
    this.refresh(entry, table, "MODIFIED");
  }

  /** The churn knob's change to one object: a new mark (absolute fields, so re-renders keep it), one MODIFIED event. */
  churn(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    markFor: (previous: ChurnMark | undefined) => ChurnMark,
  ): WriteResult & { mark: ChurnMark } {
    const table = this.table(type);
    const entry = table.entries.get(objectKey(type.namespaced ? namespace : undefined, name));
    if (!entry) throw notFound(type, name);
    const mark = markFor(entry.churn);
    entry.churn = mark;
    // A churn change is a reconcile's result: any routine pass in progress is over.
    entry.routine = undefined;
    return { ...this.refresh(entry, table, "MODIFIED"), mark };
  }

  /** One step of a routine reconcile (see reconciles.ts): a new mark, one MODIFIED event when the object changed. */
  routine(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    markFor: (previous: RoutineMark | undefined) => RoutineMark,
  ): WriteResult {
    const table = this.table(type);
    const entry = table.entries.get(objectKey(type.namespaced ? namespace : undefined, name));
    if (!entry) throw notFound(type, name);
    // Marks are applied over the base as it was before the first pass (history counts add up from it).
    this.keepBase(entry);
    entry.routine = markFor(entry.routine);
    return this.refresh(entry, table, "MODIFIED");
  }

  /** A kubelet's periodic status report on its Node (see kubelets.ts): one MODIFIED event when it moved a heartbeat. */
  kubeletReport(type: ResourceType, name: string, at: string): WriteResult | undefined {
    const table = this.table(type);
    const entry = table.entries.get(objectKey(undefined, name));
    if (!entry) return undefined;
    this.keepBase(entry);
    entry.kubeletReport = at;
    return this.refresh(entry, table, "MODIFIED");
  }

  routineMark(type: ResourceType, namespace: string | undefined, name: string): RoutineMark | undefined {
    return this.table(type).entries.get(objectKey(type.namespaced ? namespace : undefined, name))?.routine;
  }

  /** The served object, or undefined when there is none. */
  find(type: ResourceType, namespace: string | undefined, name: string): ObjectVersion | undefined {
    return this.table(type).entries.get(objectKey(type.namespaced ? namespace : undefined, name))?.current;
  }

  /** Current objects of the given kinds, resource by resource in key order (the churn knob's candidates). */
  versionsOfKinds(kinds: ReadonlySet<string>): { type: ResourceType; version: ObjectVersion }[] {
    const out: { type: ResourceType; version: ObjectVersion }[] = [];
    const tables = [...this.tables.entries()].filter(([, table]) => kinds.has(table.type.kind)).sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [, table] of tables) for (const version of this.sortedVersions(table.type)) out.push({ type: table.type, version });
    return out;
  }

  counts(): { objects: number; resourceVersion: number } {
    let objects = 0;
    for (const table of this.tables.values()) objects += table.entries.size;
    return { objects, resourceVersion: this.rv };
  }
}

/** The same object at another resourceVersion (a deletion carries the revision that deleted it). */
function withRevision(version: ObjectVersion, rv: number): ObjectVersion {
  const object = version.object;
  object.metadata.resourceVersion = String(rv);
  return new ObjectVersion(version.key, version.namespace, version.name, rv, escapeLikeGo(JSON.stringify(object)), version.labels);
}

function withoutMeta(object: KubeObject): Record<string, unknown> {
  const { metadata: _metadata, apiVersion: _apiVersion, kind: _kind, ...rest } = object;
  return rest;
}

/** What a write may change: everything but status on the main resource; only status on /status. */
function editableParts(object: KubeObject, type: ResourceType, subresource: "status" | undefined): Record<string, unknown> {
  const { metadata, status, apiVersion: _apiVersion, kind: _kind, ...rest } = object;
  if (subresource === "status") return { status };
  const parts: Record<string, unknown> = {
    ...rest,
    metadata: { labels: metadata?.labels, annotations: metadata?.annotations, finalizers: metadata?.finalizers },
  };
  if (!type.hasStatus) parts.status = status;
  return parts;
}

/** Status as the Flux controller would have written it after handling a request or a new generation. */
function controllerStatus(status: unknown, entry: Entry): Record<string, unknown> {
  const next: Record<string, unknown> = { ...((status as Record<string, unknown>) ?? {}) };
  if (entry.handledReconcileAt !== undefined) next.lastHandledReconcileAt = entry.handledReconcileAt;
  if (entry.handledGeneration !== undefined) {
    next.observedGeneration = entry.handledGeneration;
    if (Array.isArray(next.conditions)) {
      next.conditions = next.conditions.map((condition: Record<string, unknown>) =>
        "observedGeneration" in condition ? { ...condition, observedGeneration: entry.handledGeneration } : condition,
      );
    }
  }
  return next;
}

const DURATION = /^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$/;

/** The schema checks that matter for what clients send: metadata maps of strings, a few Flux fields. */
export function validate(type: ResourceType, object: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const typeError = (field: string, value: unknown, expected: string) => {
    const shown = value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value;
    causes.push({
      reason: "FieldValueTypeInvalid",
      message: `Invalid value: "${shown}": ${field} in body must be of type ${expected}: "${shown}"`,
      field,
    });
  };
  const metadata = object?.metadata as Record<string, unknown> | undefined;
  for (const mapName of ["labels", "annotations"] as const) {
    const map = metadata?.[mapName];
    if (map === undefined || map === null) continue;
    if (typeof map !== "object" || Array.isArray(map)) {
      typeError(`metadata.${mapName}`, map, "object");
      continue;
    }
    for (const [key, value] of Object.entries(map)) {
      if (typeof value !== "string") typeError(`metadata.${mapName}.${key}`, value, "string");
    }
  }
  const crd = crdSchemaFor(groupVersionOf(type), type.kind);
  if (crd) causes.push(...checkAgainstCrd(crd, object as Record<string, unknown>).causes);
  if (!isFluxGroup(type.group)) return causes;
  const spec = object.spec as Record<string, unknown> | undefined;
  if (spec === undefined || spec === null || typeof spec !== "object") {
    causes.push({ reason: "FieldValueRequired", message: "Required value", field: "spec" });
    return causes;
  }
  if ("suspend" in spec && typeof spec.suspend !== "boolean") typeError("spec.suspend", spec.suspend, "boolean");
  for (const field of ["interval", "timeout", "retryInterval"]) {
    const value = spec[field];
    if (value === undefined) continue;
    if (typeof value !== "string") typeError(`spec.${field}`, value, "string");
    else if (!DURATION.test(value)) {
      causes.push({
        reason: "FieldValueInvalid",
        message: `Invalid value: "${value}": spec.${field} in body should match '^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$'`,
        field: `spec.${field}`,
      });
    }
  }
  if (type.kind === "Kustomization") {
    for (const field of ["interval", "prune", "sourceRef"]) {
      if (spec[field] === undefined) causes.push({ reason: "FieldValueRequired", message: "Required value", field: `spec.${field}` });
    }
    if ("prune" in spec && typeof spec.prune !== "boolean") typeError("spec.prune", spec.prune, "boolean");
  }
  if (type.kind === "HelmRelease" && spec.chart === undefined && spec.chartRef === undefined) {
    causes.push({ reason: "FieldValueInvalid", message: 'Invalid value: "object": either chart or chartRef must be set', field: "spec" });
  }
  return causes;
}
