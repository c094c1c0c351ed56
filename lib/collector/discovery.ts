// Fleet discovery: the hub, then spokes through (a) the hub's Flux kubeConfig.secretRef, (b) Crossplane
// resources' writeConnectionSecretToRef (classic Cluster, Upbound ClusterAuth, composites from XRDs),
// (c) Secrets carrying the discovery label, (d) EKS ListClusters per configured region. One cluster seen
// through several paths is merged into one (by EKS ARN, endpoint, then name).
import type { EksApi, EksClusterInfo } from "../aws/eks";
import { mapLimit } from "../concurrency";
import type { KubeClusterClient } from "../kube/client";
import {
  compositeKindsFromXrds,
  connectionSecretOf,
  fluxKubeconfigRef,
  NODE_GROUP_KINDS,
  preferredVersions,
  PROVISIONER_KINDS,
  servedVersion,
  toCrossplaneNodeGroup,
  toProvisioningRecord,
  type ProvisionerKind,
} from "../kube/crossplane";
import { FLUX_KINDS } from "../kube/flux";
import { connectionSecretState, kubeconfigFromSecret, normaliseEndpoint } from "../kube/kubeconfig";
import { listAll } from "../kube/list";
import type { ConnectionSecretState, CrossplaneNodeGroupRecord, ProvisioningRecord, SecretRef } from "../kube/types";
import type { AccessPath, AccessVia, DiscoveredCluster } from "../db/types";
import { crossplaneEksFacts } from "../fleet/cluster-facts";
import { parseEksArn } from "../fleet/eks-arn";
import { clusterProvisioning } from "../fleet/provisioning";
import { obj, type Raw, str } from "../kube/raw";
import { oneLine } from "../errors";

/** Annotations a kubeconfig Secret may carry to name its cluster and region. */
export const NAME_ANNOTATION = "crows-nest.io/cluster-name";
export const REGION_ANNOTATION = "crows-nest.io/region";
const ENV_LABELS = ["crows-nest.io/environment", "crows-nest.io/env", "environment", "env"];
const TEAM_LABELS = ["crows-nest.io/team", "team"];

export interface SecretData {
  namespace: string;
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  data: Record<string, string>;
}

/** Secrets read from the hub this cycle (connection secrets are re-read every cycle). */
export class SecretStore {
  private readonly byKey = new Map<string, SecretData>();
  private readonly loadedNamespaces = new Set<string>();

  constructor(private readonly hub: KubeClusterClient) {}

  add(raw: Raw): SecretData {
    const metadata = obj(raw.metadata);
    const secret: SecretData = {
      namespace: str(metadata.namespace) ?? "",
      name: str(metadata.name) ?? "",
      labels: obj(metadata.labels) as Record<string, string>,
      annotations: obj(metadata.annotations) as Record<string, string>,
      data: obj(raw.data) as Record<string, string>,
    };
    this.byKey.set(`${secret.namespace}/${secret.name}`, secret);
    return secret;
  }

  /** One LIST per namespace holding connection secrets. */
  async loadNamespace(namespace: string): Promise<void> {
    if (this.loadedNamespaces.has(namespace)) return;
    const items = await listAll(this.hub, `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`);
    for (const item of items) this.add(item);
    this.loadedNamespaces.add(namespace);
  }

  async get(namespace: string, name: string): Promise<SecretData | undefined> {
    const key = `${namespace}/${name}`;
    if (!this.byKey.has(key) && !this.loadedNamespaces.has(namespace)) {
      const raw = await this.hub
        .getJson<Raw>(`/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`)
        .catch((err) => {
          if ((err as { status?: number }).status === 404) return undefined;
          throw err;
        });
      if (raw) this.add(raw);
    }
    return this.byKey.get(key);
  }
}

export interface DiscoveryInput {
  hub: KubeClusterClient;
  hubName: string;
  secretLabel: string;
  /** EKS APIs of the configured regions (empty: EKS discovery off). */
  eks: EksApi[];
  /** DescribeCluster answers cached across cycles. */
  describe: (api: EksApi, name: string) => Promise<EksClusterInfo>;
}

export interface DiscoveryResult {
  clusters: DiscoveredCluster[];
  secrets: SecretStore;
  /** Every source answered: clusters missing from `clusters` really are gone. */
  complete: boolean;
  problems: string[];
  /** EKS facts per cluster name (endpoint and CA for the IRSA path). */
  eksInfo: Map<string, EksClusterInfo>;
}

/** What Crossplane adds once the ways to one cluster are merged (see withCrossplaneFacts). */
type CrossplaneParts = "provisioners" | "nodeGroups" | "provisioning" | "desiredVersion" | "crossplaneFacts";

/** One cluster with every way to it, before what Crossplane says about it is added. */
export type MergedCluster = Omit<DiscoveredCluster, CrossplaneParts> & { provisioners: ProvisioningRecord[] };

