// Argo CD cluster secrets: how Argo CD reaches each cluster it deploys to, and the cluster metadata the
// GitOps Bridge writes into their labels and annotations. Parsing follows Argo CD v3.5 (util/db/cluster.go
// SecretToCluster and Cluster.RawRestConfig): the same keys, the same precedence, the same failures. One
// bad secret yields a problem for that secret only; secrets never throw.
import {
  CLUSTER_SECRET_TYPE_LABEL,
  IN_CLUSTER_NAME,
  IN_CLUSTER_SERVER,
  type ArgoClusterAccess,
  type ArgoClusterAuth,
  type ArgoClusterSecret,
  type ArgoClusterSecretResult,
  type ArgoDestinationCluster,
  type GitOpsBridgeFacts,
  type RepoCoordinates,
} from "./types";

type Raw = Record<string, unknown>;
const obj = (v: unknown): Raw => (v && typeof v === "object" && !Array.isArray(v) ? (v as Raw) : {});
const strMap = (v: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(obj(v)).filter((entry): entry is [string, string] => typeof entry[1] === "string"));

const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
const MANAGED_BY = "managed-by";
const SKIP_RECONCILE = "argocd.argoproj.io/skip-reconcile";

class SecretProblem extends Error {}

const STD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict standard base64 (what Kubernetes stores in Secret data and Go writes for []byte); throws on garbage. */
function decodeBase64(text: string, what: string): Buffer {
  const compact = text.replace(/[\r\n]/g, ""); // Go's decoder skips line breaks
  if (compact.length % 4 !== 0 || !STD_BASE64.test(compact)) throw new SecretProblem(`${what} is not valid base64`);
  return Buffer.from(compact, "base64");
}

/** Secret data as text: `data` is base64 (what the API returns), `stringData` plain (manifests) and wins, as on write. */
function secretValues(raw: Raw): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(obj(raw.data))) {
    if (typeof value !== "string") throw new SecretProblem(`data.${key} is not a string`);
    out[key] = decodeBase64(value, `data.${key}`).toString("utf8");
  }
  for (const [key, value] of Object.entries(strMap(raw.stringData))) out[key] = value;
  return out;
}

/** Go's encoding/json matches field names exactly first, then case-insensitively. */
function field(o: Raw, name: string): unknown {
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  const key = Object.keys(o).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : o[key];
}

function typed<T>(o: Raw, name: string, path: string, type: "string" | "boolean" | "object"): T | undefined {
  const value = field(o, name);
  if (value === undefined || value === null) return undefined;
  const actual = Array.isArray(value) ? "array" : typeof value;
  if (actual !== type) throw new SecretProblem(`config: ${path} must be a ${type === "object" ? "JSON object" : type}, not ${actual}`);
  return value as T;
}

/** A `[]byte` field of the config: standard base64 of a PEM block. */
function pemField(o: Raw, name: string, path: string, marker: RegExp): string | null {
  const value = typed<string>(o, name, path, "string");
  if (!value) return null;
  const text = decodeBase64(value, `config: ${path}`).toString("utf8");
  if (!marker.test(text))
    throw new SecretProblem(`config: ${path} is base64 but not of a PEM ${name === "keyData" ? "private key" : "certificate"}`);
  return text;
}

/** The config JSON, with JSON.parse's message reduced to a position (the default message quotes the text, which may hold a token). */
function parseConfig(text: string | undefined): Raw {
  if (text === undefined || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec(String((error as Error).message))?.[1];
    throw new SecretProblem(`config is not valid JSON${position ? ` (at character ${position})` : ""}`);
  }
  if (parsed === null) return {};
  if (typeof parsed !== "object" || Array.isArray(parsed)) throw new SecretProblem("config must be a JSON object");
  return parsed as Raw;
}

const EKS_TOKEN_FLAGS = { cluster: "--cluster-name", role: "--role-arn", profile: "--profile" };

