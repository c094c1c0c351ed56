// Kubeconfigs the collector uses: the hub's (in-cluster, KUBECONFIG or a file), the ones in connection
// secrets (Flux `value`/`value.yaml`, Crossplane `kubeconfig`, or `endpoint` + `clusterCA` + `token`), and
// ones built from an EKS DescribeCluster answer with a freshly minted token.
import { KubeConfig } from "@kubernetes/client-node";
import type { ConnectionSecretState, SecretRef } from "./types";

export class KubeconfigError extends Error {
  override name = "KubeconfigError";
}

/** Keys a connection secret may hold its kubeconfig under, in order of preference. */
export const KUBECONFIG_KEYS = ["value", "value.yaml", "kubeconfig"] as const;

export function loadHubConfig(options: { kubeconfigPath?: string; context?: string }): KubeConfig {
  const kc = new KubeConfig();
  try {
    if (options.kubeconfigPath && !options.kubeconfigPath.includes(":")) kc.loadFromFile(options.kubeconfigPath);
    else kc.loadFromDefault();
  } catch (err) {
    throw new KubeconfigError(`cannot load the hub kubeconfig: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (options.context) {
    if (!kc.getContextObject(options.context)) throw new KubeconfigError(`HUB_CONTEXT ${options.context} is not in the kubeconfig`);
    kc.setCurrentContext(options.context);
  }
  if (!kc.getCurrentCluster()?.server) throw new KubeconfigError("the hub kubeconfig has no current cluster");
  return kc;
}

export interface SecretKubeconfig {
  kubeConfig: KubeConfig;
  server: string;
  /** Name of the cluster entry in the kubeconfig (Crossplane writes the EKS cluster name or ARN). */
  clusterEntryName: string;
  /** The secret key the kubeconfig came from ("" when built from endpoint/clusterCA/token). */
  key: string;
}

const decode = (data: Record<string, string> | undefined, key: string): string | undefined => {
  const v = data?.[key];
  return typeof v === "string" && v ? Buffer.from(v, "base64").toString("utf8") : undefined;
};

/** A client-node KubeConfig from a Secret's `data` (base64 values), or an error naming what is missing. */
export function kubeconfigFromSecret(data: Record<string, string> | undefined, ref: SecretRef): SecretKubeconfig {
  const keys = ref.key ? [ref.key, ...KUBECONFIG_KEYS] : [...KUBECONFIG_KEYS];
  for (const key of keys) {
    const text = decode(data, key);
    if (!text) continue;
    const kc = new KubeConfig();
    try {
      kc.loadFromString(text);
    } catch {
      throw new KubeconfigError(`secret ${ref.namespace}/${ref.name} key ${key} is not a valid kubeconfig`);
    }
    const cluster = kc.getCurrentCluster();
    if (!cluster?.server) throw new KubeconfigError(`kubeconfig in secret ${ref.namespace}/${ref.name} has no current cluster`);
    return { kubeConfig: kc, server: cluster.server, clusterEntryName: cluster.name, key };
  }
  const endpoint = decode(data, "endpoint");
  const ca = decode(data, "clusterCA");
  const token = decode(data, "token");
  if (endpoint && token) {
    const server = endpoint.startsWith("http") ? endpoint : `https://${endpoint}`;
    const kc = fromParts({ name: ref.name, server, caPem: ca, token });
    return { kubeConfig: kc, server, clusterEntryName: ref.name, key: "" };
  }
  throw new KubeconfigError(`secret ${ref.namespace}/${ref.name} holds no kubeconfig (keys ${keys.join(", ")}) nor endpoint + token`);
}

/** A kubeconfig for one cluster from its endpoint, CA (PEM or base64 of PEM) and a bearer token. */
export function fromParts(parts: { name: string; server: string; caPem?: string; caData?: string; token: string }): KubeConfig {
  const kc = new KubeConfig();
  const caData = parts.caData ?? (parts.caPem ? Buffer.from(parts.caPem, "utf8").toString("base64") : undefined);
  kc.loadFromOptions({
    clusters: [{ name: parts.name, server: parts.server, caData, skipTLSVerify: false }],
    users: [{ name: parts.name, token: parts.token }],
    contexts: [{ name: parts.name, cluster: parts.name, user: parts.name }],
    currentContext: parts.name,
  });
  return kc;
}

/**
 * What a connection secret offers: nothing yet ("empty": Crossplane publishes it empty on its first reconcile),
 * or a way in ("kubeconfig": a kubeconfig, or an endpoint to use with an EKS token).
 */
export function connectionSecretState(data: Record<string, string> | undefined, key?: string): ConnectionSecretState {
  if (!data) return "missing";
  const keys = [...(key ? [key] : []), ...KUBECONFIG_KEYS, "endpoint", "apiserver-endpoint"];
  return keys.some((k) => typeof data[k] === "string" && data[k] !== "") ? "kubeconfig" : "empty";
}

/** Normalised endpoint for matching one cluster seen through several paths. */
export function normaliseEndpoint(server: string | null | undefined): string | null {
  if (!server) return null;
  try {
    const u = new URL(server.startsWith("http") ? server : `https://${server}`);
    const port = u.port || (u.protocol === "https:" ? "443" : "80");
    return `${u.hostname.toLowerCase()}:${port}`;
  } catch {
    return null;
  }
}
