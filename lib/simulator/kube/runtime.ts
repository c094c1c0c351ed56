// Runs the fleet: one API server and store per cluster, kept in step with the fleet model as simulated
// time passes, with a stand-in for the Flux controllers that reacts to reconcile requests and spec edits.
import { logger } from "../../logger";
import type { FleetModel, KubeObject, RuntimeInfo, SimCluster, TokenCheck } from "../contract";
import type { SimClock } from "../clock";
import type { ClusterCa } from "../tls";
import type { FaultSpec } from "./faults";
import { ResourceRegistry, type ResourceType } from "./registry";
import { KubeApiServer } from "./server";
import { ClusterStore, isFluxGroup, type ObjectVersion } from "./store";
import { argoControllerPatch, argoRequests, isArgoApplication } from "./argocd-controller";
import { applyMergePatch } from "./patch";
import { FleetChurn, type ChurnCluster } from "./churn";
import { FleetReconciles } from "./reconciles";
import { KubeletReports } from "./kubelets";

export interface RuntimeOptions {
  model: FleetModel;
  clock: SimClock;
  cas: Map<string, ClusterCa>;
  tokens: { admin: string; readOnly: string };
  verifyEksToken?: (token: string, clusterName: string, nowMs: number) => TokenCheck;
  /** Preferred port per cluster (kept across restarts so kubeconfigs stay valid). */
  ports?: Record<string, number>;
  faults?: Record<string, FaultSpec>;
  /** Real milliseconds between model re-syncs. */
  tickMs?: number;
  /** Real milliseconds before the simulated controller handles a reconcile request. */
  reactionDelayMs?: number;
  bookmarkIntervalMs?: number;
  /** Real milliseconds between simulated etcd compactions (continue tokens older than one period expire). */
  compactionIntervalMs?: number;
  /** Object changes per real second spread over the fleet (the churn knob, see churn.ts); 0 = none. */
  churn?: number;
  /** Every healthy Kustomization and HelmRelease reconciles on its interval, writing its status as it goes (see reconciles.ts); the kubelets' Node status reports run with them (kubelets.ts). */
  reconciles?: boolean;
  /** Simulated milliseconds between a kubelet's Node status reports (default 5 minutes, see kubelets.ts). */
  kubeletReportIntervalMs?: number;
  /** Changes each resource's watch cache keeps (default 1000). */
  watchCacheSize?: number;
  /** Real milliseconds between background writes (Lease renewals) that move each cluster's revision; 0 = none. */
  backgroundWriteIntervalMs?: number;
}

const log = logger.child({ component: "simulator" });
const REQUESTED_AT = "reconcile.fluxcd.io/requestedAt";
const CROSSPLANE_GROUPS = ["eks.aws.crossplane.io", "eks.aws.upbound.io"];
/** How often the churn knob makes the changes that are due (real time). */
const CHURN_STEP_MS = 100;
/** How often the routine reconciles make the steps that are due (real time). */
const RECONCILE_STEP_MS = 250;
const FLUX_KINDS = ["Kustomization", "HelmRelease", "GitRepository", "OCIRepository", "HelmRepository", "HelmChart"];

export interface ClusterHandle {
  cluster: SimCluster;
  store: ClusterStore;
  server: KubeApiServer;
  manualFaults: FaultSpec;
}

export class FleetRuntime implements RuntimeInfo {
  readonly clusters = new Map<string, ClusterHandle>();
  stsEndpoint = "";
  private lastSync = 0;
  private timers: NodeJS.Timeout[] = [];
  private pending = new Set<NodeJS.Timeout>();
  private compactionMarks = new Map<string, number>();
  private running?: Promise<{ changedClusters: number; changedObjects: number }>;
  private synced = new Set<string>();
  private stopped = false;
  /** Resolves once every cluster has been loaded from the model (clusters load on first request before that). */
  warmedUp: Promise<void> = Promise.resolve();
  readonly churn: FleetChurn;
  readonly reconciles: FleetReconciles;
  /** The kubelets' periodic Node status reports; they run with the routine reconciles (see kubelets.ts). */
  readonly kubelets: KubeletReports;

