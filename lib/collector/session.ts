// One leased cluster read by watching instead of polling: connect, LIST + WATCH every Flux kind, Nodes and
// Warning Events through the watch engine (one connection), and write what changed.
//
//   const session = new ClusterSession(cluster, context);
//   await session.start();   // listed once (the cold start's writes are one batch), then watching
//   session.mode;            // "watching", "fallback" (poll it instead: session.reason says why) or "failed"
//   await session.stop();    // a lost lease: streams closed at once, nothing more written
//
// Events on one object within FLUSH_MS are coalesced to its last state; each flush plans with the pure
// change planner (changes.ts) and writes objects and their history in one transaction, so a replay after a
// resume, a relist or a restart writes nothing. /version, the FluxReport and the EKS API stay periodic and are
// re-read at once when a node's kubelet version changes; they ride the watches' connection (one socket per
// cluster) and are read through the collector's facts queue, which holds them while a cold start lists the
// fleet: objects first, versions right after. The cluster records its own success on its own schedule (every
// heartbeat), never waiting for other clusters.
import type { KubeConfig } from "@kubernetes/client-node";
import type pg from "pg";
import type { ProvisionerRef } from "./events";
import { aboutProvisioner, keepFluxEvent, keepNodeEvent, pollEvents } from "./events";
import { applyPlan, changesWhatPagesShow, healthCounts, planWatchedChanges, showsOnPages, withSettledReady } from "./changes";
import { fluxVersionOf, pollKube, type ServedVersionsCache } from "./poll";
import type { Activity } from "./idle-reads";
import type { CollectorMetrics } from "./metrics";
import { objectTargets } from "./targets";
import type { KubeReader } from "../kube/client";
import { serverOf } from "../kube/connection";
import { servedVersion } from "../kube/crossplane";
import { ClusterRequestError } from "../kube/errors";
import { objectKey } from "../kube/flux";
import { COLLECTED_KINDS } from "../kube/kinds";
import { toKubeEvent } from "../kube/cluster-info";
import { kubeletVersionCounts, sameNodeRecord, toNodeRecord } from "../kube/nodes";
import { kustomizationName, substitutionNeeds, type SubstitutionNeeds } from "../kube/substitutions";
import { isRaw, str } from "../kube/raw";
import type { CollectedKind, FluxObjectRecord, KubeEventRecord, NodeRecord } from "../kube/types";
import {
  ClusterTransport,
  createWatchEngine,
  transportOptions,
  transportReader,
  type Verdict,
  type WatchEngine,
  type WatchEvent,
} from "../kube/watch/engine";
import { clusterWatchResources } from "../kube/watch/resources";
import { repeatEvery } from "../kube/watch/sweeper";
import type { KnownObject, KubePollResult } from "../db/types";
import {
  kubeVersionChanges,
  recordPollFailure,
  recordVersionsWithChanges,
  versionsDiffer,
  type ClusterRow,
  type PollSuccess,
} from "../db/writes/clusters";
import { eventSignature, upsertEvents } from "../db/writes/events";
import { writeObjectPlan, writeObjectTargets } from "../db/writes/flux-objects";
import { upsertNodes } from "../db/writes/nodes";
import { oneLine } from "../errors";
import type { Logger } from "../logger";

/** What the collector keeps per leased cluster, whichever way it is read. */
export interface ClusterState {
  known: Map<string, KnownObject>;
  /** Kept Event uid → signature of what was written. */
  events: Map<string, string>;
}