/**
 * One way to one cluster, before the ways to the same cluster are merged. `weakName`: named after its secret
 * only (a secret without a kubeconfig yet, found through a Flux kubeConfig ref): another way to the same secret
 * names it better.
 */
type Candidate = Omit<MergedCluster, "role" | "accessPaths"> & { via: AccessVia; path: AccessPath; weakName?: boolean };

const VIA_ORDER: AccessVia[] = ["hub", "label-secret", "flux-secret", "crossplane-secret", "eks"];

const pick = (labels: Record<string, string>, keys: string[]) => keys.map((k) => labels[k]).find((v) => typeof v === "string" && v) ?? null;

/** Served versions of the hub's API groups (GET /apis). */
async function servedGroups(client: KubeClusterClient): Promise<Map<string, string[]>> {
  return preferredVersions(await client.getJson(`/apis`));
}

export async function discoverFleet(input: DiscoveryInput): Promise<DiscoveryResult> {
  const { hub } = input;
  const problems: string[] = [];
  const secrets = new SecretStore(hub);
  const candidates: Candidate[] = [];
  const eksInfo = new Map<string, EksClusterInfo>();
  const note = (what: string, err: unknown) => problems.push(`${what}: ${oneLine(err)}`);

  candidates.push({
    name: input.hubName,
    via: "hub",
    path: { via: "hub" },
    endpoint: hub.server,
    eksArn: null,
    eksName: null,
    region: null,
    accountId: null,
    env: null,
    team: null,
    labels: {},
    provisioners: [],
  });

  const served = await servedGroups(hub);
  // Secret references, with what the referrer tells about the cluster behind them.
  const refs: Array<{ ref: SecretRef; via: AccessVia; provisioner?: ProvisioningRecord; labels: Record<string, string> }> = [];

  // (a) Flux Kustomizations / HelmReleases deploying into spokes.
  for (const kind of FLUX_KINDS.filter((k) => k.kind === "Kustomization" || k.kind === "HelmRelease")) {
    const version = servedVersion(served, kind.group, kind.versions);
    if (!version) continue;
    try {
      for (const item of await listAll(hub, `/apis/${kind.group}/${version}/${kind.plural}`)) {
        const ref = fluxKubeconfigRef(item);
        if (ref) refs.push({ ref, via: "flux-secret", labels: obj(obj(item.metadata).labels) as Record<string, string> });
      }
    } catch (err) {
      note(`listing ${kind.plural} in the hub`, err);
    }
  }

  // (b) Crossplane managed resources and composites.
  const kinds: ProvisionerKind[] = [...PROVISIONER_KINDS];
  const xrdVersion = servedVersion(served, "apiextensions.crossplane.io", ["v2", "v1"]);
  if (xrdVersion) {
    try {
      kinds.push(
        ...compositeKindsFromXrds(await listAll(hub, `/apis/apiextensions.crossplane.io/${xrdVersion}/compositeresourcedefinitions`)),
      );
    } catch (err) {
      note("listing CompositeResourceDefinitions", err);
    }
  }
  for (const kind of kinds) {
    const version = servedVersion(served, kind.group, kind.versions);
    if (!version) continue;
    try {
      for (const item of await listAll(hub, `/apis/${kind.group}/${version}/${kind.plural}`)) {
        const ref = connectionSecretOf(item);
        const provisioner = toProvisioningRecord(item);
        refs.push({
          ref: ref ?? { namespace: "", name: "" },
          via: "crossplane-secret",
          provisioner,
          labels: obj(obj(item.metadata).labels) as Record<string, string>,
        });
      }
    } catch (err) {
      // A group can be served without this kind (e.g. Upbound's ClusterAuth without Cluster).
      if ((err as { status?: number }).status !== 404) note(`listing ${kind.plural}.${kind.group} in the hub`, err);
    }
  }

  // Crossplane NodeGroups (either provider; Upbound at the version the server prefers, lists or objects).
  const nodeGroups: CrossplaneNodeGroupRecord[] = [];
  for (const kind of NODE_GROUP_KINDS) {
    const version = servedVersion(served, kind.group, kind.versions);
    if (!version) continue;
    try {
      for (const item of await listAll(hub, `/apis/${kind.group}/${version}/${kind.plural}`)) nodeGroups.push(toCrossplaneNodeGroup(item));
    } catch (err) {
      if ((err as { status?: number }).status !== 404) note(`listing ${kind.plural}.${kind.group} in the hub`, err);
    }
  }

  // (c) Secrets carrying the discovery label.
  try {
    for (const item of await listAll(hub, `/api/v1/secrets`, { labelSelector: `${input.secretLabel}=true` })) {
      const s = secrets.add(item);
      refs.push({ ref: { namespace: s.namespace, name: s.name }, via: "label-secret", labels: s.labels });
    }
  } catch (err) {
    note("listing labelled secrets", err);
  }

  // Re-read every referenced secret: one LIST per namespace.
  for (const namespace of new Set(refs.map((r) => r.ref.namespace).filter(Boolean))) {
    await secrets.loadNamespace(namespace).catch((err) => note(`listing secrets in ${namespace}`, err));
  }
  // What each referenced secret offers: missing, published empty (Crossplane's first reconcile), or a way in.
  const secretStates = new Map<string, ConnectionSecretState>();
  for (const { ref, via, provisioner, labels } of refs) {
    // get() only calls the API when its namespace could not be listed, which is already noted above.
    const secret = ref.name ? await secrets.get(ref.namespace, ref.name).catch(() => undefined) : undefined;
    if (ref.name) secretStates.set(`${ref.namespace}/${ref.name}`, connectionSecretState(secret?.data, ref.key));
    if (provisioner && ref.name) provisioner.secret = connectionSecretState(secret?.data, ref.key);
    const candidate = candidateFromSecret(ref, via, secret, provisioner, labels);
    if (candidate) candidates.push(candidate);
  }

  // (d) EKS clusters of the configured regions.
  for (const api of input.eks) {
    try {
      const names = await api.listClusters();
      // DescribeCluster a few at a time: a thousand at once only times out (and AWS throttles).
      await mapLimit(names, 8, async (name) => {
        try {
          const info = await input.describe(api, name);
          eksInfo.set(`${api.region}/${name}`, info);
          candidates.push({
            name,
            via: "eks",
            path: { via: "eks", region: api.region },
            endpoint: info.endpoint,
            eksArn: info.arn,
            eksName: name,
            region: api.region,
            accountId: info.accountId,
            env: pick(info.tags, ENV_LABELS),
            team: pick(info.tags, TEAM_LABELS),
            labels: {},
            provisioners: [],
          });
        } catch (err) {
          note(`DescribeCluster ${name} in ${api.region}`, err);
        }
      });
    } catch (err) {
      note(`ListClusters in ${api.region}`, err);
    }
  }

  const merged = mergeCandidates(candidates);
  const infoByName = new Map<string, EksClusterInfo>();
  for (const [key, info] of eksInfo) {
    const cluster = merged.find((c) => (info.arn && c.eksArn === info.arn) || c.name === key.split("/")[1]);
    if (cluster) infoByName.set(cluster.name, info);
  }
  // A way in that does not wait for Crossplane: a secret holding a kubeconfig, or an EKS endpoint.
  const reachable = (c: MergedCluster) =>
    c.accessPaths.some(
      (p) =>
        p.via === "hub" ||
        (p.secretName && secretStates.get(`${p.secretNamespace ?? ""}/${p.secretName}`) === "kubeconfig") ||
        (p.via === "eks" && !!infoByName.get(c.name)?.endpoint),
    );
  const clusters = withCrossplaneFacts(merged, nodeGroups, reachable);
  return { clusters, secrets, complete: problems.length === 0, problems, eksInfo: infoByName };
}