/** `argocd-k8s-auth aws …` and `aws eks get-token …` mint the same EKS token we can mint ourselves. */
function eksTokenFromExec(command: string, args: string[]): Extract<ArgoClusterAuth, { type: "eks-token" }> | null {
  const base = command.split("/").pop() ?? command;
  const rest =
    base === "argocd-k8s-auth" && args[0] === "aws"
      ? args.slice(1)
      : base === "aws" && args[0] === "eks" && args[1] === "get-token"
        ? args.slice(2)
        : null;
  if (!rest) return null;
  const flag = (name: string): string | null => {
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === name) return rest[i + 1] ?? null;
      if (rest[i].startsWith(`${name}=`)) return rest[i].slice(name.length + 1);
    }
    return null;
  };
  const clusterName = flag(EKS_TOKEN_FLAGS.cluster);
  if (!clusterName) return null;
  return { type: "eks-token", clusterName, roleArn: flag(EKS_TOKEN_FLAGS.role), profile: flag(EKS_TOKEN_FLAGS.profile), via: "exec" };
}

function parseAccess(server: string, config: Raw, warnings: string[]): ArgoClusterAccess {
  const tls = obj(typed<Raw>(config, "tlsClientConfig", "tlsClientConfig", "object"));
  const caPem = pemField(tls, "caData", "tlsClientConfig.caData", /-----BEGIN CERTIFICATE-----/);
  const certPem = pemField(tls, "certData", "tlsClientConfig.certData", /-----BEGIN CERTIFICATE-----/);
  const keyPem = pemField(tls, "keyData", "tlsClientConfig.keyData", /-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  if (Boolean(certPem) !== Boolean(keyPem)) {
    throw new SecretProblem(`config: tlsClientConfig has ${certPem ? "certData without keyData" : "keyData without certData"}`);
  }
  const username = typed<string>(config, "username", "username", "string") || null;
  const password = typed<string>(config, "password", "password", "string") || null;
  const bearerToken = typed<string>(config, "bearerToken", "bearerToken", "string") || null;
  const aws = typed<Raw>(config, "awsAuthConfig", "awsAuthConfig", "object");
  const exec = typed<Raw>(config, "execProviderConfig", "execProviderConfig", "object");
  const proxyUrl = typed<string>(config, "proxyUrl", "proxyUrl", "string") || null;
  if (proxyUrl) {
    let scheme: string | null = null;
    try {
      scheme = new URL(proxyUrl).protocol.replace(/:$/, "");
    } catch {
      scheme = null;
    }
    if (!scheme || !["http", "https", "socks5"].includes(scheme)) {
      throw new SecretProblem(`config: proxyUrl must use http, https or socks5${scheme ? `, not ${scheme}` : ""}`);
    }
  }

  let auth: ArgoClusterAuth;
  if (server === IN_CLUSTER_SERVER) {
    // Argo CD uses its service account here; only username/password/bearerToken override it.
    if (aws || exec || caPem || certPem)
      warnings.push("tlsClientConfig, awsAuthConfig and execProviderConfig are ignored for the in-cluster server");
    if (bearerToken) auth = { type: "bearer", token: bearerToken };
    else if (username || password) auth = { type: "basic", username: username ?? "", password: password ?? "" };
    else auth = { type: "in-cluster" };
  } else if (aws) {
    const clusterName = typed<string>(aws, "clusterName", "awsAuthConfig.clusterName", "string");
    if (!clusterName) throw new SecretProblem("config: awsAuthConfig has no clusterName");
    const roleArn = typed<string>(aws, "roleARN", "awsAuthConfig.roleARN", "string") || null;
    const profile = typed<string>(aws, "profile", "awsAuthConfig.profile", "string") || null;
    if (exec) warnings.push("execProviderConfig is ignored: awsAuthConfig takes precedence (as in Argo CD)");
    if (bearerToken || username)
      warnings.push("bearerToken and username/password are ignored: awsAuthConfig takes precedence (as in Argo CD)");
    if (profile)
      warnings.push(
        `awsAuthConfig.profile "${profile}" names a profile of Argo CD's own AWS config; Crow's Nest uses its own AWS identity`,
      );
    auth = { type: "eks-token", clusterName, roleArn, profile, via: "awsAuthConfig" };
  } else if (exec) {
    const command = typed<string>(exec, "command", "execProviderConfig.command", "string");
    if (!command) throw new SecretProblem("config: execProviderConfig has no command");
    const rawArgs = field(exec, "args");
    const args = Array.isArray(rawArgs) ? rawArgs.filter((a): a is string => typeof a === "string") : [];
    if (bearerToken || username)
      warnings.push("bearerToken and username/password are ignored: execProviderConfig takes precedence (as in Argo CD)");
    auth = eksTokenFromExec(command, args) ?? {
      type: "exec",
      command,
      apiVersion: typed<string>(exec, "apiVersion", "execProviderConfig.apiVersion", "string") || null,
      installHint: typed<string>(exec, "installHint", "execProviderConfig.installHint", "string") || null,
    };
  } else if (bearerToken) {
    if (username || password) throw new SecretProblem("config: username/password or bearerToken may be set, but not both");
    auth = { type: "bearer", token: bearerToken };
  } else if (username || password) {
    auth = { type: "basic", username: username ?? "", password: password ?? "" };
  } else if (certPem) {
    auth = { type: "client-cert" };
  } else {
    auth = { type: "none" };
  }

  const insecure = field(tls, "insecure");
  if (insecure !== undefined && insecure !== null && typeof insecure !== "boolean") {
    throw new SecretProblem("config: tlsClientConfig.insecure must be a boolean");
  }
  if (insecure === true && caPem) throw new SecretProblem("config: tlsClientConfig sets both insecure and caData (client-go refuses that)");
  return {
    endpoint: server,
    tls: {
      caPem,
      insecure: insecure === true,
      serverName: typed<string>(tls, "serverName", "tlsClientConfig.serverName", "string") || null,
      clientCert: certPem && keyPem ? { certPem, keyPem } : null,
    },
    auth,
    proxyUrl,
    disableCompression: typed<boolean>(config, "disableCompression", "disableCompression", "boolean") === true,
  };
}

const ADDON_METADATA_SUFFIXES = [
  ["_iam_role_arn", "iamRoleArn"],
  ["_namespace", "namespace"],
  ["_service_account", "serviceAccount"],
] as const;

function repo(annotations: Record<string, string>, labels: Record<string, string>, prefix: string): RepoCoordinates | null {
  const pick = (key: string) => annotations[`${prefix}_${key}`] ?? labels[`${prefix}_${key}`] ?? null;
  const coordinates = { url: pick("url"), basepath: pick("basepath"), path: pick("path"), revision: pick("revision") };
  return Object.values(coordinates).some((v) => v !== null) ? coordinates : null;
}

/** GitOps Bridge metadata: add-on flags and versions in labels, AWS facts and repositories in annotations. */
export function gitopsBridgeFacts(
  labels: Record<string, string>,
  annotations: Record<string, string>,
  warnings: string[] = [],
): GitOpsBridgeFacts {
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const value = labels[key] ?? annotations[key];
      if (value) return value;
    }
    return null;
  };
  const addons: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(labels)) {
    if (!key.startsWith("enable_")) continue;
    if (value === "true" || value === "false") addons[key.slice("enable_".length)] = value === "true";
    else warnings.push(`label ${key} is "${value}", not "true" or "false"`);
  }
  const addonMetadata: GitOpsBridgeFacts["addonMetadata"] = {};
  for (const [key, value] of Object.entries(annotations)) {
    for (const [suffix, prop] of ADDON_METADATA_SUFFIXES) {
      if (!key.endsWith(suffix)) continue;
      const addon = key.slice(0, -suffix.length);
      if (!(addon in addons)) continue; // e.g. karpenter_sqs_queue_name is not one of these
      (addonMetadata[addon] ??= {})[prop] = value;
    }
  }
  return {
    clusterName: pick("cluster_name"),
    environment: pick("environment", "env"),
    team: pick("team"),
    region: pick("aws_region", "region"),
    accountId: pick("aws_account_id"),
    eksClusterName: pick("aws_cluster_name"),
    vpcId: pick("aws_vpc_id"),
    kubernetesVersion: pick("kubernetes_version"),
    addons,
    addonMetadata,
    addonsRepo: repo(annotations, labels, "addons_repo"),
    workloadRepo: repo(annotations, labels, "workload_repo"),
  };
}

