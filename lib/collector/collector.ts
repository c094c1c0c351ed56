// The collection loop: discover the fleet from the hub (and EKS), take leases, poll each leased cluster
// with bounded concurrency, write only what changed. Errors are values per cluster: one slow or broken
// cluster never delays or hides the others.
import { randomBytes } from "node:crypto";
import os from "node:os";
import type { KubeConfig } from "@kubernetes/client-node";
import type pg from "pg";
import { AwsCredentials } from "../aws/credentials";
import { describeAwsError } from "../aws/eks";
import { EksTokenCache } from "../aws/eks-token";
import { JobQueue, mapLimit } from "../concurrency";
import { processOperatorActions } from "./actions";
import { refreshUpstreamVersions } from "./upstream/index";
import { createClusterClient, releaseAgents } from "../kube/client";
import { ClusterRequestError } from "../kube/errors";
import { objectKey } from "../kube/flux";
import type { Logger } from "../logger";
import {
  kubeVersionChanges,
  clustersByName,
  listClusters,
  markGoneClusters,
  reachabilityTotals,
  recordCollectionModes,
  recordPollFailure,
  recordPollSuccesses,
  recordVersionsWithChanges,
  type CollectionMode,
  type PollSuccess,
  upsertDiscoveredClusters,
  upsertProvisioners,
  type ClusterRow,
} from "../db/writes/clusters";
import { writeCrossplaneFacts } from "../db/writes/eks";
import { eventSignature, loadEventSignatures, upsertEvents } from "../db/writes/events";
import { loadKnownObjects, writeObjectPlan, writeObjectTargets } from "../db/writes/flux-objects";
import { upsertNodes } from "../db/writes/nodes";
import { finishRun, markNudgesHandled, objectHealthTotals, pendingNudges, pruneHistory, startRun } from "../db/writes/housekeeping";
import { applyPlan, changesWhatPagesShow, healthCounts, planObjectWrites } from "./changes";
import { pollEvents, type ProvisionerRef } from "./events";
import { connectCluster, type ConnectionContext } from "./clients";
import { discoverFleet, SecretStore, type DiscoveryResult } from "./discovery";
import { listingHub, type HubReader } from "./discovery/hub-reader";
import { WatchedHub } from "./discovery/watched-hub";
import { ClusterTransport, transportOptions, watchSettings } from "../kube/watch/engine";
import {
  acquireLeases,
  GLOBAL_JOBS_LEASE,
  type HeartbeatAnswer,
  heldLeases,
  leasedClusterNames,
  liveReplicas,
  releaseLeases,
  renewLease,
  replicaHeartbeat,
} from "../db/writes/leases";
import type { CollectorMetrics } from "./metrics";
import { fluxVersionOf, pollKube, ServedVersionsCache } from "./poll";
import { clustersBySecret, objectTargets } from "./targets";
import { ClusterSession, type ClusterState } from "./session";
import { EksReader } from "./eks-reader";
import { Activity } from "./idle-reads";
import { SuccessBatches } from "./success-batches";
import { kubeconfigFor } from "./clients";
import { oneLine } from "../errors";
import { CHANGE_CHANNEL } from "../db/channels";

export interface CollectorSettings {
  replica?: string;
  hubConfig: KubeConfig;
  hubName: string;
  secretLabel: string;
  /** Where labelled and Argo CD cluster Secrets are listed (empty or absent: every namespace). */
  secretNamespaces?: string[];
  intervalSeconds: number;
  concurrency: number;
  requestTimeoutMs: number;
  eksRegions: string[];
  eksAssumeRoles: string[];
  eksEndpoint?: string;
  stsEndpoint?: string;
  eksIntervalSeconds: number;
  /** One full cycle (`--once`): take every cluster no other replica holds, not just a fair share,
   *  since there is no next cycle to pick up the rest. */
  fullCycle?: boolean;
  /** Re-read /version, nodes, Flux version and substitution variables this often (default 300). */
  factsIntervalSeconds?: number;
  retentionDays: number;
  /** Lease lifetime; defaults to two intervals + a minute. */
  leaseSeconds?: number;
  pageSize?: number;
  /**
   * "watch" (default): one LIST + WATCH session per leased cluster, polling only where watching keeps
   * failing. "poll": every leased cluster is polled each cycle.
   */
  mode?: "watch" | "poll";
  /** Safety-net relist of each watched resource (default 900 s). */
  relistIntervalSeconds?: number;
  /** An unchanged discovery is written again this often (default 600 s). */
  discoveryRewriteSeconds?: number;
  /** Jobs the process runs beside collection (on in the collector process; tests turn on what they test). */
  jobs?: { operatorActions?: boolean; upstreamVersions?: boolean };
}

/** Renewed every HEARTBEAT_EVERY_MS while the process runs: a replica silent longer is dead, and its leases free. */
export const HEARTBEAT_SECONDS = 15;
const HEARTBEAT_EVERY_MS = 5_000;
/** At most one early cycle per this long for a dead replica's leases (two heartbeats). */
const ORPHAN_CYCLE_SPACING_MS = 10_000;
/** A cluster that fell back to polling gets a new watch session after this long (its proxy may be fixed). */
const RETRY_WATCH_AFTER_MS = 30 * 60_000;

export interface CycleSummary {
  clusters: number;
  failedClusters: number;
  objects: number;
  requests: number;
  rowsWritten: number;
  historyRows: number;
  durationMs: number;
  discoveryProblems: string[];
  /**
   * The process's CPU (ms) during each part of the cycle: discovery, leases (the cluster list and the
   * leases), clusters (sessions started, clusters polled), jobs (fleet-wide jobs, notifications, nudges) and
   * finish (the run's row, the gauges). Whatever else the process did meanwhile (watches) is counted too.
   */
  cpuMs: { discovery: number; leases: number; clusters: number; jobs: number; finish: number };
}

type KubePollRecords = Awaited<ReturnType<typeof pollKube>>["records"];