/**
 * What Crossplane says about each cluster: its NodeGroups (matched by EKS cluster name or by the Cluster
 * resource they reference), what each resource is doing, whether the cluster is still being provisioned,
 * the version it is asked to run, and the EKS facts its resources observed.
 */
export function withCrossplaneFacts(
  clusters: MergedCluster[],
  nodeGroups: CrossplaneNodeGroupRecord[],
  reachableOtherwise: (c: MergedCluster) => boolean,
): DiscoveredCluster[] {
  return clusters.map((c) => {
    const names = new Set([c.name, c.eksName].filter((n): n is string => !!n));
    const resourceNames = new Set(c.provisioners.filter((p) => p.kind === "Cluster").map((p) => p.name));
    const groups = nodeGroups.filter(
      (g) => (g.clusterName !== null && names.has(g.clusterName)) || (g.clusterRef !== null && resourceNames.has(g.clusterRef)),
    );
    const result = clusterProvisioning(c.provisioners, reachableOtherwise(c));
    return {
      ...c,
      provisioners: c.provisioners.map((p, i) => ({ ...p, verdict: result.verdicts[i] })),
      nodeGroups: groups,
      provisioning: result.state,
      desiredVersion: result.desiredVersion,
      crossplaneFacts: crossplaneEksFacts(c.provisioners),
    };
  });
}