export interface SessionContext {
  db: pg.Pool;
  log: Logger;
  metrics?: CollectorMetrics;
  versions: ServedVersionsCache;
  /** The cluster's stored state (loaded once per lease, shared with polling). */
  state(cluster: ClusterRow): Promise<ClusterState>;
  kubeConfig(cluster: ClusterRow): Promise<KubeConfig>;
  /** Counts a request sent (metrics, the cycle's summary). */
  onRequest(): void;
  /** Runs a facts read when the collector's facts queue lets it (bounded; held while a cold start lists the fleet). */
  facts(read: () => Promise<void>): Promise<void>;
  /** Counts a facts read (for the benchmark). */
  factsRead?(): void;
  /** On the hub: the Crossplane resources that provision spokes. */
  provisioners(): readonly ProvisionerRef[];
  /** Hub secret → the cluster it reaches. */
  clustersBySecret(): Map<string, number>;
  /** EKS snapshot when due (or at once with `force`). */
  pollEks(cluster: ClusterRow, at: Date, force: boolean): Promise<number>;
  /** Queues this cluster's success (written within a second, batched with others). */
  recordSuccess(success: PollSuccess): void;
  /** Something of this cluster a page shows was written: the web is told (NOTIFY, at most once a second). */
  changed(cluster: ClusterRow): void;
  /** Watching keeps failing: the collector polls the cluster from now on. */
  onFallback(cluster: ClusterRow, reason: string): void;
  /** Told of requests in flight and of news, for the collector's naps while idle (idle-reads.ts). */
  activity?: Activity;
  settings: {
    heartbeatMs: number;
    factsIntervalMs: number;
    eksIntervalMs: number;
    requestTimeoutMs: number;
    relistIntervalMs?: number;
    pageSize?: number;
    flushMs?: number;
  };
}

export type SessionMode = "starting" | "watching" | "fallback" | "failed" | "stopped";

/** Events on one object within this window become one write. */
export const FLUSH_MS = 200;
/**
 * Changes no page lists (a routine reconcile's steps: conditions in progress, a new last reconcile time) wait
 * up to this long from the first of them, so that a pass of four or five status writes becomes one row write.
 * Anything a page shows that arrives meanwhile is written with them within FLUSH_MS.
 */
export const ROUTINE_FLUSH_MS = 5_000;
/** Normal Events of objects that just changed are read at most this often (they are not watched). */
const EVENT_POLL_MIN_MS = 5_000;
/** A watched cluster's success row carries its facts at least this often, changed or not. */
const FULL_SUCCESS_EVERY_MS = 10 * 60_000;
/** Flux's and Argo CD's kinds, as the poll collects them. */
const KINDS = new Map(COLLECTED_KINDS.map((k) => [k.kind as string, k]));

export class ClusterSession {
  mode: SessionMode = "starting";
  /** Why this cluster is polled instead (engine verdict), or why the session failed. */
  reason: string | null = null;
  private engine?: WatchEngine;
  private client?: KubeReader;
  private state?: ClusterState;
  private stopped = false;
  private started = false;
  private firstPoll = false;
  /** Latest state per object key since the last flush; null = deleted. */
  private pending = new Map<string, FluxObjectRecord | null>();
  private pendingEvents = new Map<string, KubeEventRecord>();
  /** What the cluster page shows of each node (not the Node object: a real one carries kilobytes of images and managed fields). */
  private nodes = new Map<string, NodeRecord>();
  private nodesDirty = false;
  /** Kustomizations (only what substitution sources need) for the facts read. */
  /** What each Kustomization substitutes from, for those that substitute anything (most do not). */
  private substitutions = new Map<string, SubstitutionNeeds>(); // by the Kustomization's "namespace/name"
  /** On the hub: objects with spec.kubeConfig (they apply to another cluster). */
  private targets = new Map<string, FluxObjectRecord>();
  /** How long the last facts read (or, before it, the discovery GET) took: a watched cluster's latency; null until timed. */
  private latencyMs: number | null = null;
  private targetsDirty = false;
  private flushTimer?: NodeJS.Timeout;
  /** When the flush timer fires (epoch ms), and when the oldest change still pending arrived (0: none). */
  private flushDueAt = 0;
  private pendingSince = 0;
  /** Something pending may show on a page: flush within FLUSH_MS, not ROUTINE_FLUSH_MS. */
  private pendingVisible = false;
  private chain: Promise<void> = Promise.resolve();
  /** Stops of the periodic heartbeat and reads (shared timers: see repeatEvery). */
  private timers: Array<() => void> = [];
  /** Something the success row carries (facts, object and health counts, kubelets) changed since it was last sent. */
  private successChanged = true;
  private fullSuccessAt = 0;
  private lastEventPoll = 0;
  private eventPollTimer?: NodeJS.Timeout;
  private facts: Pick<KubePollResult, "kubernetesVersion" | "fluxVersion" | "fluxReport" | "substitutions"> | null = null;
  private kubelets: Record<string, number> | null = null;
  private transport?: ClusterTransport;
  private readonly log: Logger;