  constructor(private readonly options: RuntimeOptions) {
    const { model } = options;
    for (const cluster of model.clusters) {
      const registry = new ResourceRegistry();
      for (const group of ["kustomize.toolkit.fluxcd.io", "helm.toolkit.fluxcd.io", "source.toolkit.fluxcd.io"]) {
        registry.ensureServed(group, FLUX_KINDS);
      }
      if (cluster.role === "hub") for (const group of CROSSPLANE_GROUPS) registry.ensureServed(group);
      // Argo CD runs on the hub (its CRDs are installed there, so the kinds answer even when empty).
      if (cluster.role === "hub") registry.ensureServed("argoproj.io");
      // Distinct starting revisions per cluster, like unrelated etcds.
      const store = new ClusterStore(cluster.name, registry, 1000 + (hash(cluster.name) % 9000), options.watchCacheSize);
      const ca = options.cas.get(cluster.name);
      if (!ca) throw new Error(`no CA for cluster ${cluster.name}`);
      const server = new KubeApiServer({
        cluster,
        store,
        ca,
        tokens: options.tokens,
        verifyEksToken: options.verifyEksToken
          ? (token, clusterName) => options.verifyEksToken!(token, clusterName, options.clock.now())
          : undefined,
        now: () => options.clock.now(),
        seed: model.seed,
        bookmarkIntervalMs: options.bookmarkIntervalMs,
        onWrite: (type, before, after) => this.react(store, type, before, after),
        beforeRequest: () => this.ensureSynced(cluster.name),
      });
      const manualFaults = options.faults?.[cluster.name] ?? {};
      server.setFaults(manualFaults);
      this.clusters.set(cluster.name, { cluster, store, server, manualFaults });
    }
    const changing: ChurnCluster[] = [...this.clusters.values()].map(({ cluster, store, server }) => ({
      name: cluster.name,
      store,
      reachable: () => server.isReachable,
      load: () => this.ensureSynced(cluster.name),
    }));
    this.churn = new FleetChurn(changing, model.seed, () => options.clock.now());
    // Controllers keep reconciling when the model's clock is frozen (benchmarks, tests): their passes then
    // run on the real clock.
    const reconcileNow = () => (options.clock.speed > 0 ? options.clock.now() : Math.max(options.clock.now(), Date.now()));
    this.reconciles = new FleetReconciles(changing, model.seed, reconcileNow);
    this.kubelets = new KubeletReports(changing, model.seed, reconcileNow, options.kubeletReportIntervalMs);
  }

  // --- RuntimeInfo ---------------------------------------------------------------------------------

  endpointOf(cluster: string): string {
    return this.handle(cluster).server.endpoint;
  }

  caDataOf(cluster: string): string {
    const ca = this.options.cas.get(cluster);
    if (!ca) throw new Error(`unknown cluster ${cluster}`);
    return Buffer.from(ca.caPem).toString("base64");
  }

  handle(cluster: string): ClusterHandle {
    const handle = this.clusters.get(cluster);
    if (!handle) throw new Error(`unknown cluster ${cluster}`);
    return handle;
  }

  // --- lifecycle -----------------------------------------------------------------------------------

  /** Opens every API server (stored ports first, any free port otherwise). */
  async listen(): Promise<void> {
    const handles = [...this.clusters.values()];
    // Bounded parallelism: a thousand listen() calls at once is fine, but keep the event loop responsive.
    for (let i = 0; i < handles.length; i += 100) {
      await Promise.all(
        handles.slice(i, i + 100).map(async ({ cluster, server }) => {
          const preferred = this.options.ports?.[cluster.name] ?? 0;
          try {
            await server.listen(preferred);
          } catch {
            await server.listen(0);
          }
        }),
      );
    }
  }

  /** Loads a cluster from the model the first time anything needs it. */
  ensureSynced(name: string): void {
    if (this.synced.has(name)) return;
    const handle = this.handle(name);
    const now = this.options.clock.now();
    handle.store.sync(this.options.model.objectsAt(name, now, this), now);
    this.compactionMarks.set(name, handle.store.resourceVersion);
    this.synced.add(name);
  }