const HOUR = 3_600_000;
/** Server version, kubelet versions and FluxReport change with upgrades only: read them every five minutes. */
const DEFAULT_FACTS_INTERVAL_SECONDS = 300;
/**
 * Watch sessions' facts reads at once. A read is a few small GETs and EKS calls that nobody waits for: 16 at
 * a time read a thousand clusters' first facts within about 12 s of the cold start; more at once would only
 * compete with the watches for the CPU.
 */
const FACTS_CONCURRENCY = 16;
/**
 * A discovery found unchanged is not written again (every write is change-only anyway), but all of it is
 * written at least this often: a cluster another replica marked gone meanwhile comes back.
 */
const DEFAULT_DISCOVERY_REWRITE_SECONDS = 600;

export class Collector {
  readonly replica: string;
  private readonly tokens = new EksTokenCache();
  private readonly aws: AwsCredentials | null;
  private readonly eks: EksReader;
  private readonly versions = new ServedVersionsCache();
  private readonly states = new Map<number, ClusterState>();
  private readonly lastFactsPoll = new Map<number, number>();
  /** What was last written per cluster, so an unchanged cycle writes (and asks the database) nothing. */
  private readonly crossplaneWritten = new Map<number, { from: readonly [unknown, unknown]; signature: string }>();
  private readonly targetsWritten = new Map<number, string>();
  /** Hub secret → the cluster it reaches (for hub objects with spec.kubeConfig). */
  private clustersBySecret = new Map<string, number>();
  private readonly inFlight = new Map<number, Promise<void>>();
  private heldLastCycle = new Set<number>();
  private secrets: SecretStore | undefined;
  /** Watch mode: the hub's lists kept by watching, across cycles. */
  private watchedHub?: WatchedHub;
  private lastDiscovery?: DiscoveryResult;
  private discoveryWrittenAt = 0;
  /** Cluster ids by name, as the last full discovery write stored them (null: none yet, or it failed). */
  private discoveredIds: Map<string, number> | null = null;
  /**
   * Asks for discovery's writes besides a change in discovery (an EKS read failed, so Crossplane's facts
   * stand in): counted, so that one asked for while a cycle writes is not lost, nor one whose write failed.
   */
  private discoveryWritesAsked = 0;
  private discoveryWritesDone = 0;
  private factsReads = 0;
  /** The Crossplane resources that provision spokes, from the last discovery: their Events are read on the hub. */
  private provisioners: ProvisionerRef[] = [];
  private lastPruneAt = 0;
  private lastUpstreamAt = 0;
  private readonly leaseSeconds: number;
  private requestsThisCycle = 0;
  /** Clusters whose stored data the pages show changed since the last NOTIFY ("*" = fleet-wide data). */
  private readonly changed = new Set<string>();
  /** Whether each cluster's last poll here worked: a flip changes what the pages say about it. */
  private readonly lastOk = new Map<number, boolean>();
  private lastNotifyAt = 0;
  private notifyTimer: NodeJS.Timeout | null = null;
  private readonly leaseRenewedAt = new Map<number, number>();
  /** Time spent per phase across this cycle's cluster polls (summed over concurrent polls). */
  private timing = { connectMs: 0, kubeMs: 0, writeMs: 0 };
  /** Watch sessions' facts reads (versions, Flux, EKS): bounded, and held while sessions start. */
  private readonly factsQueue: JobQueue;
  /** Clusters' "last success", written in batches. */
  private readonly successes: SuccessBatches;
  /** Watch sessions of the clusters this replica holds (watch mode). */
  private readonly sessions = new Map<number, ClusterSession>();
  private readonly fallbackAt = new Map<number, number>();
  private heartbeatTimer?: NodeJS.Timeout;
  /** When the last cycle started (0: none yet). */
  private cycleStartedAt = 0;
  private cycleRunning = false;
  /** Requests in flight and news, for quiet(). */
  readonly activity = new Activity();
  /** The collection mode written per cluster, so only changes are written. */
  private readonly modesWritten = new Map<number, string>();