  constructor(
    readonly cluster: ClusterRow,
    private readonly ctx: SessionContext,
  ) {
    this.log = ctx.log.child({ cluster: cluster.name, session: "watch" });
  }

  /** Connects, lists and starts watching; resolves once every resource listed once (or failed to). */
  async start(): Promise<void> {
    const started = Date.now();
    const at = new Date();
    try {
      this.state = await this.ctx.state(this.cluster);
      this.firstPoll = this.state.known.size === 0 && !this.cluster.lastSuccessAt;
      const kubeConfig = await this.ctx.kubeConfig(this.cluster);
      const engineOptions = { requestTimeoutMs: this.ctx.settings.requestTimeoutMs, activity: this.ctx.activity };
      // One connection for everything: discovery and facts GETs ride the watches' connection.
      const transport = new ClusterTransport(kubeConfig, transportOptions(engineOptions));
      this.transport = transport;
      this.client = transportReader(transport, serverOf(kubeConfig), { onRequest: () => this.ctx.onRequest() });
      const asked = Date.now();
      const served = await this.ctx.versions.get(this.cluster.name, this.client);
      if (this.client.requests) this.latencyMs = Date.now() - asked;
      const versions: Partial<Record<CollectedKind, string>> = {};
      for (const k of COLLECTED_KINDS) versions[k.kind] = servedVersion(served, k.group, k.versions) ?? undefined;
      const resources = clusterWatchResources(versions).map((r) => ({
        ...r,
        id: r.kind,
        // What we stored: the first list reports every object (the hash decides what is written) and the
        // ones deleted while nobody watched.
        known: KINDS.has(r.kind) ? this.storedKeys(r.kind) : undefined,
      }));
      if (this.stopped) {
        transport.close();
        return;
      }
      this.engine = createWatchEngine({
        cluster: this.cluster.name,
        kubeConfig,
        transport,
        resources,
        onEvent: (event) => this.onEvent(event),
        onFallback: (verdict) => this.fallBack(verdict),
        ...engineOptions,
        relistIntervalMs: this.ctx.settings.relistIntervalMs,
        pageSize: this.ctx.settings.pageSize,
      });
      await this.engine.start();
      if (this.stopped || this.mode === "fallback") return;
      const failing = this.failingResource();
      if (failing) {
        // Nothing to watch from (expired token, unreachable): recorded like a failed poll; the collector
        // starts a new session next cycle.
        await this.fail(failing, at, Date.now() - started);
        return;
      }
      this.mode = "watching";
      this.started = true;
      await this.enqueue(() => this.flush());
      this.heartbeat();
      void this.queueFacts(false);
      this.timers.push(repeatEvery(this.ctx.settings.heartbeatMs, () => this.heartbeat()));
      this.timers.push(repeatEvery(this.ctx.settings.factsIntervalMs, () => void this.queueFacts(false)));
      this.timers.push(repeatEvery(this.ctx.settings.eksIntervalMs, () => void this.ctx.facts(() => this.enqueue(() => this.readEks()))));
    } catch (err) {
      if (this.stopped) return;
      const e = err instanceof ClusterRequestError ? err : new ClusterRequestError(oneLine(err), "other");
      await this.disconnect();
      await this.fail({ message: e.message, kind: e.kind }, at, Date.now() - started);
    }
  }

  /** Stops at once (a lost lease: nothing pending is written). With `flush`, pending changes are written first (shutdown). */
  async stop(options: { flush?: boolean } = {}): Promise<void> {
    if (options.flush && this.started && !this.stopped) await this.enqueue(() => this.flush(true));
    this.stopped = true;
    if (this.mode !== "fallback") this.mode = "stopped";
    for (const stop of this.timers.splice(0)) stop();
    clearTimeout(this.flushTimer);
    clearTimeout(this.eventPollTimer);
    await this.disconnect();
    await this.chain;
  }

