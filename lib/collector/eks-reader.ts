// What the collector reads from the EKS API: one client per region, DescribeCluster answers kept for
// connecting, each cluster's snapshot (cluster, node groups, add-ons, insights) on its own interval, and the
// fleet-wide catalogs (EKS versions, add-on versions per Kubernetes version in use), each daily.
import type pg from "pg";
import type { AwsCredentials } from "../aws/credentials";
import { describeAwsError, EksApi, eksClusterKey, type EksClusterInfo } from "../aws/eks";
import type { ClusterRow } from "../db/writes/clusters";
import { eksVersionsInUse } from "../db/writes/clusters";
import {
  eksVersionsFetchedAt,
  recordEksError,
  staleCatalogVersions,
  writeAddonCatalog,
  writeEksSnapshot,
  writeEksVersions,
} from "../db/writes/eks";
import type { Logger } from "../logger";

const DAY_MS = 24 * 60 * 60_000;
/** Endpoints and CAs rarely change: connecting reuses a DescribeCluster answer this long. */
const DESCRIBE_MAX_AGE_MS = 10 * 60_000;

export interface EksReaderOptions {
  aws: AwsCredentials | null;
  /** Regions whose clusters are read (and discovered); empty: the EKS API is not used. */
  regions: string[];
  endpoint?: string;
  timeoutMs: number;
  /** A cluster's snapshot is read at most this often (unless forced). */
  intervalSeconds: number;
  /** Every EKS request sent (metrics, the cycle's summary). */
  onRequest(ok: boolean): void;
  /** DescribeCluster failed for this cluster: what Crossplane says about it should be written again. */
  onDescribeFailed(clusterId: number): void;
  log: Logger;
}

/**
 * A read is due once most of the interval has passed: the timers that ask for it run at the interval
 * themselves, a little less after the last read than the interval, and an exact check skipped every other
 * one (a 5-minute setting read every 10 minutes).
 */
export function isDue(lastReadAt: number | undefined, intervalMs: number, now: number): boolean {
  return lastReadAt === undefined || now - lastReadAt >= intervalMs * 0.9;
}

export class EksReader {
  private readonly apis = new Map<string, EksApi>();
  private readonly described = new Map<string, { at: number; info: EksClusterInfo }>();
  private readonly lastRead = new Map<number, number>();
  private readonly listed = new Map<string, { at: number; names: string[] }>();
  /** Clusters' EKS facts read so far (calls that found them not due yet are not counted). */
  reads = 0;

  constructor(
    private readonly db: pg.Pool,
    private readonly options: EksReaderOptions,
  ) {
    for (const region of options.regions) this.api(region);
  }

  /** The EKS client of a region (made once). */
  api(region: string): EksApi {
    let api = this.apis.get(region);
    if (!api) {
      api = new EksApi({
        region,
        credentials: this.options.aws!.provider(null, region),
        endpoint: this.options.endpoint,
        timeoutMs: this.options.timeoutMs,
        onRequest: ({ ok }) => this.options.onRequest(ok),
      });
      this.apis.set(region, api);
    }
    return api;
  }

  /** The clients of the configured regions (discovery lists their clusters). */
  regionApis(): EksApi[] {
    return this.options.regions.map((r) => this.api(r));
  }

  /**
   * The region's cluster names, listed again once the EKS interval has (mostly) passed. Discovery asks every
   * cycle, and ListClusters at 1,000 clusters is ten SDK calls (discovery's idle CPU fell from 0.0011–0.0013
   * to 0.0004–0.0005 cores without them), for a list that changes when a cluster is created or deleted (which
   * takes EKS itself ten minutes or more). A failed list is not kept: the next cycle asks again.
   */
  async clusterNames(api: Pick<EksApi, "region" | "listClusters">): Promise<string[]> {
    const last = this.listed.get(api.region);
    if (last && !isDue(last.at, this.options.intervalSeconds * 1000, Date.now())) return last.names;
    const names = await api.listClusters();
    this.listed.set(api.region, { at: Date.now(), names });
    return names;
  }