  constructor(
    private readonly db: pg.Pool,
    private readonly settings: CollectorSettings,
    private readonly log: Logger,
    private readonly metrics?: CollectorMetrics,
  ) {
    this.replica = settings.replica ?? `${os.hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
    this.leaseSeconds = settings.leaseSeconds ?? settings.intervalSeconds * 2 + 60;
    // Also used without EKS regions: connection secrets with an endpoint but no token get an EKS token.
    this.aws = new AwsCredentials({ assumeRoles: settings.eksAssumeRoles, stsEndpoint: settings.stsEndpoint });
    this.eks = new EksReader(db, {
      aws: this.aws,
      regions: settings.eksRegions,
      endpoint: settings.eksEndpoint,
      timeoutMs: settings.requestTimeoutMs,
      intervalSeconds: settings.eksIntervalSeconds,
      onRequest: (ok) => {
        this.requestsThisCycle++;
        this.metrics?.requests.inc({ cluster: "", target: "eks" });
        if (!ok) this.metrics?.errors.inc({ cluster: "", kind: "eks" });
      },
      // Crossplane's facts stand in for EKS's now: written by the next cycle, even one whose discovery is unchanged.
      onDescribeFailed: (clusterId) => {
        this.crossplaneWritten.delete(clusterId);
        this.discoveryWritesAsked++;
      },
      log: this.log,
    });
    this.factsQueue = new JobQueue(Math.min(settings.concurrency, FACTS_CONCURRENCY));
    this.successes = new SuccessBatches(
      (batch) => recordPollSuccesses(this.db, batch),
      (err) => this.successesNotRecorded(err),
    );
  }

  /** Reads so far of watched clusters' facts (versions, FluxReport, Events) and of clusters' EKS facts. */
  periodicReads(): { facts: number; eks: number } {
    return { facts: this.factsReads, eks: this.eks.reads };
  }

  /** Facts reads of watch sessions queued or running (0 once every watched cluster's versions are read). */
  factsPending(): number {
    return this.factsQueue.pending;
  }

  private connectionContext(secrets: SecretStore): ConnectionContext {
    return {
      hubConfig: this.settings.hubConfig,
      secrets,
      aws: this.aws,
      stsEndpoint: this.settings.stsEndpoint,
      tokens: this.tokens,
      describeEks: async (name, region) =>
        this.eks.describe(this.eks.api(region), name).catch((err: unknown) => {
          this.log.debug({ cluster: name, region, error: describeAwsError(err).message }, "DescribeCluster failed; connecting without it");
          return undefined;
        }),
      client: {
        timeoutMs: this.settings.requestTimeoutMs,
        onRequest: () => {
          this.requestsThisCycle++;
        },
      },
    };
  }

  /** What discovery reads the hub with: in watch mode lists kept by watching, else lists read afresh. */
  private discoveryHub(): HubReader {
    if (this.mode === "poll") return listingHub(this.hubClient());
    if (!this.watchedHub) {
      const options = { requestTimeoutMs: this.settings.requestTimeoutMs, pageSize: this.settings.pageSize, activity: this.activity };
      this.watchedHub = new WatchedHub(
        this.hubClient(),
        new ClusterTransport(this.settings.hubConfig, transportOptions(options)),
        watchSettings({
          ...options,
          relistIntervalMs: this.settings.relistIntervalSeconds ? this.settings.relistIntervalSeconds * 1000 : undefined,
        }),
        this.log,
      );
    }
    return this.watchedHub;
  }

  private hubClient() {
    return createClusterClient(`hub:${this.settings.hubName}`, this.settings.hubConfig, {
      timeoutMs: this.settings.requestTimeoutMs,
      onRequest: () => this.requestsThisCycle++,
    });
  }

  /** For jobs in this process (operator actions): a client with the connection secret re-read. */
  async clientByName(name: string) {
    const [cluster] = await clustersByName(this.db, [name]);
    if (!cluster) throw new ClusterRequestError(`unknown cluster ${name}`, "other");
    return connectCluster(cluster, this.connectionContext(new SecretStore(listingHub(this.hubClient()))));
  }

  /** One full cycle. */
  async runCycle(): Promise<CycleSummary> {
    this.cycleRunning = true;
    try {
      return await this.cycle();
    } finally {
      this.cycleRunning = false;
    }
  }

  /**
   * Whether the process may nap now (idle-reads.ts): no cycle running (discovery, leases, sessions starting),
   * no facts read queued or running, no request in flight, no query in flight or waiting for a connection,
   * and no news for a second.
   */
  quiet(now = Date.now()): boolean {
    return (
      !this.cycleRunning &&
      this.factsQueue.pending === 0 &&
      this.activity.quiet(now) &&
      this.db.totalCount === this.db.idleCount &&
      this.db.waitingCount === 0
    );
  }

  private async cycle(): Promise<CycleSummary> {
    const started = Date.now();
    // Each part of the cycle ends where the next begins: its wall time (logged) and the process's CPU (summary).
    const cpuMs = { discovery: 0, leases: 0, clusters: 0, jobs: 0, finish: 0 };
    const wallMs: Partial<typeof cpuMs> = {};
    let mark = { at: started, cpu: process.cpuUsage() };
    const endPart = (part: keyof typeof cpuMs) => {
      const now = { at: Date.now(), cpu: process.cpuUsage() };
      wallMs[part] = now.at - mark.at;
      cpuMs[part] = Math.round((now.cpu.user - mark.cpu.user + now.cpu.system - mark.cpu.system) / 1000);
      mark = now;
    };
    this.cycleStartedAt = started;
    this.requestsThisCycle = 0;
    this.timing = { connectMs: 0, kubeMs: 0, writeMs: 0 };
    const runId = await startRun(this.db, this.replica, new Date(started));
    let discovery: DiscoveryResult | undefined;
    const problems: string[] = [];
    const hub = this.discoveryHub();
    try {
      discovery = await discoverFleet({
        hub,
        hubName: this.settings.hubName,
        secretLabel: this.settings.secretLabel,
        secretNamespaces: this.settings.secretNamespaces ?? [],
        eks: this.eks.regionApis(),
        list: (api) => this.eks.clusterNames(api),
        describe: (api, name) => this.eks.describe(api, name),
        previous: this.lastDiscovery,
      });
      problems.push(...discovery.problems);
    } catch (err) {
      problems.push(`hub: ${oneLine(err)}`);
    }
    this.lastDiscovery = discovery;
    this.secrets = discovery?.secrets ?? new SecretStore(hub);
    if (discovery && !discovery.reused) this.provisioners = discovery.clusters.flatMap((c) => c.provisioners);
    let rowsWritten = discovery ? await this.writeDiscovery(discovery) : 0;
    for (const p of problems) this.log.warn({ problem: p }, "discovery incomplete");

    endPart("discovery");
    const clusters = await listClusters(this.db, { activeOnly: true });
    this.clustersBySecret = clustersBySecret(clusters);
    const mine = await this.takeLeases(clusters);
    endPart("leases");
    this.metrics?.leases.set(mine.length);

    let failed = 0;
    let objects = 0;
    let historyRows = 0;
    const toPoll = this.mode === "watch" ? await this.runSessions(mine) : mine;
    await this.writeModes(mine).catch((err: unknown) => this.log.warn({ error: oneLine(err) }, "collection modes not recorded"));
    await mapLimit(toPoll, this.settings.concurrency, async (c) => {
      const result = await this.pollClusterOnce(c);
      if (!result.ok) failed++;
      objects += result.objects;
      rowsWritten += result.rowsWritten;
      historyRows += result.historyRows;
    });
    await this.successes.flush();
    endPart("clusters");

    if (await this.holdsGlobalLease()) {
      const fleetWide = await this.fleetWideJobs(clusters).catch((err) => {
        this.log.warn({ err: String(err) }, "fleet-wide jobs failed");
        return 0;
      });
      rowsWritten += fleetWide;
      if (fleetWide) this.markChanged("*");
    }
    await this.notifyChanges(true);
    await this.handlePendingNudges();
    endPart("jobs");

    const durationMs = Date.now() - started;
    const summary: CycleSummary = {
      clusters: mine.length,
      failedClusters: failed,
      objects,
      requests: this.requestsThisCycle,
      rowsWritten,
      historyRows,
      durationMs,
      discoveryProblems: problems,
      cpuMs,
    };
    await finishRun(this.db, runId, { finishedAt: new Date(), ...summary });
    this.metrics?.cycleSeconds.observe(durationMs / 1000);
    this.metrics?.lastCycleSeconds.set(durationMs / 1000);
    await this.refreshGauges().catch((err: unknown) => this.log.debug({ error: oneLine(err) }, "fleet gauges not refreshed"));
    endPart("finish");
    this.log.info({ ...summary, wallMs, pollTime: this.timing, discoveryProblems: problems.length }, "cycle finished");
    return summary;
  }

  /**
   * Discovery's clusters, provisioners and Crossplane facts, and the clusters gone (when every source
   * answered); an unchanged discovery (the hub's watched lists, its APIs and EKS's answers) writes nothing
   * but every discoveryRewriteSeconds, and the Crossplane facts of a cluster whose EKS read failed (they
   * stand in for EKS's). Returns the rows written.
   */
  private async writeDiscovery(discovery: DiscoveryResult): Promise<number> {
    const unchanged =
      discovery.reused &&
      this.discoveredIds !== null &&
      Date.now() - this.discoveryWrittenAt < (this.settings.discoveryRewriteSeconds ?? DEFAULT_DISCOVERY_REWRITE_SECONDS) * 1000;
    const asked = this.discoveryWritesAsked;
    if (unchanged) {
      if (this.discoveryWritesDone === asked) return 0;
      // Only Crossplane's facts of the clusters whose DescribeCluster failed are due (a cluster whose EKS
      // read always fails asked for the whole discovery every EKS interval).
      const rows = await this.writeCrossplaneFacts(discovery, this.discoveredIds!);
      this.discoveryWritesDone = asked;
      return rows;
    }
    const writing = Date.now();
    let rowsWritten = 0;
    try {
      const ids = await upsertDiscoveredClusters(this.db, discovery.clusters);
      this.discoveredIds = ids;
      const byCluster = new Map<number, (typeof discovery.clusters)[number]["provisioners"]>();
      for (const c of discovery.clusters) if (c.provisioners.length) byCluster.set(ids.get(c.name)!, c.provisioners);
      const provisioners = await upsertProvisioners(this.db, byCluster, discovery.complete);
      rowsWritten += provisioners;
      if (provisioners) this.markChanged("*");
      rowsWritten += await this.writeCrossplaneFacts(discovery, ids);
      if (discovery.complete) {
        const gone = await markGoneClusters(
          this.db,
          discovery.clusters.map((c) => c.name),
          new Date(),
        );
        if (gone.length) {
          this.log.info({ clusters: gone }, "clusters left the fleet; marked gone");
          this.markChanged("*");
        }
      }
    } catch (err) {
      this.discoveryWrittenAt = 0; // not written: the next cycle writes, reused or not
      this.discoveredIds = null;
      throw err;
    }
    this.discoveryWrittenAt = writing;
    this.discoveryWritesDone = asked;
    return rowsWritten;
  }

  /** EKS facts and node groups Crossplane observed, per cluster, when they changed since this process last wrote them. */
  private async writeCrossplaneFacts(discovery: DiscoveryResult, ids: Map<string, number>): Promise<number> {
    let written = 0;
    const at = new Date();
    for (const c of discovery.clusters) {
      if (!c.crossplaneFacts && !c.nodeGroups.length) continue;
      const id = ids.get(c.name);
      if (id === undefined) continue;
      // The same objects as last written (a discovery reused whole hands them over again): nothing to compare.
      const before = this.crossplaneWritten.get(id);
      if (before && before.from[0] === c.crossplaneFacts && before.from[1] === c.nodeGroups) continue;
      const signature = JSON.stringify([c.crossplaneFacts, c.nodeGroups]);
      if (before?.signature === signature) {
        this.crossplaneWritten.set(id, { from: [c.crossplaneFacts, c.nodeGroups], signature });
        continue;
      }
      const rows = await writeCrossplaneFacts(this.db, id, at, { facts: c.crossplaneFacts, nodeGroups: c.nodeGroups });
      written += rows;
      // Crossplane's EKS facts are the version the upgrade pages show for a cluster without EKS API access.
      if (rows) this.markChanged(c.name);
      this.crossplaneWritten.set(id, { from: [c.crossplaneFacts, c.nodeGroups], signature });
    }
    return written;
  }

  private async takeLeases(clusters: ClusterRow[]): Promise<ClusterRow[]> {
    const replicas = await liveReplicas(this.db, this.replica, this.heartbeatTimer ? HEARTBEAT_SECONDS : this.leaseSeconds);
    const share = this.settings.fullCycle ? clusters.length : Math.ceil(clusters.length / replicas);
    const ids = clusters.map((c) => c.id);
    const heldNow = new Set((await heldLeases(this.db, this.replica)).filter((id) => id > 0));
    // Holding more than a fair share (a replica joined): give the excess back.
    const heldClusters = ids.filter((id) => heldNow.has(id));
    if (heldClusters.length > share + 1) {
      const excess = heldClusters.slice(share);
      await releaseLeases(this.db, this.replica, excess);
      for (const id of excess) heldNow.delete(id);
    }
    const leasedAt = Date.now();
    const got = new Set(await acquireLeases(this.db, this.replica, ids, this.leaseSeconds, Math.max(0, share - heldNow.size)));
    this.leaseRenewedAt.clear();
    for (const id of got) this.leaseRenewedAt.set(id, leasedAt);
    const mine = clusters.filter((c) => got.has(c.id));
    // A lease lost (or given back): its watch stops at once and writes nothing more.
    for (const [id, session] of this.sessions) {
      if (got.has(id)) continue;
      this.sessions.delete(id);
      await session.stop();
    }
    // A cluster we did not hold last cycle may have been written by another replica: reload its state.
    for (const c of mine) if (!this.heldLastCycle.has(c.id)) this.states.delete(c.id);
    this.heldLastCycle = got;
    return mine;
  }

  private async holdsGlobalLease(): Promise<boolean> {
    return (await acquireLeases(this.db, this.replica, [GLOBAL_JOBS_LEASE], this.leaseSeconds)).length === 1;
  }

  get mode(): "watch" | "poll" {
    return this.settings.mode ?? "watch";
  }

  /**
   * Watch mode: a session per leased cluster (started with bounded concurrency; a cold start lists every
   * cluster once). Returns the clusters to poll this cycle: those whose watching keeps failing.
   */
  private async runSessions(mine: ClusterRow[]): Promise<ClusterRow[]> {
    const toStart: ClusterSession[] = [];
    for (const c of mine) {
      if (c.provisioning) continue;
      const session = this.sessions.get(c.id);
      const retry = session?.mode === "fallback" && Date.now() - (this.fallbackAt.get(c.id) ?? 0) > RETRY_WATCH_AFTER_MS;
      if (session && session.mode !== "failed" && !retry) continue;
      if (session) await session.stop();
      const fresh = new ClusterSession(c, this.sessionContext());
      this.sessions.set(c.id, fresh);
      toStart.push(fresh);
    }
    // Objects first: facts reads wait until every new session listed (and run at once when none starts).
    this.factsQueue.hold();
    try {
      await mapLimit(toStart, this.settings.concurrency, (session) => session.start());
    } finally {
      this.factsQueue.release();
    }
    this.metrics?.sessions.reset();
    for (const session of this.sessions.values()) this.metrics?.sessions.inc({ mode: session.mode });
    return mine.filter((c) => this.sessions.get(c.id)?.mode === "fallback");
  }

  private sessionContext() {
    return {
      db: this.db,
      log: this.log,
      metrics: this.metrics,
      versions: this.versions,
      state: (cluster: ClusterRow) => this.clusterState(cluster.id),
      kubeConfig: (cluster: ClusterRow) =>
        kubeconfigFor(cluster, this.connectionContext(this.secrets ?? new SecretStore(listingHub(this.hubClient())))),
      onRequest: () => this.requestsThisCycle++,
      activity: this.activity,
      facts: (read: () => Promise<void>) => this.factsQueue.run(read),
      factsRead: () => this.factsReads++,
      provisioners: () => this.provisioners,
      clustersBySecret: () => this.clustersBySecret,
      pollEks: (cluster: ClusterRow, at: Date, force: boolean) => this.eks.readCluster(cluster, at, force),
      // A batch that fails to write is logged, as the timer's flush is (a heartbeat's sweep queues ~80 at once).
      recordSuccess: (success: PollSuccess) => void this.successes.queue(success).catch((err: unknown) => this.successesNotRecorded(err)),
      changed: (cluster: ClusterRow) => {
        this.markChanged(cluster.name);
        void this.notifyChanges();
      },
      onFallback: (cluster: ClusterRow, reason: string) => {
        this.fallbackAt.set(cluster.id, Date.now());
        this.log.warn({ cluster: cluster.name, reason }, "watching keeps failing; polling this cluster");
        void this.writeModes([cluster]).catch((err: unknown) => this.log.warn({ error: oneLine(err) }, "collection mode not recorded"));
      },
      settings: {
        heartbeatMs: this.settings.intervalSeconds * 1000,
        factsIntervalMs: (this.settings.factsIntervalSeconds ?? DEFAULT_FACTS_INTERVAL_SECONDS) * 1000,
        eksIntervalMs: this.settings.eksIntervalSeconds * 1000,
        requestTimeoutMs: this.settings.requestTimeoutMs,
        relistIntervalMs: this.settings.relistIntervalSeconds ? this.settings.relistIntervalSeconds * 1000 : undefined,
        pageSize: this.settings.pageSize,
      },
    };
  }

  /** The mode each cluster is read in, and why it is polled: stored for the cluster page, exported on /metrics. */
  private async writeModes(clusters: ClusterRow[]): Promise<void> {
    const modes: CollectionMode[] = [];
    for (const c of clusters) {
      if (c.provisioning) continue;
      const session = this.sessions.get(c.id);
      const mode: CollectionMode =
        this.mode === "poll"
          ? { clusterId: c.id, mode: "poll", reason: "COLLECTOR_MODE=poll" }
          : session?.mode === "fallback"
            ? { clusterId: c.id, mode: "poll", reason: session.reason }
            : { clusterId: c.id, mode: "watch", reason: null };
      const signature = `${mode.mode}|${mode.reason}`;
      const before = this.modesWritten.get(c.id);
      // Unchanged: stored and exported already (a thousand clusters a minute otherwise re-set for nothing).
      if (before === signature) continue;
      if (before !== undefined)
        this.metrics?.clusterMode.remove({ cluster: c.name, mode: before.split("|")[0], reason: before.split("|")[1] });
      this.metrics?.clusterMode.set({ cluster: c.name, mode: mode.mode, reason: mode.reason ?? "" }, 1);
      modes.push(mode);
      this.modesWritten.set(c.id, signature);
    }
    await recordCollectionModes(this.db, modes, new Date());
  }

  private async clusterState(clusterId: number): Promise<ClusterState> {
    let state = this.states.get(clusterId);
    if (!state) {
      state = {
        known: await loadKnownObjects(this.db, clusterId),
        events: await loadEventSignatures(this.db, clusterId, new Date(Date.now() - 7 * 24 * HOUR)),
      };
      this.states.set(clusterId, state);
    }
    return state;
  }

  /**
   * Every watching session lists all it watches again now (the periodic safety net, every cluster's at once,
   * `concurrency` clusters at a time as a cold start lists them); the sessions relisted. The bench times it.
   */
  async relistAll(): Promise<number> {
    const watching = [...this.sessions.values()].filter((session) => session.mode === "watching");
    await mapLimit(watching, this.settings.concurrency, (session) => session.relist());
    return watching.length;
  }

  /** Watch sessions by mode, and their engines' requests, connections and open sockets (benchmarks, /metrics). */
  watchStats(): { sessions: Record<string, number>; requests: number; connections: number; openSockets: number; openStreams: number } {
    const out = { sessions: {} as Record<string, number>, requests: 0, connections: 0, openSockets: 0, openStreams: 0 };
    for (const session of this.sessions.values()) {
      out.sessions[session.mode] = (out.sessions[session.mode] ?? 0) + 1;
      const stats = session.connectionStats();
      if (!stats) continue;
      out.requests += stats.requests;
      out.connections += stats.connections;
      out.openSockets += stats.openSockets;
      out.openStreams += stats.openStreams;
    }
    return out;
  }

  /**
   * Keeps this replica's heartbeat fresh (short-lived): when it stops, its leases are free at once. Each beat
   * also stops the watch of any cluster whose lease this replica no longer holds (it expired, or another
   * replica took it), within seconds rather than at the next cycle, and finds the leases of a replica killed
   * with kill -9 (`onOrphanedLeases` then asks for a cycle now). One statement per beat (`replicaHeartbeat`).
   */
  startHeartbeat(onOrphanedLeases?: () => void): void {
    const beat = async () => {
      // Only sessions that existed before the query: one a cycle starts meanwhile took its lease after it.
      // (Ids and sessions in two arrays, in the map's order: no copy of the map every 5 s for an answer that
      // is usually empty.)
      const ids = [...this.sessions.keys()];
      const before = [...this.sessions.values()];
      // A dead replica's leases are free once its heartbeat ran out, but this replica's loop would only take
      // them at its next cycle, up to an interval later (measured: a collector restarted right after a kill -9
      // collected nothing for 70 s). At most one early cycle per ORPHAN_CYCLE_SPACING_MS: a replica at its
      // fair share leaves the rest to the others.
      const countOrphans = onOrphanedLeases !== undefined && Date.now() - this.cycleStartedAt >= ORPHAN_CYCLE_SPACING_MS;
      let answer: HeartbeatAnswer;
      try {
        answer = await replicaHeartbeat(this.db, this.replica, HEARTBEAT_SECONDS, { watched: ids, countOrphans });
      } catch (err) {
        this.log.warn({ error: oneLine(err) }, "heartbeat not renewed");
        return;
      }
      if (!answer.renewed)
        this.log.warn({ replica: this.replica }, "heartbeat not renewed: another live replica's name hashes to the same heartbeat id");
      await this.stopLostSessions(ids, before, answer.lost).catch((err: unknown) =>
        this.log.warn({ error: oneLine(err) }, "sessions of lost leases not stopped"),
      );
      if (answer.orphaned) {
        this.log.info({ orphaned: answer.orphaned }, "leases of a replica whose heartbeat ran out: cycling now to take them");
        onOrphanedLeases?.();
      }
    };
    void beat();
    this.heartbeatTimer = setInterval(() => void beat(), HEARTBEAT_EVERY_MS);
  }

  /** Stops the sessions (of those that existed when the heartbeat asked) whose lease is lost. */
  private async stopLostSessions(ids: number[], before: ClusterSession[], lostIds: number[]): Promise<void> {
    if (!lostIds.length) return;
    const lost = new Set(lostIds);
    for (const [i, id] of ids.entries()) {
      if (!lost.has(id)) continue;
      const session = before[i];
      if (this.sessions.get(id) !== session) continue;
      this.sessions.delete(id);
      this.heldLastCycle.delete(id);
      this.log.warn({ cluster: session.cluster.name }, "lease lost; watch stopped");
      await session.stop();
    }
  }

  private successesNotRecorded(err: unknown): void {
    this.log.warn({ error: oneLine(err) }, "poll successes not recorded");
  }

  private markChanged(cluster: string): void {
    this.changed.add(cluster);
  }

  /** Records whether this poll worked; a change from the last one is a change the pages show. */
  private noteOutcome(cluster: ClusterRow, ok: boolean): boolean {
    const flipped = this.lastOk.get(cluster.id) !== ok;
    this.lastOk.set(cluster.id, ok);
    if (flipped) this.markChanged(cluster.name);
    return flipped;
  }

  /**
   * Tells the web replicas (NOTIFY on CHANGE_CHANNEL) which clusters' data changed, at most once a second
   * (`now` sends at once: end of a cycle); the payload is the cluster names, comma-separated, with "*" for
   * fleet-wide data (or instead of a list too long for a notification).
   */
  private async notifyChanges(now = false): Promise<void> {
    if (!this.changed.size) return;
    const wait = 1000 - (Date.now() - this.lastNotifyAt);
    if (!now && wait > 0) {
      this.notifyTimer ??= setTimeout(() => {
        this.notifyTimer = null;
        void this.notifyChanges(true);
      }, wait);
      this.notifyTimer.unref();
      return;
    }
    const names = [...this.changed];
    this.changed.clear();
    this.lastNotifyAt = Date.now();
    const payload = names.join(",").length > 7000 ? "*" : names.join(",");
    await this.db
      .query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, payload])
      .catch((err: unknown) => this.log.warn({ error: oneLine(err) }, "could not notify the web of changes"));
  }

  /** Polls one cluster unless another poll of it is running in this process (then waits for that one). */
  async pollClusterOnce(cluster: ClusterRow): Promise<{ ok: boolean; objects: number; rowsWritten: number; historyRows: number }> {
    // Crossplane is still creating it: there is nothing to reach yet, and trying would only record an error.
    if (cluster.provisioning) return { ok: true, objects: 0, rowsWritten: 0, historyRows: 0 };
    const running = this.inFlight.get(cluster.id);
    if (running) await running; // never rejects: it only marks the end of that poll
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    this.inFlight.set(cluster.id, done);
    try {
      // Extend the lease before polling unless it was taken or extended recently (it outlives any poll).
      const renewed = this.leaseRenewedAt.get(cluster.id) ?? 0;
      if (Date.now() - renewed > (this.leaseSeconds * 1000) / 3) {
        if (!(await renewLease(this.db, this.replica, cluster.id, this.leaseSeconds))) {
          this.states.delete(cluster.id);
          this.leaseRenewedAt.delete(cluster.id);
          return { ok: true, objects: 0, rowsWritten: 0, historyRows: 0 };
        }
        this.leaseRenewedAt.set(cluster.id, Date.now());
      }
      return await this.pollCluster(cluster);
    } finally {
      this.inFlight.delete(cluster.id);
      resolveDone();
    }
  }

  private async pollCluster(cluster: ClusterRow): Promise<{ ok: boolean; objects: number; rowsWritten: number; historyRows: number }> {
    const log = this.log.child({ cluster: cluster.name });
    const started = Date.now();
    const at = new Date();
    log.debug({ event: "poll-start", replica: this.replica }, "poll start");
    try {
      return await this.pollClusterInner(cluster, log, started, at);
    } finally {
      log.debug({ event: "poll-end", replica: this.replica }, "poll end");
    }
  }

  private async pollClusterInner(
    cluster: ClusterRow,
    log: Logger,
    started: number,
    at: Date,
  ): Promise<{ ok: boolean; objects: number; rowsWritten: number; historyRows: number }> {
    let rowsWritten = 0;
    let historyRows = 0;
    let requests = 0;
    try {
      let t = Date.now();
      const client = await connectCluster(cluster, this.connectionContext(this.secrets ?? new SecretStore(listingHub(this.hubClient()))));
      this.timing.connectMs += Date.now() - t;
      t = Date.now();
      const factsDue =
        Date.now() - (this.lastFactsPoll.get(cluster.id) ?? 0) >=
        (this.settings.factsIntervalSeconds ?? DEFAULT_FACTS_INTERVAL_SECONDS) * 1000;
      const poll = await pollKube(cluster.name, client, this.versions, { pageSize: this.settings.pageSize, clusterFacts: factsDue });
      if (factsDue) this.lastFactsPoll.set(cluster.id, Date.now());
      this.timing.kubeMs += Date.now() - t;
      t = Date.now();
      requests = client.requests;
      const state = await this.clusterState(cluster.id);
      const pollTime = at.toISOString();
      const firstPoll = state.known.size === 0 && !cluster.lastSuccessAt;
      const plan = planObjectWrites(state.known, poll.records, poll.listedKinds, pollTime, firstPoll);
      const visible = changesWhatPagesShow(plan, state.known, at);
      const written = await writeObjectPlan(this.db, cluster.id, plan, state.known, pollTime);
      applyPlan(state.known, plan, written.ids);
      if (written.rowsWritten && visible) this.markChanged(cluster.name);
      rowsWritten += written.rowsWritten;
      historyRows += written.transitions;
      if (cluster.role === "hub") rowsWritten += await this.writeTargets(cluster.id, poll.records, poll.listedKinds);
      if (poll.nodes) rowsWritten += await upsertNodes(this.db, cluster.id, at, poll.nodes);
      if (written.rowsWritten) this.metrics?.rowsWritten.inc({ table: "flux_object" }, written.rowsWritten - written.transitions);
      if (written.transitions) this.metrics?.rowsWritten.inc({ table: "flux_object_transition" }, written.transitions);

      // Events after the plan: an object deleted by this poll keeps the Events its controller wrote while finalising it.
      t = Date.now();
      const kept = await pollEvents(client, {
        known: state.known,
        nodes: factsDue,
        provisioners: cluster.role === "hub" ? this.provisioners : [],
      });
      this.timing.kubeMs += Date.now() - t;
      requests = client.requests;
      poll.warnings.push(...kept.warnings);
      t = Date.now();
      const changedEvents = kept.events
        .filter((e) => state.events.get(e.uid) !== eventSignature(e))
        .map((e) => ({
          ...e,
          objectId: state.known.get(objectKey({ kind: e.involvedKind, namespace: e.involvedNamespace, name: e.involvedName }))?.id ?? null,
        }));
      if (changedEvents.length) {
        const n = await upsertEvents(this.db, cluster.id, changedEvents);
        for (const e of changedEvents) state.events.set(e.uid, eventSignature(e));
        rowsWritten += n;
        this.metrics?.rowsWritten.inc({ table: "kube_event" }, n);
      }

      const result = {
        ok: !poll.error,
        latencyMs: Date.now() - started,
        requests,
        objectCount: [...state.known.values()].filter((k) => !k.deleted).length,
        kubernetesVersion: poll.kubernetesVersion,
        kubeletVersions: poll.kubeletVersions,
        fluxVersion: fluxVersionOf(poll.fluxReport, poll.fluxNamespaceVersion),
        fluxReport: poll.fluxReport,
        substitutions: poll.substitutions,
        healthCounts: healthCounts(state.known),
      };
      const versionChanges = kubeVersionChanges(cluster, result);
      // The change rows and the columns they compare against in one transaction: a crash cannot record one twice.
      const recorded = versionChanges.length ? await recordVersionsWithChanges(this.db, cluster.id, at, result, versionChanges) : 0;
      historyRows += recorded;
      if (recorded) this.markChanged(cluster.name);
      const flipped = this.noteOutcome(cluster, !poll.error);
      if (poll.error) {
        await recordPollFailure(this.db, cluster.id, at, { message: poll.error.message, kind: poll.error.kind }, result.latencyMs);
        this.metrics?.errors.inc({ cluster: cluster.name, kind: poll.error.kind });
        log.warn({ kind: poll.error.kind, error: poll.error.message }, "partial poll");
      } else {
        await this.successes.queue({ clusterId: cluster.id, at, poll: result });
        // Back from unreachable: write it now, so the web sees it reachable when told of the change.
        if (flipped) await this.successes.flush();
      }
      cluster.kubernetesVersion = poll.kubernetesVersion ?? cluster.kubernetesVersion;
      cluster.kubeletVersions = poll.kubeletVersions ?? cluster.kubeletVersions;
      cluster.fluxVersion = result.fluxVersion ?? cluster.fluxVersion;
      if (poll.warnings.length) log.debug({ warnings: poll.warnings }, "poll warnings");
      log.debug({ event: "poll-requests", requests, eventLists: kept.lists }, "poll requests");
      this.metrics?.requests.inc({ cluster: cluster.name, target: "kubernetes" }, requests);
      this.metrics?.pollSeconds.observe((Date.now() - started) / 1000);

      this.timing.writeMs += Date.now() - t;
      const eks = await this.eks.readCluster(cluster, at).catch((err) => {
        log.warn({ error: describeAwsError(err).message }, "EKS poll failed");
        return 0;
      });
      rowsWritten += eks;
      if (eks) this.markChanged(cluster.name);
      await this.notifyChanges();
      return { ok: !poll.error, objects: poll.records.length, rowsWritten, historyRows };
    } catch (err) {
      const e = err instanceof ClusterRequestError ? err : new ClusterRequestError(oneLine(err), "other");
      await recordPollFailure(this.db, cluster.id, at, { message: e.message, kind: e.kind }, Date.now() - started).catch((dbErr: unknown) =>
        log.warn({ error: oneLine(dbErr) }, "could not record the poll failure"),
      );
      this.metrics?.errors.inc({ cluster: cluster.name, kind: e.kind });
      log.warn({ kind: e.kind, error: e.message }, "cluster poll failed");
      this.noteOutcome(cluster, false);
      await this.notifyChanges();
      return { ok: false, objects: 0, rowsWritten, historyRows };
    }
  }

  /** Hub objects with spec.kubeConfig: the cluster each applies to, written when that changed. */
  private async writeTargets(clusterId: number, records: KubePollRecords, listedKinds: Set<string>): Promise<number> {
    // A kind whose LIST failed this time keeps what was stored.
    if (!listedKinds.has("Kustomization") || !listedKinds.has("HelmRelease")) return 0;
    const targets = objectTargets(records, this.clustersBySecret);
    const signature = JSON.stringify(targets);
    if (this.targetsWritten.get(clusterId) === signature) return 0;
    const n = await writeObjectTargets(this.db, clusterId, targets);
    // A hub release's target moves it into a spoke's column of the add-on matrix: more than the hub changed.
    if (n) this.markChanged("*");
    this.targetsWritten.set(clusterId, signature);
    return n;
  }

  /** EKS control plane, node groups, add-ons and insights, every eksIntervalSeconds per cluster. */
  /** EKS catalogs (daily), pruning (hourly), upstream charts (hourly). */
  private async fleetWideJobs(clusters: ClusterRow[]): Promise<number> {
    let written = await this.eks.readCatalogs();
    if (Date.now() - this.lastPruneAt > HOUR) {
      this.lastPruneAt = Date.now();
      const pruned = await pruneHistory(this.db, new Date(Date.now() - this.settings.retentionDays * 24 * HOUR));
      if (pruned) this.log.info({ rows: pruned }, "pruned history beyond retention");
    }
    if (this.settings.jobs?.upstreamVersions && Date.now() - this.lastUpstreamAt > HOUR) {
      this.lastUpstreamAt = Date.now();
      written += await refreshUpstreamVersions(this.db, this.log.child({ component: "upstream" }))
        .then((summary) => summary.updated)
        .catch((err) => {
          this.log.warn({ error: String(err) }, "upstream chart versions refresh failed");
          return 0;
        });
    }
    void clusters;
    return written;
  }

  /** Re-polls clusters with pending nudges (webhook, operator), if this replica holds or can take their lease. */
  async handlePendingNudges(): Promise<number> {
    const nudges = await pendingNudges(this.db);
    if (!nudges.length) return 0;
    const names = [...new Set(nudges.map((n) => n.clusterName))];
    const rows = await clustersByName(this.db, names);
    const known = new Set(rows.map((r) => r.name));
    let handled = 0;
    await Promise.all(
      rows.map(async (cluster) => {
        const ids = nudges.filter((n) => n.clusterName === cluster.name).map((n) => n.id);
        if (this.sessions.get(cluster.id)?.mode === "watching") {
          // Watched: the change arrives on the watch by itself.
          await markNudgesHandled(this.db, ids, new Date());
          handled += ids.length;
          return;
        }
        const got = await acquireLeases(this.db, this.replica, [cluster.id], this.leaseSeconds, 1);
        if (!got.length) return; // another replica holds it and hears the same nudge
        if (!this.heldLastCycle.has(cluster.id)) {
          this.states.delete(cluster.id);
          this.heldLastCycle.add(cluster.id);
        }
        this.leaseRenewedAt.set(cluster.id, Date.now());
        await this.pollClusterOnce(cluster);
        await this.successes.flush();
        await markNudgesHandled(this.db, ids, new Date());
        handled += ids.length;
      }),
    );
    // Nudges for clusters we do not know: nothing to poll; close them so they do not pile up.
    const unknown = nudges.filter((n) => !known.has(n.clusterName)).map((n) => n.id);
    await markNudgesHandled(this.db, unknown, new Date());
    return handled;
  }

  async runOperatorActions(): Promise<void> {
    if (!this.settings.jobs?.operatorActions) return;
    await processOperatorActions({
      pool: this.db,
      replicaId: this.replica,
      // Only actions on clusters this replica polls are claimed here.
      clusterNames: () => leasedClusterNames(this.db, this.replica),
      clientFor: (name: string) => this.clientByName(name),
    });
  }

  private async refreshGauges(): Promise<void> {
    if (!this.metrics) return;
    const rows = await objectHealthTotals(this.db, new Date());
    this.metrics.objects.reset();
    for (const r of rows) this.metrics.objects.set({ kind: r.kind, health: r.health }, r.n);
    this.metrics.clusters.reset();
    for (const r of await reachabilityTotals(this.db)) this.metrics.clusters.set({ reachability: r.reachability }, r.n);
  }

  /** Gives back every lease and closes connections (shutdown). */
  async close(): Promise<void> {
    clearInterval(this.heartbeatTimer);
    this.successes.stopTimer();
    await Promise.allSettled([...this.sessions.values()].map((s) => s.stop({ flush: true })));
    this.sessions.clear();
    await Promise.allSettled([...this.inFlight.values()]);
    await this.successes.flush().catch((err: unknown) => this.log.warn({ error: oneLine(err) }, "last poll successes not recorded"));
    await releaseLeases(this.db, this.replica).catch((err: unknown) =>
      this.log.warn({ error: oneLine(err) }, "leases not released; other replicas take them when they expire"),
    );
    await this.watchedHub?.close();
    this.eks.close();
    releaseAgents();
  }
}
