// One way to one cluster (a candidate) and the merge of every way into one cluster: same EKS ARN, same
// endpoint, same name, same EKS name in the same region, or the same connection secret.
import { createHash } from "node:crypto";
import type { AccessPath, AccessVia, DiscoveredCluster } from "../../db/types";
import { parseEksArn } from "../../fleet/eks-arn";
import { kubeconfigFromSecret, normaliseEndpoint } from "../../kube/kubeconfig";
import type { ProvisioningRecord, SecretRef } from "../../kube/types";
import type { SecretData } from "./secret-store";

/** Annotations a kubeconfig Secret may carry to name its cluster and region. */
export const NAME_ANNOTATION = "crows-nest.io/cluster-name";
export const REGION_ANNOTATION = "crows-nest.io/region";
export const ENV_LABELS = ["crows-nest.io/environment", "crows-nest.io/env", "environment", "env"];
export const TEAM_LABELS = ["crows-nest.io/team", "team"];

/** Ways in, most preferred first (a connection secret before an exec-free Argo CD secret before the EKS API). */
export const VIA_ORDER: AccessVia[] = ["hub", "label-secret", "flux-secret", "crossplane-secret", "argocd-secret", "eks"];

/** What Crossplane adds once the ways to one cluster are merged (see withCrossplaneFacts). */
type CrossplaneParts = "provisioners" | "nodeGroups" | "provisioning" | "desiredVersion" | "crossplaneFacts";

/** One cluster with every way to it, before what Crossplane says about it is added. */
export type MergedCluster = Omit<DiscoveredCluster, CrossplaneParts> & { provisioners: ProvisioningRecord[] };

/**
 * One way to one cluster, before the ways to the same cluster are merged. `weakName`: named after its secret
 * only (a secret without a kubeconfig yet, found through a Flux kubeConfig ref): another way to the same secret
 * names it better.
 */
export type Candidate = Omit<MergedCluster, "role" | "accessPaths"> & { via: AccessVia; path: AccessPath; weakName?: boolean };

/** A connection secret some hub object points at, with what the referrer tells about the cluster behind it. */
export interface SecretReference {
  ref: SecretRef;
  via: AccessVia;
  provisioner?: ProvisioningRecord;
  labels: Record<string, string>;
}

export const pick = (labels: Record<string, string>, keys: string[]) =>
  keys.map((k) => labels[k]).find((v) => typeof v === "string" && v) ?? null;

/**
 * Where each secret content points (kubeconfig YAML parsed once per content, not every discovery cycle), by a
 * digest of the content: the content itself is kilobytes per cluster.
 */
const pointsAt = new Map<string, { endpoint: string | null; entryName: string | null }>();
const POINTS_AT_MAX = 20_000;

function whereSecretPoints(secret: SecretData, ref: SecretRef): { endpoint: string | null; entryName: string | null } {
  const hash = createHash("sha256").update(`${ref.namespace}\0${ref.name}\0${ref.key ?? ""}`);
  for (const [k, v] of Object.entries(secret.data)) hash.update(`\0${k}=${v}`);
  const cacheKey = hash.digest("base64");
  const hit = pointsAt.get(cacheKey);
  if (hit) return hit;
  let found: { endpoint: string | null; entryName: string | null };
  try {
    const kc = kubeconfigFromSecret(secret.data, ref);
    found = { endpoint: kc.server, entryName: kc.key ? kc.clusterEntryName : null };
  } catch {
    // A secret with only an endpoint and a CA (no credential): reachable through an EKS token.
    const e = secret.data.endpoint ?? secret.data["apiserver-endpoint"];
    found = { endpoint: e ? Buffer.from(e, "base64").toString("utf8") : null, entryName: null };
  }
  if (pointsAt.size >= POINTS_AT_MAX) pointsAt.clear();
  pointsAt.set(cacheKey, found);
  return found;
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
  if (secret) ({ endpoint, entryName } = whereSecretPoints(secret, ref));
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
  // Indexes by every key a candidate can match on, so a fleet of a thousand clusters merges in linear time
  // (discovery runs every cycle). An index may hold an entry whose key changed since (a renamed weak
  // name): each hit is checked against the entry as it is now.
  const order = new Map<MergedCluster, number>();
  const endpointOf = new Map<MergedCluster, string | null>();
  const indexes = {
    arn: new Map<string, MergedCluster[]>(),
    endpoint: new Map<string, MergedCluster[]>(),
    name: new Map<string, MergedCluster[]>(),
    eksName: new Map<string, MergedCluster[]>(),
    secret: new Map<string, MergedCluster[]>(),
  };
  const secretKey = (p: AccessPath) => (p.secretName ? `${p.secretNamespace ?? ""}/${p.secretName}` : null);
  const index = (m: MergedCluster) => {
    const add = (map: Map<string, MergedCluster[]>, key: string | null | undefined) => {
      if (!key) return;
      const list = map.get(key);
      if (!list) map.set(key, [m]);
      else if (!list.includes(m)) list.push(m);
    };
    const endpoint = normaliseEndpoint(m.endpoint);
    endpointOf.set(m, endpoint);
    add(indexes.arn, m.eksArn);
    add(indexes.endpoint, endpoint);
    add(indexes.name, m.name);
    add(indexes.eksName, m.eksName);
    for (const p of m.accessPaths) add(indexes.secret, secretKey(p));
  };
  // Candidates named only after their secret come last: by then the way that names the cluster is in.
  const sorted = [...candidates].sort(
    (a, b) => Number(!!a.weakName) - Number(!!b.weakName) || VIA_ORDER.indexOf(a.via) - VIA_ORDER.indexOf(b.via),
  );
  for (const c of sorted) {
    const endpoint = normaliseEndpoint(c.endpoint);
    const matches = (o: MergedCluster) =>
      (c.eksArn && o.eksArn === c.eksArn) ||
      (endpoint && endpointOf.get(o) === endpoint) ||
      o.name === c.name ||
      (c.eksName && o.eksName === c.eksName && (!c.region || !o.region || o.region === c.region)) ||
      // The same connection secret reached from a Flux kubeConfig ref and from its Crossplane resource.
      (c.path.secretName && o.accessPaths.some((p) => p.secretName === c.path.secretName && p.secretNamespace === c.path.secretNamespace));
    const hits = [
      ...(c.eksArn ? (indexes.arn.get(c.eksArn) ?? []) : []),
      ...(endpoint ? (indexes.endpoint.get(endpoint) ?? []) : []),
      ...(indexes.name.get(c.name) ?? []),
      ...(c.eksName ? (indexes.eksName.get(c.eksName) ?? []) : []),
      ...(indexes.secret.get(secretKey(c.path) ?? "") ?? []),
    ];
    // The first merged cluster (in the order they were made) that matches, as a scan from the start would find.
    let match: MergedCluster | undefined;
    for (const o of hits) if (matches(o) && (!match || order.get(o)! < order.get(match)!)) match = o;
    if (!match) {
      const made: MergedCluster = {
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
      };
      order.set(made, out.length);
      out.push(made);
      index(made);
      if (c.weakName) weak.add(made);
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
    index(match);
  }
  // A hub-only secret ref with no secret and no provisioner names nothing useful; the hub keeps its name.
  return out.filter((c) => c.accessPaths.length > 0);
}

/** A secret path without a secret (a Crossplane resource that publishes none) leads nowhere. */
const usable = (p: AccessPath) => p.via === "hub" || p.via === "eks" || !!p.secretName;

const samePath = (a: AccessPath, b: AccessPath) =>
  a.via === b.via && a.secretNamespace === b.secretNamespace && a.secretName === b.secretName && a.region === b.region;