  /**
   * DescribeCluster, answered from the last answer when it is younger than `maxAgeMs`. An answer read again
   * and found unchanged is the same object as before: discovery tells an unchanged EKS fleet by identity,
   * without serializing a thousand answers every cycle.
   */
  async describe(api: EksApi, name: string, maxAgeMs = DESCRIBE_MAX_AGE_MS): Promise<EksClusterInfo> {
    const key = eksClusterKey(api.region, name);
    const hit = this.described.get(key);
    if (hit && Date.now() - hit.at < maxAgeMs) return hit.info;
    const answer = await api.describeCluster(name);
    const info = hit && JSON.stringify(hit.info) === JSON.stringify(answer) ? hit.info : answer;
    this.described.set(key, { at: Date.now(), info });
    return info;
  }

  /**
   * The cluster's EKS snapshot when due (or at once with `force`); the rows written. A DescribeCluster that
   * fails is kept on the cluster (pages say why its EKS facts are old or come from Crossplane); a part that
   * could not be read is stored as not read (null), never as empty.
   */
  async readCluster(cluster: ClusterRow, at: Date, force = false): Promise<number> {
    const { region, eksName: name } = cluster;
    if (!this.options.aws || !region || !name || !this.options.regions.includes(region)) return 0;
    if (!force && !isDue(this.lastRead.get(cluster.id), this.options.intervalSeconds * 1000, Date.now())) return 0;
    this.reads++;
    const api = this.api(region);
    let info: EksClusterInfo;
    try {
      info = await this.describe(api, name, 0);
    } catch (err) {
      this.lastRead.set(cluster.id, Date.now());
      this.options.onDescribeFailed(cluster.id);
      const message = describeAwsError(err).message;
      this.options.log.debug({ cluster: cluster.name, error: message }, "EKS DescribeCluster failed");
      return recordEksError(this.db, cluster.id, at, message);
    }
    const notRead = (part: string) => (err: unknown) => {
      this.options.log.debug({ cluster: cluster.name, part, error: describeAwsError(err).message }, "EKS read failed");
      return null;
    };
    const [nodeGroups, addons, insights] = await Promise.all([
      api.nodeGroups(name).catch(notRead("node groups")),
      api.addons(name).catch(notRead("add-ons")),
      api.insights(name).catch(notRead("insights")),
    ]);
    const n = await writeEksSnapshot(this.db, cluster.id, at, { cluster: info, nodeGroups, addons, insights });
    this.lastRead.set(cluster.id, Date.now());
    return n;
  }

  /** DescribeClusterVersions and DescribeAddonVersions per Kubernetes version in use (and the next), each daily. */
  async readCatalogs(): Promise<number> {
    const region = this.options.regions[0];
    if (!region) return 0;
    const api = this.api(region);
    let written = 0;
    const fetched = await eksVersionsFetchedAt(this.db);
    if (!fetched || Date.now() - fetched.getTime() > DAY_MS) {
      written += await writeEksVersions(this.db, await api.clusterVersions()).catch((err) => {
        this.options.log.warn({ error: describeAwsError(err).message }, "DescribeClusterVersions failed");
        return 0;
      });
    }
    const inUse = new Set(await eksVersionsInUse(this.db));
    // The next version too: "latest compatible after the upgrade".
    for (const v of [...inUse]) {
      const [major, minor] = v.split(".").map(Number);
      if (Number.isFinite(minor)) inUse.add(`${major}.${minor + 1}`);
    }
    for (const version of await staleCatalogVersions(this.db, [...inUse], DAY_MS)) {
      written += await api
        .addonVersions(version)
        .then((entries) => writeAddonCatalog(this.db, version, entries))
        .catch((err) => {
          this.options.log.warn({ version, error: describeAwsError(err).message }, "DescribeAddonVersions failed");
          return 0;
        });
    }
    return written;
  }

  close(): void {
    for (const api of this.apis.values()) api.destroy();
  }
}
