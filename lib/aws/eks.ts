// The EKS API, as the collector needs it, mapped to our own types (EKS SDK shapes stay in this file).
import {
  DescribeAddonCommand,
  DescribeAddonVersionsCommand,
  DescribeClusterCommand,
  DescribeClusterVersionsCommand,
  DescribeInsightCommand,
  DescribeNodegroupCommand,
  EKSClient,
  ListAddonsCommand,
  ListClustersCommand,
  ListInsightsCommand,
  ListNodegroupsCommand,
  type Addon,
  type AddonInfo,
  type AddonVersionInfo,
  type Cluster,
  type ClusterVersionInformation,
  type Insight,
  type InsightSummary,
  type Nodegroup,
} from "@aws-sdk/client-eks";
import type { CredentialSource } from "./credentials";
import { oneLine } from "../errors";

/** A DescribeCluster answer's key where answers of several regions are kept: `region/name` (names have no slash). */
export function eksClusterKey(region: string, name: string): string {
  return `${region}/${name}`;
}

/** The region and name an eksClusterKey was made of. */
export function splitEksClusterKey(key: string): { region: string; name: string } {
  const slash = key.indexOf("/");
  return { region: key.slice(0, slash), name: key.slice(slash + 1) };
}

export interface EksClusterInfo {
  name: string;
  arn: string | null;
  region: string;
  accountId: string | null;
  endpoint: string | null;
  caData: string | null;
  version: string | null;
  platformVersion: string | null;
  status: string | null;
  supportType: string | null;
  health: Array<{ code: string | null; message: string | null }>;
  tags: Record<string, string>;
}

export interface EksNodeGroupInfo {
  name: string;
  version: string | null;
  releaseVersion: string | null;
  status: string | null;
  capacityType: string | null;
  amiType: string | null;
  instanceTypes: string[];
  desiredSize: number | null;
  minSize: number | null;
  maxSize: number | null;
  health: Array<{ code: string | null; message: string | null }>;
}

export interface EksAddonInfo {
  name: string;
  version: string | null;
  status: string | null;
  health: Array<{ code: string | null; message: string | null }>;
}

export interface AddonCatalogEntry {
  addonName: string;
  versions: Array<{ addonVersion: string; defaultVersion: boolean }>;
}

export interface EksVersionInfo {
  clusterVersion: string;
  versionStatus: string | null;
  releaseDate: Date | null;
  endOfStandardSupportDate: Date | null;
  endOfExtendedSupportDate: Date | null;
  defaultPlatformVersion: string | null;
  defaultVersion: boolean;
}

export interface EksInsightInfo {
  insightId: string;
  name: string;
  category: string;
  kubernetesVersion: string | null;
  status: string;
  reason: string | null;
  description: string | null;
  recommendation: string | null;
  resources: unknown[];
  details: Record<string, unknown>;
  lastRefreshTime: Date | null;
}

export interface EksApiOptions {
  region: string;
  credentials: CredentialSource;
  endpoint?: string;
  timeoutMs: number;
  onRequest?: (outcome: { ok: boolean; ms: number }) => void;
}

const issues = (h: { issues?: Array<{ code?: string; message?: string }> } | undefined) =>
  (h?.issues ?? []).map((i) => ({ code: i.code ?? null, message: i.message ?? null }));

const accountOf = (arn: string | undefined) => (arn ? (/^arn:[^:]+:eks:[^:]+:(\d{12}):/.exec(arn)?.[1] ?? null) : null);

/** One region's EKS API through one SDK client (keep-alive and retries with backoff come from the SDK). */
export class EksApi {
  readonly region: string;
  private readonly client: EKSClient;
  private readonly onRequest?: EksApiOptions["onRequest"];
  requests = 0;

  constructor(options: EksApiOptions) {
    this.region = options.region;
    this.onRequest = options.onRequest;
    this.client = new EKSClient({
      region: options.region,
      credentials: options.credentials,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      maxAttempts: 3,
      requestHandler: { requestTimeout: options.timeoutMs, connectionTimeout: Math.min(options.timeoutMs, 5000) },
    });
  }