  /** Closes the cluster's connection: through the engine once it runs (it owns the transport then). */
  private async disconnect(): Promise<void> {
    if (this.engine) await this.engine.stop();
    else this.transport?.close();
  }

  /** Lists everything this session watches again now, as the periodic safety net does (the bench times it). */
  relist(): Promise<void> {
    return this.engine && this.mode === "watching" ? this.engine.relist() : Promise.resolve();
  }

  /** Sockets, requests and per-resource state of the engine (null before it started). */
  health() {
    return this.engine?.health() ?? null;
  }

  /** The watch connection's counters, without every resource's health (the bench reads them in its idle window). */
  connectionStats() {
    return this.engine?.connectionStats() ?? null;
  }

  private storedKeys(kind: string): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    for (const [key, k] of this.state!.known) {
      if (k.kind !== kind || k.deleted) continue;
      out.push([key.slice(kind.length + 1), ""]);
    }
    return out;
  }

  private onEvent(event: WatchEvent): void {
    if (this.stopped || event.type === "synced" || event.type === "relisted") return;
    const object = event.object;
    // Nodes, Events and deletions are news; an object's new state is when it changes what a page lists.
    let visible = true;
    if (event.resource === "Node") {
      const name = str(isRaw(object.metadata) ? object.metadata.name : undefined);
      if (!name) return;
      const record = event.type === "deleted" ? null : toNodeRecord(object);
      const known = this.nodes.get(name);
      // A kubelet's status report (every 5 minutes, heartbeats only) changes nothing we keep: no write, no flush.
      if (record && known && sameNodeRecord(known, record)) {
        this.ctx.metrics?.unchangedNodes.inc();
        return;
      }
      if (record) this.nodes.set(name, record);
      else this.nodes.delete(name);
      this.nodesDirty = true;
    } else if (event.resource === "Event") {
      if (event.type === "deleted") return; // an Event expiring in the cluster is kept here
      const e = toKubeEvent(object);
      if (e) this.pendingEvents.set(e.uid, e);
    } else if (KINDS.has(event.resource)) {
      const kind = event.resource as CollectedKind;
      if (event.type === "deleted") {
        const metadata = isRaw(object.metadata) ? object.metadata : {};
        const key = objectKey({ kind, namespace: str(metadata.namespace) ?? "", name: str(metadata.name) ?? "" });
        this.pending.set(key, null);
        if (kind === "Kustomization") this.substitutions.delete(kustomizationName(object));
        if (this.targets.delete(key)) this.targetsDirty = true;
      } else {
        const record = KINDS.get(kind)!.toRecord(object);
        const key = objectKey(record);
        this.pending.set(key, record);
        // Judged as the flush's plan will judge it: a retry or a pass without status.history keeps its settled verdict.
        const before = this.state?.known.get(key);
        visible = showsOnPages(withSettledReady(record, before), before, new Date());
        if (kind === "Kustomization") {
          const needs = substitutionNeeds(object);
          if (needs) this.substitutions.set(kustomizationName(object), needs);
          else this.substitutions.delete(kustomizationName(object));
        }
        if (this.cluster.role === "hub") this.noteTarget(key, record);
      }
    }
    if (visible) {
      this.pendingVisible = true;
      this.ctx.activity?.news();
    }
    this.scheduleFlush(this.pendingVisible ? undefined : this.routineDelay());
  }

  /** How long changes no page shows may still wait: ROUTINE_FLUSH_MS from the first of them still pending. */
  private routineDelay(): number {
    return Math.max(0, (this.pendingSince || Date.now()) + ROUTINE_FLUSH_MS - Date.now());
  }

  private noteTarget(key: string, record: FluxObjectRecord): void {
    const applies = objectTargets([record], this.ctx.clustersBySecret()).length > 0;
    if (applies) {
      this.targets.set(key, record);
      this.targetsDirty = true;
    } else if (this.targets.delete(key)) {
      this.targetsDirty = true;
    }
  }

  /** Flushes within `delayMs` (FLUSH_MS by default), or sooner if a flush is already due sooner. */
  private scheduleFlush(delayMs = this.ctx.settings.flushMs ?? FLUSH_MS): void {
    if (!this.started || this.stopped) return;
    this.pendingSince ||= Date.now();
    const due = Date.now() + delayMs;
    if (this.flushTimer && this.flushDueAt <= due) return;
    clearTimeout(this.flushTimer);
    this.flushDueAt = due;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.enqueue(() => this.flush());
    }, delayMs);
  }

  /** Runs writes one after the other; a failed one is logged (its changes stay pending for the next). */
  private enqueue(job: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(job).catch((err: unknown) => this.log.warn({ error: oneLine(err) }, "watch session write failed"));
    return this.chain;
  }

  /** Writes what is pending (`final`: all of it, even routine changes still within ROUTINE_FLUSH_MS). */
  private async flush(final = false): Promise<void> {
    if (this.stopped || !this.state) return;
    const at = new Date();
    await this.writeObjects(this.state, at, final);
    if (this.targetsDirty && this.cluster.role === "hub") {
      this.targetsDirty = false;
      await writeObjectTargets(this.ctx.db, this.cluster.id, objectTargets([...this.targets.values()], this.ctx.clustersBySecret()));
    }
    if (this.nodesDirty) await this.writeNodes(at);
    if (this.pendingEvents.size) await this.writeEvents([...this.pendingEvents.values()]);
  }

  /** The pending objects' plan, written with its history in one transaction (or, if routine, kept a while longer). */
  private async writeObjects(state: ClusterState, at: Date, final: boolean): Promise<void> {
    const pollTime = at.toISOString();
    const pending = this.pending;
    const pendingSince = this.pendingSince;
    this.pending = new Map();
    this.pendingSince = 0;
    this.pendingVisible = false;
    const changed: FluxObjectRecord[] = [];
    const deleted: string[] = [];
    for (const [key, record] of pending) {
      if (record) changed.push(record);
      else deleted.push(key);
    }
    try {
      const plan = planWatchedChanges(state.known, changed, deleted, pollTime, this.firstPoll);
      const visible = changesWhatPagesShow(plan, state.known, at);
      const waited = at.getTime() - pendingSince;
      if (!visible && !final && !this.firstPoll && plan.upserts.length && waited < ROUTINE_FLUSH_MS) {
        // A routine reconcile's steps: kept for one write at its end (newer states that arrived meanwhile win).
        for (const [key, record] of pending) if (!this.pending.has(key)) this.pending.set(key, record);
        this.pendingSince = pendingSince;
        this.scheduleFlush(ROUTINE_FLUSH_MS - waited);
        return;
      }
      const written = await writeObjectPlan(this.ctx.db, this.cluster.id, plan, state.known, pollTime);
      applyPlan(state.known, plan, written.ids);
      this.firstPoll = false;
      if (written.rowsWritten) this.ctx.metrics?.rowsWritten.inc({ table: "flux_object" }, written.rowsWritten - written.transitions);
      if (written.transitions) {
        this.ctx.metrics?.rowsWritten.inc({ table: "flux_object_transition" }, written.transitions);
        this.scheduleEventPoll();
      }
      if (written.rowsWritten) {
        this.successChanged = true;
        // A routine reconcile's rewrite is not worth a notification to every open page.
        if (visible) this.ctx.changed(this.cluster);
      }
    } catch (err) {
      // Not written: keep them for the next flush, unless a newer state arrived meanwhile.
      for (const [key, record] of pending) if (!this.pending.has(key)) this.pending.set(key, record);
      this.scheduleFlush();
      throw err;
    }
  }

  private async writeNodes(at: Date): Promise<void> {
    this.nodesDirty = false;
    const items = [...this.nodes.values()];
    if (await upsertNodes(this.ctx.db, this.cluster.id, at, items)) this.ctx.changed(this.cluster);
    const kubelets = kubeletVersionCounts(items);
    const before = this.kubelets;
    this.kubelets = kubelets;
    this.successChanged = true;
    const changes = kubeVersionChanges(this.cluster, this.result());
    if (changes.length || JSON.stringify(before) !== JSON.stringify(kubelets)) {
      await recordVersionsWithChanges(this.ctx.db, this.cluster.id, at, this.result(), changes);
      if (changes.length) this.ctx.changed(this.cluster);
      this.cluster.kubeletVersions = kubelets;
      // A kubelet moved: the control plane and EKS facts probably did too; read them now, not in minutes.
      if (before && changes.length) void this.queueFacts(true);
    }
  }

  private async writeEvents(events: KubeEventRecord[], all = false): Promise<void> {
    const state = this.state!;
    if (!all) this.pendingEvents.clear();
    const provisioners = this.cluster.role === "hub" ? this.ctx.provisioners() : [];
    const keep = events.filter((e) => {
      if (state.events.get(e.uid) === eventSignature(e)) return false;
      if (all) return true; // already chosen by pollEvents
      if (KINDS.has(e.involvedKind)) return keepFluxEvent(e, state.known.get(this.involvedKey(e)));
      if (e.involvedKind === "Node") return keepNodeEvent(e);
      return aboutProvisioner(e, provisioners);
    });
    if (!keep.length) return;
    const rows = keep.map((e) => ({ ...e, objectId: state.known.get(this.involvedKey(e))?.id ?? null }));
    const n = await upsertEvents(this.ctx.db, this.cluster.id, rows);
    if (n) this.ctx.changed(this.cluster);
    for (const e of keep) state.events.set(e.uid, eventSignature(e));
    this.ctx.metrics?.rowsWritten.inc({ table: "kube_event" }, n);
  }

  private involvedKey(e: KubeEventRecord): string {
    return objectKey({ kind: e.involvedKind, namespace: e.involvedNamespace, name: e.involvedName });
  }

  /** Normal Events are not watched (too many): read them for the objects in trouble after a change, as a poll would. */
  private scheduleEventPoll(): void {
    if (this.eventPollTimer || this.stopped) return;
    const wait = Math.max(0, this.lastEventPoll + EVENT_POLL_MIN_MS - Date.now());
    this.eventPollTimer = setTimeout(() => {
      this.eventPollTimer = undefined;
      this.lastEventPoll = Date.now();
      void this.enqueue(async () => {
        if (!this.client || this.stopped) return;
        const kept = await pollEvents(this.client, {
          known: this.state!.known,
          nodes: false,
          provisioners: this.cluster.role === "hub" ? this.ctx.provisioners() : [],
        });
        await this.writeEvents(kept.events, true);
      });
    }, wait);
  }

  /** A facts read through the collector's facts queue, then in this session's write order. */
  private queueFacts(force: boolean): Promise<void> {
    return this.ctx.facts(() => this.enqueue(() => this.readFacts(force)));
  }

  /** /version, FluxReport, Flux's namespace and substitution variables; then EKS (at once with `force`). */
  private async readFacts(force: boolean): Promise<void> {
    if (!this.client || this.stopped) return;
    this.ctx.factsRead?.();
    const at = new Date();
    const poll = await pollKube(this.cluster.name, this.client, this.ctx.versions, {
      clusterFacts: true,
      factsOnly: { substitutions: this.substitutions.entries() },
    });
    this.latencyMs = Date.now() - at.getTime();
    this.successChanged = true;
    this.facts = {
      kubernetesVersion: poll.kubernetesVersion ?? this.facts?.kubernetesVersion ?? null,
      fluxVersion: fluxVersionOf(poll.fluxReport, poll.fluxNamespaceVersion) ?? this.facts?.fluxVersion ?? null,
      fluxReport: poll.fluxReport ?? this.facts?.fluxReport ?? null,
      substitutions: poll.substitutions,
    };
    // Node Events that are not Warnings (NodeNotReady is Normal) and, on the hub, the provisioners' Events:
    // not watched, read on the facts cadence as a poll would.
    const kept = await pollEvents(this.client, {
      known: this.state!.known,
      nodes: true,
      provisioners: this.cluster.role === "hub" ? this.ctx.provisioners() : [],
    });
    await this.writeEvents(kept.events, true);
    if (this.kubelets === null && this.nodes.size) this.kubelets = kubeletVersionCounts([...this.nodes.values()]);
    const result = this.result();
    const changes = kubeVersionChanges(this.cluster, result);
    // The same versions as the row holds: nothing to write (a transaction per cluster every five minutes).
    if (changes.length || versionsDiffer(this.cluster, result))
      await recordVersionsWithChanges(this.ctx.db, this.cluster.id, at, result, changes);
    if (changes.length) this.ctx.changed(this.cluster);
    this.cluster.kubernetesVersion = this.facts.kubernetesVersion ?? this.cluster.kubernetesVersion;
    this.cluster.fluxVersion = this.facts.fluxVersion ?? this.cluster.fluxVersion;
    if (this.kubelets) this.cluster.kubeletVersions = this.kubelets;
    await this.readEks(force);
  }

  private async readEks(force = false): Promise<void> {
    if (this.stopped) return;
    await this.ctx
      .pollEks(this.cluster, new Date(), force)
      .catch((err: unknown) => this.log.warn({ error: oneLine(err) }, "EKS read failed"));
  }

  private result(): KubePollResult {
    const known = this.state?.known ?? new Map<string, KnownObject>();
    return {
      ok: true,
      latencyMs: this.latencyMs,
      requests: this.client?.requests ?? 0,
      objectCount: liveCount(known),
      kubernetesVersion: this.facts?.kubernetesVersion ?? null,
      kubeletVersions: this.kubelets,
      fluxVersion: this.facts?.fluxVersion ?? null,
      fluxReport: this.facts?.fluxReport ?? null,
      substitutions: this.facts?.substitutions ?? null,
      healthCounts: healthCounts(known),
    };
  }

  /** This cluster's own success (or failure) on its own schedule. */
  private heartbeat(): void {
    if (this.stopped || this.mode !== "watching") return;
    const failing = this.failingResource();
    if (failing) {
      void recordPollFailure(this.ctx.db, this.cluster.id, new Date(), failing, this.latencyMs).catch((err: unknown) =>
        this.log.warn({ error: oneLine(err) }, "could not record the failure"),
      );
      return;
    }
    // What the success row carries (facts, counts) is sent when it changed, and at least every ten minutes
    // (a write lost to a database outage is repaired); otherwise only the time: a thousand clusters a minute.
    const full = this.successChanged || Date.now() - this.fullSuccessAt >= FULL_SUCCESS_EVERY_MS;
    if (full) {
      this.successChanged = false;
      this.fullSuccessAt = Date.now();
    }
    this.ctx.recordSuccess({ clusterId: this.cluster.id, at: new Date(), poll: full ? this.result() : null });
  }

  /** A Flux resource that has not listed since it started failing, if any: the cluster is not readable now. */
  private failingResource(): { message: string; kind: string } | null {
    return this.engine?.listFailure((resource) => KINDS.has(resource)) ?? null;
  }

  private async fail(error: { message: string; kind: string }, at: Date, latencyMs: number | null): Promise<void> {
    this.mode = "failed";
    this.reason = error.message;
    this.stopped = true;
    for (const stop of this.timers.splice(0)) stop();
    await this.disconnect();
    this.ctx.metrics?.errors.inc({ cluster: this.cluster.name, kind: error.kind });
    this.log.warn({ kind: error.kind, error: error.message }, "cluster watch could not start");
    await recordPollFailure(this.ctx.db, this.cluster.id, at, error, latencyMs).then(
      () => this.ctx.changed(this.cluster),
      (err: unknown) => this.log.warn({ error: oneLine(err) }, "could not record the failure"),
    );
  }

  private fallBack(verdict: { resource: string } & Verdict): void {
    if (this.stopped) return;
    this.mode = "fallback";
    this.reason = `${verdict.reason}: ${verdict.detail}`;
    this.started = false;
    for (const stop of this.timers.splice(0)) stop();
    clearTimeout(this.flushTimer);
    // What the watch delivered before it gave up is still written; from now on the collector polls.
    void this.enqueue(() => this.flush()).then(() => this.ctx.onFallback(this.cluster, this.reason!));
  }
}

function liveCount(known: Map<string, KnownObject>): number {
  let n = 0;
  for (const k of known.values()) if (!k.deleted) n++;
  return n;
}