/** Parses one Argo CD cluster secret as listed from the API server. */
export function parseArgoClusterSecret(raw: unknown): ArgoClusterSecretResult {
  const metadata = obj(obj(raw).metadata);
  const ref = {
    namespace: typeof metadata.namespace === "string" ? metadata.namespace : "",
    name: typeof metadata.name === "string" ? metadata.name : "",
  };
  try {
    const secretLabels = strMap(metadata.labels);
    if (secretLabels[CLUSTER_SECRET_TYPE_LABEL] !== "cluster") {
      throw new SecretProblem(`not an Argo CD cluster secret (label ${CLUSTER_SECRET_TYPE_LABEL} is not "cluster")`);
    }
    const values = secretValues(obj(raw));
    const server = (values.server ?? "").replace(/\/+$/, "");
    if (!server) throw new SecretProblem("no server (data key `server` is missing or empty)");
    if (!/^https?:\/\//.test(server)) throw new SecretProblem(`server "${server}" is not an http(s) URL`);
    const warnings: string[] = [];
    const config = parseConfig(values.config);
    const access = parseAccess(server, config, warnings);

    const { [CLUSTER_SECRET_TYPE_LABEL]: _type, ...labels } = secretLabels;
    const { [LAST_APPLIED]: _applied, [MANAGED_BY]: _managedBy, ...annotations } = strMap(metadata.annotations);
    const facts = gitopsBridgeFacts(labels, annotations, warnings);
    let shard: number | null = null;
    if (values.shard !== undefined) {
      if (/^-?\d+$/.test(values.shard.trim())) shard = Number(values.shard.trim());
      else warnings.push(`shard "${values.shard}" is not a number (Argo CD ignores it)`);
    }
    const name = values.name || null;
    if (!name) warnings.push("no name: Applications can reach this cluster by server only");
    const region = facts.region;
    const eksName = access.auth.type === "eks-token" ? access.auth.clusterName : facts.eksClusterName;
    const cluster: ArgoClusterSecret = {
      secret: { ...ref, uid: typeof metadata.uid === "string" ? metadata.uid : null },
      name,
      server,
      inCluster: server === IN_CLUSTER_SERVER,
      namespaces: (values.namespaces ?? "")
        .split(",")
        .map((ns) => ns.trim())
        .filter(Boolean),
      clusterResources: values.clusterResources === "true",
      project: values.project || null,
      shard,
      skipReconcile: annotations[SKIP_RECONCILE] === "true",
      access,
      labels,
      annotations,
      gitopsBridge: facts,
      env: facts.environment,
      team: facts.team,
      region,
      accountId: facts.accountId,
      eksName,
      eksArn: region && facts.accountId && eksName ? `arn:aws:eks:${region}:${facts.accountId}:cluster/${eksName}` : null,
      warnings,
    };
    return { ok: true, cluster };
  } catch (error) {
    if (!(error instanceof SecretProblem)) throw error;
    return { ok: false, secret: ref, problem: error.message };
  }
}

/** Parses every cluster secret of a list; other Secrets are skipped, broken ones reported one by one. */
export function parseArgoClusterSecrets(items: unknown[]): {
  clusters: ArgoClusterSecret[];
  problems: Array<{ secret: { namespace: string; name: string }; problem: string }>;
} {
  const clusters: ArgoClusterSecret[] = [];
  const problems: Array<{ secret: { namespace: string; name: string }; problem: string }> = [];
  for (const item of items) {
    if (strMap(obj(obj(item).metadata).labels)[CLUSTER_SECRET_TYPE_LABEL] !== "cluster") continue;
    const result = parseArgoClusterSecret(item);
    if (result.ok) clusters.push(result.cluster);
    else problems.push({ secret: result.secret, problem: result.problem });
  }
  return { clusters, problems };
}

/** How the cluster is reached, in words safe to store and show (never a credential). */
export function accessSummary(access: ArgoClusterAccess): string {
  const auth = access.auth;
  switch (auth.type) {
    case "in-cluster":
      return "Argo CD's own service account (the cluster Argo CD runs in)";
    case "bearer":
      return "a bearer token from the secret";
    case "basic":
      return "a username and password from the secret";
    case "client-cert":
      return "a client certificate from the secret";
    case "eks-token":
      return `an EKS token for cluster ${auth.clusterName}${auth.roleArn ? `, assuming ${auth.roleArn}` : ""} (${auth.via === "exec" ? "exec plugin, minted natively" : "awsAuthConfig"})`;
    case "exec":
      return `the exec plugin "${auth.command}", which Crow's Nest does not run`;
    case "none":
      return "no credentials";
  }
}

/** Why this access cannot be used as is, or null when it can. */
export function accessProblem(access: ArgoClusterAccess): string | null {
  if (access.auth.type === "exec") {
    return `Argo CD reaches this cluster through the exec plugin "${access.auth.command}"; Crow's Nest never runs exec plugins, so it needs another way in (EKS API, a kubeconfig secret or awsAuthConfig)`;
  }
  if (access.auth.type === "none" && !access.tls.clientCert) return "the cluster secret holds no credentials";
  return null;
}

/** Every destination Argo CD knows: the parsed secrets plus the implicit in-cluster one unless a secret replaces it. */
export function argoDestinations(clusters: ArgoClusterSecret[], options: { inClusterEnabled?: boolean } = {}): ArgoDestinationCluster[] {
  const inClusterEnabled = options.inClusterEnabled ?? true;
  const out: ArgoDestinationCluster[] = clusters
    .filter((c) => inClusterEnabled || !c.inCluster)
    .map((c) => ({ name: c.name ?? "", server: c.server, secret: c, inCluster: c.inCluster }));
  if (inClusterEnabled && !clusters.some((c) => c.inCluster)) {
    out.push({ name: IN_CLUSTER_NAME, server: IN_CLUSTER_SERVER, secret: null, inCluster: true });
  }
  return out;
}

export type DestinationResolution = { ok: true; cluster: ArgoDestinationCluster } | { ok: false; problem: string };

/**
 * The cluster an Application deploys to, resolved as Argo CD does (GetDestinationServer / GetCluster):
 * server and name are exclusive; a name must match exactly one cluster; "in-cluster" always means the
 * in-cluster server (even when its secret names it otherwise). Messages are Argo CD's.
 */
export function resolveDestination(
  destination: { server?: string | null; name?: string | null },
  clusters: ArgoClusterSecret[],
  options: { inClusterEnabled?: boolean } = {},
): DestinationResolution {
  const inClusterEnabled = options.inClusterEnabled ?? true;
  const known = argoDestinations(clusters, options);
  const name = destination.name ?? "";
  let server = destination.server ?? "";
  if (name && server) return { ok: false, problem: `application destination can't have both name and server defined: ${name} ${server}` };
  if (!name && !server) return { ok: false, problem: "Destination server missing from app spec" };
  if (name) {
    let servers = known.filter((c) => c.name === name).map((c) => c.server);
    if (servers.length === 0 && name === IN_CLUSTER_NAME && inClusterEnabled) servers = [IN_CLUSTER_SERVER];
    if (servers.length === 0) return { ok: false, problem: `there are no clusters with this name: ${name}` };
    if (servers.length > 1)
      return { ok: false, problem: `there are ${servers.length} clusters with the same name: [${servers.join(" ")}]` };
    server = servers[0];
  }
  server = server.replace(/\/+$/, "");
  if (server === IN_CLUSTER_SERVER && !inClusterEnabled) return { ok: false, problem: `cluster "${server}" is disabled` };
  const cluster = known.find((c) => c.server === server);
  if (!cluster) return { ok: false, problem: `cluster "${server}" not found` };
  return { ok: true, cluster };
}