  destroy(): void {
    this.client.destroy();
  }

  private async send<T>(command: unknown): Promise<T> {
    const started = Date.now();
    this.requests++;
    try {
      const out = (await this.client.send(command as never)) as T;
      this.onRequest?.({ ok: true, ms: Date.now() - started });
      return out;
    } catch (err) {
      this.onRequest?.({ ok: false, ms: Date.now() - started });
      throw err;
    }
  }

  async listClusters(): Promise<string[]> {
    const names: string[] = [];
    let nextToken: string | undefined;
    do {
      const out = await this.send<{ clusters?: string[]; nextToken?: string }>(new ListClustersCommand({ maxResults: 100, nextToken }));
      names.push(...(out.clusters ?? []));
      nextToken = out.nextToken;
    } while (nextToken);
    return names;
  }

  async describeCluster(name: string): Promise<EksClusterInfo> {
    const out = await this.send<{ cluster?: Cluster }>(new DescribeClusterCommand({ name }));
    const c: Cluster = out.cluster ?? {};
    return {
      name: c.name ?? name,
      arn: c.arn ?? null,
      region: this.region,
      accountId: accountOf(c.arn),
      endpoint: c.endpoint ?? null,
      caData: c.certificateAuthority?.data ?? null,
      version: c.version ?? null,
      platformVersion: c.platformVersion ?? null,
      status: c.status ?? null,
      supportType: c.upgradePolicy?.supportType ?? null,
      health: issues(c.health),
      tags: c.tags ?? {},
    };
  }

  async nodeGroups(clusterName: string): Promise<EksNodeGroupInfo[]> {
    const names: string[] = [];
    let nextToken: string | undefined;
    do {
      const out = await this.send<{ nodegroups?: string[]; nextToken?: string }>(new ListNodegroupsCommand({ clusterName, nextToken }));
      names.push(...(out.nodegroups ?? []));
      nextToken = out.nextToken;
    } while (nextToken);
    return Promise.all(
      names.map(async (nodegroupName) => {
        const out = await this.send<{ nodegroup?: Nodegroup }>(new DescribeNodegroupCommand({ clusterName, nodegroupName }));
        const n: Nodegroup = out.nodegroup ?? {};
        return {
          name: n.nodegroupName ?? nodegroupName,
          version: n.version ?? null,
          releaseVersion: n.releaseVersion ?? null,
          status: n.status ?? null,
          capacityType: n.capacityType ?? null,
          amiType: n.amiType ?? null,
          instanceTypes: n.instanceTypes ?? [],
          desiredSize: n.scalingConfig?.desiredSize ?? null,
          minSize: n.scalingConfig?.minSize ?? null,
          maxSize: n.scalingConfig?.maxSize ?? null,
          health: issues(n.health),
        };
      }),
    );
  }

  async addons(clusterName: string): Promise<EksAddonInfo[]> {
    const names: string[] = [];
    let nextToken: string | undefined;
    do {
      const out = await this.send<{ addons?: string[]; nextToken?: string }>(new ListAddonsCommand({ clusterName, nextToken }));
      names.push(...(out.addons ?? []));
      nextToken = out.nextToken;
    } while (nextToken);
    return Promise.all(
      names.map(async (addonName) => {
        const out = await this.send<{ addon?: Addon }>(new DescribeAddonCommand({ clusterName, addonName }));
        const a: Addon = out.addon ?? {};
        return { name: a.addonName ?? addonName, version: a.addonVersion ?? null, status: a.status ?? null, health: issues(a.health) };
      }),
    );
  }

