// Fleet discovery: the hub, then spokes through (a) the hub's Flux kubeConfig.secretRef, (b) Crossplane
// resources' writeConnectionSecretToRef, (c) Secrets carrying the discovery label, (d) EKS ListClusters per
// configured region, (e) Argo CD cluster secrets. One module per source; one cluster seen through several
// of them is merged into one (by EKS ARN, endpoint, then name).
import { type EksApi, type EksClusterInfo, splitEksClusterKey } from "../../aws/eks";
import type { DiscoveredCluster } from "../../db/types";
import { preferredVersions } from "../../kube/crossplane";
import { connectionSecretState } from "../../kube/kubeconfig";
import type { ConnectionSecretState } from "../../kube/types";
import { argocdCandidates } from "./argocd-secrets";
import { candidateFromSecret, mergeCandidates, type Candidate, type MergedCluster } from "./candidates";
import { crossplaneNodeGroups, crossplaneSecretReferences, withCrossplaneFacts } from "./crossplane";
import { eksAnswers, eksCandidates } from "./eks-api";
import { fluxSecretReferences } from "./flux-refs";
import { labelledSecretReferences } from "./labelled-secrets";
import { SourceProblems } from "./problems";
import { SecretStore } from "./secret-store";
import type { HubReader } from "./hub-reader";

export { SecretStore } from "./secret-store";
export { VIA_ORDER } from "./candidates";

export interface DiscoveryInput {
  hub: HubReader;
  hubName: string;
  secretLabel: string;
  /** Where labelled and Argo CD cluster Secrets are listed (empty: every namespace). */
  secretNamespaces?: string[];
  /** EKS APIs of the configured regions (empty: EKS discovery off). */
  eks: EksApi[];
  /** ListClusters answers, cached across cycles (for the EKS interval). */
  list: (api: EksApi) => Promise<string[]>;
  /** DescribeCluster answers cached across cycles; an unchanged answer is the same object (compared by identity). */
  describe: (api: EksApi, name: string) => Promise<EksClusterInfo>;
  /** The last answer: returned again when nothing it was computed from changed (a hub that keeps its lists by watching). */
  previous?: DiscoveryResult;
}

export interface DiscoveryResult {
  clusters: DiscoveredCluster[];
  secrets: SecretStore;
  /** Every source answered: clusters missing from `clusters` really are gone. */
  complete: boolean;
  problems: string[];
  /** EKS facts per cluster name (endpoint and CA for the IRSA path). */
  eksInfo: Map<string, EksClusterInfo>;
  /** What the answer was computed from (null: lists read afresh, nothing to compare with next time). */
  inputs: string | null;
  /** The DescribeCluster answers it was computed from (`region/name` → answer), compared by identity next time. */
  eksAnswers: Map<string, EksClusterInfo>;
  /** The previous answer, returned again: the hub's lists, its served APIs and EKS's answers are all unchanged. */
  reused: boolean;
}

export async function discoverFleet(input: DiscoveryInput): Promise<DiscoveryResult> {
  const { hub } = input;
  // Read before anything else: a change arriving while this cycle reads moves it, and the next cycle recomputes.
  const generation = hub.generation;
  const served = preferredVersions(await hub.getJson(`/apis`));
  const eksProblems = new SourceProblems();
  const answers = await eksAnswers(input.eks, input.list, input.describe, eksProblems);
  const inputs = generation === undefined ? null : discoveryInputs(generation, served, eksProblems);
  if (inputs !== null && input.previous?.inputs === inputs && sameAnswers(input.previous.eksAnswers, answers))
    return { ...input.previous, reused: true };

  const problems = new SourceProblems();
  const secrets = new SecretStore(hub);
  const candidates: Candidate[] = [
    {
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
    },
  ];

  const refs = [
    ...(await fluxSecretReferences(hub, served, problems)),
    ...(await crossplaneSecretReferences(hub, served, problems)),
    ...(await labelledSecretReferences(hub, input.secretLabel, secrets, problems, input.secretNamespaces)),
  ];
  const nodeGroups = await crossplaneNodeGroups(hub, served, problems);

  // Re-read every referenced secret: one LIST per namespace.
  for (const namespace of new Set(refs.map((r) => r.ref.namespace).filter(Boolean))) {
    await secrets.loadNamespace(namespace).catch((err) => problems.failed(`listing secrets in ${namespace}`, err));
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

  candidates.push(...(await argocdCandidates(hub, input.hubName, secrets, problems, input.secretNamespaces)));
  problems.absorb(eksProblems);
  candidates.push(...eksCandidates(answers));

  const merged = mergeCandidates(candidates);
  // Each EKS answer belongs to the merged cluster with its ARN, else the one with its name (indexed: a scan
  // per answer was a million comparisons a minute at 1,000 clusters).
  const byArn = new Map<string, MergedCluster>();
  const byName = new Map<string, MergedCluster>();
  for (const c of merged) {
    if (c.eksArn && !byArn.has(c.eksArn)) byArn.set(c.eksArn, c);
    if (!byName.has(c.name)) byName.set(c.name, c);
  }
  const infoByName = new Map<string, EksClusterInfo>();
  for (const [key, info] of answers) {
    const cluster = (info.arn ? byArn.get(info.arn) : undefined) ?? byName.get(splitEksClusterKey(key).name);
    if (cluster) infoByName.set(cluster.name, info);
  }
  // A way in that does not wait for Crossplane: a secret holding a kubeconfig, an Argo CD secret we can use, or an EKS endpoint.
  const reachable = (c: MergedCluster) =>
    c.accessPaths.some(
      (p) =>
        p.via === "hub" ||
        (p.via === "argocd-secret" && !p.argocd?.problem) ||
        (p.secretName && secretStates.get(`${p.secretNamespace ?? ""}/${p.secretName}`) === "kubeconfig") ||
        (p.via === "eks" && !!infoByName.get(c.name)?.endpoint),
    );
  const clusters = withCrossplaneFacts(merged, nodeGroups, reachable);
  return {
    clusters,
    secrets,
    complete: problems.complete,
    problems: problems.messages,
    eksInfo: infoByName,
    inputs,
    eksAnswers: answers,
    reused: false,
  };
}

/**
 * What discovery is computed from besides the hub's lists (their generation stands for them) and the
 * DescribeCluster answers (compared by identity, sameAnswers): equal, with the same answers, means the same result.
 */
function discoveryInputs(generation: number, served: Map<string, string[]>, eksProblems: SourceProblems): string {
  // Sorted: DescribeCluster answers (and failures) arrive in any order.
  return JSON.stringify([generation, [...served], [...eksProblems.messages].sort(), eksProblems.complete]);
}

/**
 * The same DescribeCluster answers as last time, by identity: the answers come from a cache that keeps an
 * unchanged answer's object (EksReader.describe), so a changed answer is a new object.
 */
export function sameAnswers(before: Map<string, EksClusterInfo>, now: Map<string, EksClusterInfo>): boolean {
  if (before.size !== now.size) return false;
  for (const [key, info] of now) if (before.get(key) !== info) return false;
  return true;
}
