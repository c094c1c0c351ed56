// Authenticated clients per cluster: the seam other collector jobs use (operator actions, upstream checks).
// A client is built from the cluster's access paths every time (connection secrets are re-read; EKS
// tokens are minted from the collector's AWS identity and cached until a minute before expiry).
import type { KubeConfig } from "@kubernetes/client-node";
import type { AwsCredentials } from "../aws/credentials";
import type { EksClusterInfo } from "../aws/eks";
import { EksTokenCache, mintEksToken } from "../aws/eks-token";
import { createClusterClient, type ClientOptions, type KubeClusterClient } from "../kube/client";
import { ClusterRequestError } from "../kube/errors";
import { fromParts, kubeconfigFromSecret, KubeconfigError } from "../kube/kubeconfig";
import { accessProblem, parseArgoClusterSecret } from "../kube/argocd/cluster-secret";
import { argoKubeconfig } from "../kube/argocd/connection";
import { VIA_ORDER, type SecretStore } from "./discovery";
import { secretObject } from "./discovery/secret-store";
import type { AccessPath } from "../db/types";
import { oneLine } from "../errors";

export type { KubeClusterClient } from "../kube/client";

export interface ClusterAccess {
  name: string;
  role: string;
  accessPaths: AccessPath[];
  eksName: string | null;
  region: string | null;
  endpoint: string | null;
}

export interface ConnectionContext {
  hubConfig: KubeConfig;
  /** Secrets of this cycle, or a store that GETs them fresh. */
  secrets: SecretStore;
  aws: AwsCredentials | null;
  stsEndpoint?: string;
  tokens: EksTokenCache;
  /** Endpoint and CA of an EKS cluster (DescribeCluster, cached), for the IRSA path. */
  describeEks?: (name: string, region: string) => Promise<EksClusterInfo | undefined>;
  client: ClientOptions;
}

/**
 * An EKS bearer token for a cluster, from the collector's own AWS identity; `assumeRole` (an Argo CD
 * awsAuthConfig.roleARN) is assumed first, else the configured EKS_ASSUME_ROLES apply.
 */
async function eksToken(ctx: ConnectionContext, eksName: string, region: string, assumeRole: string | null = null): Promise<string> {
  const aws = ctx.aws;
  if (!aws) throw new ClusterRequestError("no AWS identity configured for EKS tokens (set EKS_REGIONS or AWS credentials)", "auth");
  const identity = assumeRole
    ? aws.forRole(assumeRole, region).then((credentials) => ({ credentials, roleArn: assumeRole }))
    : aws.forCluster(eksName, region);
  const { credentials, roleArn } = await identity.catch((err: unknown) => {
    throw new ClusterRequestError(`AWS credentials unavailable${assumeRole ? ` (assuming ${assumeRole})` : ""}: ${oneLine(err)}`, "auth");
  });
  const key = `${roleArn ?? credentials.accessKeyId}|${region}|${eksName}`;
  const { token } = await ctx.tokens.get(key, () =>
    mintEksToken({ clusterName: eksName, region, credentials, stsEndpoint: ctx.stsEndpoint }),
  );
  return token;
}

/** The kubeconfig to reach a cluster now, trying its access paths in order of preference. */
export async function kubeconfigFor(cluster: ClusterAccess, ctx: ConnectionContext): Promise<KubeConfig> {
  const paths = [...cluster.accessPaths].sort((a, b) => VIA_ORDER.indexOf(a.via) - VIA_ORDER.indexOf(b.via));
  if (cluster.role === "hub" || paths[0]?.via === "hub") return ctx.hubConfig;
  let lastError: Error | undefined;
  for (const path of paths) {
    if (path.via === "eks") {
      const region = path.region ?? cluster.region;
      const name = cluster.eksName ?? cluster.name;
      if (!region) continue;
      const info = await ctx.describeEks?.(name, region);
      if (!info?.endpoint) {
        lastError = new ClusterRequestError(`EKS cluster ${name} has no endpoint yet`, "other");
        continue;
      }
      return fromParts({
        name: cluster.name,
        server: info.endpoint,
        caData: info.caData ?? undefined,
        token: await eksToken(ctx, name, region),
      });
    }
    if (!path.secretNamespace || !path.secretName) continue;
    if (path.via === "argocd-secret") {
      const found = await fromArgoSecret(cluster, path, ctx);
      if (found instanceof Error) lastError = found;
      else return found;
      continue;
    }
    const secret = await ctx.secrets.get(path.secretNamespace, path.secretName);
    if (!secret) {
      // Crossplane writes it once the cluster exists: usually a cluster still being created (or failing to be).
      lastError = new ClusterRequestError(
        `connection secret ${path.secretNamespace}/${path.secretName} not found (cluster not provisioned yet?)`,
        "other",
      );
      continue;
    }
    try {
      return kubeconfigFromSecret(secret.data, { namespace: path.secretNamespace, name: path.secretName, key: path.key }).kubeConfig;
    } catch (err) {
      // Endpoint and CA without a credential: authenticate with an EKS token from our own identity.
      const endpointB64 = secret.data.endpoint ?? secret.data["apiserver-endpoint"];
      const caB64 = secret.data.clusterCA ?? secret.data["cluster-ca"];
      const region = cluster.region;
      if (endpointB64 && region && err instanceof KubeconfigError) {
        const server = Buffer.from(endpointB64, "base64").toString("utf8");
        const caPem = caB64 ? Buffer.from(caB64, "base64").toString("utf8") : undefined;
        const token = await eksToken(ctx, cluster.eksName ?? cluster.name, region);
        return fromParts({ name: cluster.name, server: server.startsWith("http") ? server : `https://${server}`, caPem, token });
      }
      lastError = err instanceof Error ? new ClusterRequestError(err.message, "auth") : new ClusterRequestError(String(err), "auth");
    }
  }
  throw lastError ?? new ClusterRequestError("no way to reach this cluster (no connection secret and no EKS access)", "other");
}

/** The way in an Argo CD cluster secret describes, or why it cannot be used. */
async function fromArgoSecret(cluster: ClusterAccess, path: AccessPath, ctx: ConnectionContext): Promise<KubeConfig | Error> {
  const where = `Argo CD cluster secret ${path.secretNamespace}/${path.secretName}`;
  const secret = await ctx.secrets.get(path.secretNamespace!, path.secretName!);
  if (!secret) return new ClusterRequestError(`${where} not found`, "other");
  const parsed = parseArgoClusterSecret(secretObject(secret));
  if (!parsed.ok) return new ClusterRequestError(`${where}: ${parsed.problem}`, "auth");
  const { access, inCluster } = parsed.cluster;
  if (inCluster) return ctx.hubConfig;
  const problem = accessProblem(access);
  if (problem) return new ClusterRequestError(problem, "auth");
  let token: string | undefined;
  if (access.auth.type === "eks-token") {
    const region = parsed.cluster.region ?? path.region ?? cluster.region;
    if (!region) return new ClusterRequestError(`${where}: awsAuthConfig needs the cluster's region (annotation aws_region)`, "auth");
    token = await eksToken(ctx, access.auth.clusterName, region, access.auth.roleArn);
  }
  return argoKubeconfig(cluster.name, access, token);
}

export async function connectCluster(cluster: ClusterAccess, ctx: ConnectionContext): Promise<KubeClusterClient> {
  const kc = await kubeconfigFor(cluster, ctx);
  return createClusterClient(cluster.name, kc, ctx.client);
}