  /**
   * Loads the hub now and the spokes in the background (a request to a spoke not loaded yet loads it
   * first), so a thousand clusters are serving within seconds; then starts the periodic loop.
   */
  start(): void {
    const now = this.options.clock.now();
    this.lastSync = now;
    for (const handle of this.clusters.values()) if (handle.cluster.role === "hub") this.ensureSynced(handle.cluster.name);
    this.warmedUp = (async () => {
      for (const name of this.clusters.keys()) {
        if (this.stopped) return;
        try {
          this.ensureSynced(name);
        } catch (error) {
          log.error({ cluster: name, err: error }, "loading the cluster from the fleet model failed");
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    void this.applyReachability(now);
    // One failing tick (a model bug, a port taken) must not take the whole fleet down.
    const tick = () => this.tick().catch((error) => log.error({ err: error }, "simulator tick failed"));
    this.timers.push(
      setInterval(() => {
        if (!this.running) void tick();
      }, this.options.tickMs ?? 1000),
    );
    const compaction = this.options.compactionIntervalMs ?? 5 * 60 * 1000;
    this.timers.push(setInterval(() => this.compactAll(), compaction));
    const backgroundWrites = this.options.backgroundWriteIntervalMs ?? 10_000;
    if (backgroundWrites > 0) {
      // Real clusters never stand still: node Leases are renewed every 10 s, so etcd's revision keeps moving
      // and a quiet Event watch's resourceVersion is compacted away within minutes.
      this.timers.push(
        setInterval(() => {
          for (const name of this.synced) this.clusters.get(name)?.store.advanceRevision();
        }, backgroundWrites),
      );
    }
    const every = (ms: number, what: string, step: () => void) =>
      this.timers.push(
        setInterval(() => {
          try {
            step();
          } catch (error) {
            log.error({ err: error }, `simulator ${what} failed`);
          }
        }, ms),
      );
    this.churn.setRate(this.options.churn ?? 0);
    every(CHURN_STEP_MS, "churn", () => this.churn.step());
    this.setRoutine(this.options.reconciles ?? false);
    every(RECONCILE_STEP_MS, "routine reconciles", () => this.reconciles.step());
    every(RECONCILE_STEP_MS, "kubelet reports", () => this.kubelets.step());
    for (const timer of this.timers) timer.unref?.();
  }

  /** A live fleet's routine writes on or off: Flux's reconciles and the kubelets' status reports. */
  setRoutine(on: boolean): void {
    this.reconciles.setEnabled(on);
    this.kubelets.setEnabled(on);
  }

  /** One step of the loop: re-sync the clusters the model says changed, apply reachability. */
  async tick(): Promise<{ changedClusters: number; changedObjects: number }> {
    // Ticks never overlap; a tick asked for during another (advance() from a test) runs right after it.
    while (this.running) await this.running.catch(() => undefined);
    const running = this.step();
    this.running = running;
    try {
      return await running;
    } finally {
      this.running = undefined;
    }
  }

  private async step(): Promise<{ changedClusters: number; changedObjects: number }> {
    const now = this.options.clock.now();
    if (now <= this.lastSync) return { changedClusters: 0, changedObjects: 0 };
    const changed = this.options.model.changedClusters(this.lastSync, now);
    let changedObjects = 0;
    for (const name of changed) {
      const handle = this.clusters.get(name);
      if (!handle || !this.synced.has(name)) continue; // loads at the then-current time when first needed
      try {
        changedObjects += handle.store.sync(this.options.model.objectsAt(name, now, this), now);
      } catch (error) {
        log.error({ cluster: name, err: error }, "re-syncing the cluster from the fleet model failed");
      }
    }
    this.lastSync = now;
    await this.applyReachability(now);
    return { changedClusters: changed.length, changedObjects };
  }

  private async applyReachability(now: number) {
    for (const handle of this.clusters.values()) {
      const conditions = this.options.model.conditionsAt(handle.cluster.name, now);
      handle.server.gitVersion = conditions.gitVersion ?? handle.cluster.gitVersion;
      const down = handle.manualFaults.unreachable === true || conditions.unreachable;
      if (down === handle.server.isReachable) await handle.server.setReachable(!down);
    }
  }

  /** Compacts each store to where it was one period ago: continue tokens live one to two periods. */
  compactAll(): void {
    for (const handle of this.clusters.values()) {
      handle.store.compact(this.compactionMarks.get(handle.cluster.name) ?? 0);
      this.compactionMarks.set(handle.cluster.name, handle.store.resourceVersion);
    }
  }

  /** An API server restart: open connections drop and the watch caches start over (old resourceVersions are too old). */
  restartApiServer(cluster: string): void {
    const { server, store } = this.handle(cluster);
    store.restartWatchCache();
    server.dropConnections();
  }

  async setFaults(cluster: string, spec: FaultSpec): Promise<void> {
    const handle = this.handle(cluster);
    handle.manualFaults = { ...spec };
    handle.server.setFaults(handle.manualFaults);
    await this.applyReachability(this.options.clock.now());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const timer of this.pending) clearTimeout(timer);
    this.timers = [];
    this.pending.clear();
    await Promise.all([...this.clusters.values()].map(({ server }) => server.close()));
  }

  // --- the simulated Flux controllers ----------------------------------------------------------------

  /**
   * Like kustomize/helm/source-controller: a new reconcile request or a new generation is handled
   * shortly after (status.lastHandledReconcileAt, observedGeneration); suspended objects are left alone.
   */
  private react(store: ClusterStore, type: ResourceType, before: ObjectVersion | undefined, after: ObjectVersion) {
    if (isArgoApplication(type)) return this.reactLikeArgoCd(store, type, before, after);
    if (!isFluxGroup(type.group)) return;
    const afterMeta = after.object.metadata;
    const beforeMeta = before?.object.metadata;
    const requested = afterMeta.annotations?.[REQUESTED_AT];
    const newRequest = requested !== undefined && requested !== beforeMeta?.annotations?.[REQUESTED_AT];
    const newGeneration = afterMeta.generation !== beforeMeta?.generation;
    if (!newRequest && !newGeneration) return;
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      let current: KubeObject;
      try {
        current = store.get(type, after.namespace, after.name).object;
      } catch {
        return; // deleted meanwhile
      }
      if ((current.spec as { suspend?: boolean } | undefined)?.suspend === true) return;
      store.markHandled(type, after.namespace, after.name, {
        reconcileAt: current.metadata.annotations?.[REQUESTED_AT],
        generation: current.metadata.generation,
      });
    }, this.options.reactionDelayMs ?? 500);
    this.pending.add(timer);
  }

  /** Like Argo CD's application controller: handles a refresh or a sync request shortly after it is written. */
  private reactLikeArgoCd(store: ClusterStore, type: ResourceType, before: ObjectVersion | undefined, after: ObjectVersion) {
    const requests = argoRequests(before?.object, after.object);
    if (!requests.refresh && !requests.sync) return;
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      try {
        const now = new Date(this.options.clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
        store.write(type, after.namespace, after.name, undefined, (current) => {
          const patch = argoControllerPatch(current, requests, now);
          return (patch ? applyMergePatch(current, patch) : current) as KubeObject;
        });
      } catch (error) {
        log.debug({ err: error }, "the simulated Argo CD controller could not write"); // deleted meanwhile
      }
    }, this.options.reactionDelayMs ?? 500);
    this.pending.add(timer);
  }

  state() {
    return [...this.clusters.values()].map(({ cluster, store, server, manualFaults }) => ({
      name: cluster.name,
      role: cluster.role,
      endpoint: server.endpoint,
      port: server.port,
      reachable: server.isReachable,
      faults: manualFaults,
      connections: server.connections,
      ...store.counts(),
    }));
  }
}

function hash(text: string): number {
  let value = 2166136261;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 16777619) >>> 0;
  return value;
}