  /** DescribeAddonVersions for one Kubernetes version: per add-on, versions newest first with the default marked. */
  async addonVersions(kubernetesVersion: string): Promise<AddonCatalogEntry[]> {
    const out: AddonCatalogEntry[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.send<{ addons?: AddonInfo[]; nextToken?: string }>(
        new DescribeAddonVersionsCommand({ kubernetesVersion, nextToken, maxResults: 100 }),
      );
      for (const a of page.addons ?? []) {
        if (!a.addonName) continue;
        out.push({
          addonName: a.addonName,
          versions: (a.addonVersions ?? [])
            .filter((v: AddonVersionInfo) => !!v.addonVersion)
            .map((v: AddonVersionInfo) => ({
              addonVersion: v.addonVersion!,
              defaultVersion: (v.compatibilities ?? []).some((c) => c.clusterVersion === kubernetesVersion && c.defaultVersion === true),
            })),
        });
      }
      nextToken = page.nextToken;
    } while (nextToken);
    return out;
  }

  async clusterVersions(): Promise<EksVersionInfo[]> {
    const out: EksVersionInfo[] = [];
    let nextToken: string | undefined;
    const date = (d: unknown) => (d instanceof Date ? d : typeof d === "string" || typeof d === "number" ? new Date(d) : null);
    do {
      const page = await this.send<{ clusterVersions?: ClusterVersionInformation[]; nextToken?: string }>(
        new DescribeClusterVersionsCommand({ includeAll: true, nextToken }),
      );
      for (const v of page.clusterVersions ?? []) {
        if (!v.clusterVersion) continue;
        out.push({
          clusterVersion: v.clusterVersion,
          versionStatus: v.versionStatus ?? null,
          releaseDate: date(v.releaseDate),
          endOfStandardSupportDate: date(v.endOfStandardSupportDate),
          endOfExtendedSupportDate: date(v.endOfExtendedSupportDate),
          defaultPlatformVersion: v.defaultPlatformVersion ?? null,
          defaultVersion: v.defaultVersion === true,
        });
      }
      nextToken = page.nextToken;
    } while (nextToken);
    return out;
  }

  async insights(clusterName: string): Promise<EksInsightInfo[]> {
    const summaries: InsightSummary[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.send<{ insights?: InsightSummary[]; nextToken?: string }>(
        new ListInsightsCommand({ clusterName, nextToken }),
      );
      summaries.push(...(page.insights ?? []));
      nextToken = page.nextToken;
    } while (nextToken);
    return Promise.all(
      summaries.map(async (s) => {
        const out = await this.send<{ insight?: Insight }>(new DescribeInsightCommand({ clusterName, id: s.id }));
        const i: Insight = out.insight ?? s;
        return {
          insightId: i.id ?? s.id ?? "",
          name: i.name ?? s.name ?? "",
          category: i.category ?? s.category ?? "",
          kubernetesVersion: i.kubernetesVersion ?? null,
          status: i.insightStatus?.status ?? "UNKNOWN",
          reason: i.insightStatus?.reason ?? null,
          description: i.description ?? null,
          recommendation: i.recommendation ?? null,
          resources: i.resources ?? [],
          details: { categorySpecificSummary: i.categorySpecificSummary ?? null, additionalInfo: i.additionalInfo ?? null },
          lastRefreshTime: i.lastRefreshTime instanceof Date ? i.lastRefreshTime : null,
        };
      }),
    );
  }
}

/** A short, credential-free description of an AWS SDK error. */
export function describeAwsError(err: unknown): {
  message: string;
  kind: "auth" | "timeout" | "dns" | "refused" | "tls" | "http" | "other";
  status?: number;
} {
  const e = err as { name?: string; message?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  const name = e?.name ?? "Error";
  const message = `${name}: ${oneLine(err)}`.slice(0, 500);
  if (
    status === 401 ||
    status === 403 ||
    /AccessDenied|Unauthorized|ExpiredToken|InvalidClientTokenId|SignatureDoesNotMatch|CredentialsProviderError/.test(name)
  ) {
    return { message, kind: "auth", status };
  }
  if (e?.code === "ECONNREFUSED") return { message, kind: "refused" };
  if (e?.code === "ENOTFOUND") return { message, kind: "dns" };
  if (/Timeout|ETIMEDOUT/.test(name + (e?.code ?? ""))) return { message, kind: "timeout" };
  if (status) return { message, kind: "http", status };
  return { message, kind: "other" };
}