/** A candidate cluster from a connection secret (or from the Crossplane resource alone when the secret is missing). */
export function candidateFromSecret(
  ref: SecretRef,
  via: AccessVia,
  secret: SecretData | undefined,
  provisioner: ProvisioningRecord | undefined,
  referrerLabels: Record<string, string>,
): Candidate | null {
  let endpoint: string | null = null;
  let entryName: string | null = null;
  if (secret) {
    try {
      const kc = kubeconfigFromSecret(secret.data, ref);
      endpoint = kc.server;
      entryName = kc.key ? kc.clusterEntryName : null;
    } catch {
      // A secret with only an endpoint and a CA (no credential): reachable through an EKS token.
      const e = secret.data.endpoint ?? secret.data["apiserver-endpoint"];
      endpoint = e ? Buffer.from(e, "base64").toString("utf8") : null;
    }
  }
  const arn = parseEksArn(entryName);
  const annotated = secret?.annotations[NAME_ANNOTATION] ?? null;
  const name = annotated ?? arn?.name ?? provisioner?.eksName ?? entryName ?? (secret ? secret.name : null);
  if (!name) return null;
  const labels = { ...referrerLabels, ...(secret?.labels ?? {}) };
  return {
    name,
    weakName: name === secret?.name && !annotated && !arn && !provisioner?.eksName && !entryName,
    via,
    path: { via, secretNamespace: ref.namespace || undefined, secretName: ref.name || undefined, key: ref.key },
    endpoint,
    eksArn: arn?.arn ?? null,
    eksName: arn?.name ?? provisioner?.eksName ?? null,
    region: arn?.region ?? secret?.annotations[REGION_ANNOTATION] ?? provisioner?.region ?? null,
    accountId: arn?.accountId ?? null,
    env: pick(labels, ENV_LABELS),
    team: pick(labels, TEAM_LABELS),
    labels: Object.fromEntries(Object.entries(labels).filter(([k]) => !k.startsWith("kustomize.toolkit") && !k.startsWith("helm.toolkit"))),
    provisioners: provisioner ? [provisioner] : [],
  };
}

/** Merges candidates that are one cluster: same EKS ARN, same endpoint, or same name. */
export function mergeCandidates(candidates: Candidate[]): MergedCluster[] {
  const out: MergedCluster[] = [];
  const weak = new Set<MergedCluster>();
  // Candidates named only after their secret come last: by then the way that names the cluster is in.
  const sorted = [...candidates].sort(
    (a, b) => Number(!!a.weakName) - Number(!!b.weakName) || VIA_ORDER.indexOf(a.via) - VIA_ORDER.indexOf(b.via),
  );
  for (const c of sorted) {
    const endpoint = normaliseEndpoint(c.endpoint);
    const match = out.find(
      (o) =>
        (c.eksArn && o.eksArn === c.eksArn) ||
        (endpoint && normaliseEndpoint(o.endpoint) === endpoint) ||
        o.name === c.name ||
        (c.eksName && o.eksName === c.eksName && (!c.region || !o.region || o.region === c.region)) ||
        // The same connection secret reached from a Flux kubeConfig ref and from its Crossplane resource.
        (c.path.secretName &&
          o.accessPaths.some((p) => p.secretName === c.path.secretName && p.secretNamespace === c.path.secretNamespace)),
    );
    if (!match) {
      out.push({
        name: c.name,
        role: c.via === "hub" ? "hub" : "spoke",
        accessPaths: usable(c.path) ? [c.path] : [],
        endpoint: c.endpoint,
        eksArn: c.eksArn,
        eksName: c.eksName,
        region: c.region,
        accountId: c.accountId,
        env: c.env,
        team: c.team,
        labels: c.labels,
        provisioners: [...c.provisioners],
      });
      if (c.weakName) weak.add(out[out.length - 1]);
      continue;
    }
    if (weak.has(match) && !c.weakName) {
      match.name = c.name;
      weak.delete(match);
    }
    if (usable(c.path) && !match.accessPaths.some((p) => samePath(p, c.path))) match.accessPaths.push(c.path);
    match.endpoint ??= c.endpoint;
    match.eksArn ??= c.eksArn;
    match.eksName ??= c.eksName;
    match.region ??= c.region;
    match.accountId ??= c.accountId;
    match.env ??= c.env;
    match.team ??= c.team;
    match.labels = { ...c.labels, ...match.labels };
    for (const p of c.provisioners) {
      if (!match.provisioners.some((q) => q.kind === p.kind && q.namespace === p.namespace && q.name === p.name))
        match.provisioners.push(p);
    }
  }
  // A hub-only secret ref with no secret and no provisioner names nothing useful; the hub keeps its name.
  return out.filter((c) => c.accessPaths.length > 0);
}

/** A secret path without a secret (a Crossplane resource that publishes none) leads nowhere. */
const usable = (p: AccessPath) => p.via === "hub" || p.via === "eks" || !!p.secretName;

const samePath = (a: AccessPath, b: AccessPath) =>
  a.via === b.via && a.secretNamespace === b.secretNamespace && a.secretName === b.secretName && a.region === b.region;

export { VIA_ORDER };
