// Fleet discovery: the hub, then spokes through (a) the hub's Flux kubeConfig.secretRef, (b) Crossplane
// resources' writeConnectionSecretToRef, (c) Secrets carrying the discovery label, (d) EKS ListClusters per
// configured region, (e) Argo CD cluster secrets. One module per source; one cluster seen through several
// of them is merged into one (by EKS ARN, endpoint, then name).
import type { EksApi, EksClusterInfo } from "../../aws/eks";
import type { DiscoveredCluster } from "../../db/types";
import { preferredVersions } from "../../kube/crossplane";
import { connectionSecretState } from "../../kube/kubeconfig";
import type { ConnectionSecretState } from "../../kube/types";
import { argocdCandidates } from "./argocd-secrets";
import { candidateFromSecret, mergeCandidates, type Candidate, type MergedCluster } from "./candidates";
import { crossplaneNodeGroups, crossplaneSecretReferences, withCrossplaneFacts } from "./crossplane";
import { eksCandidates } from "./eks-api";
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
  /** DescribeCluster answers cached across cycles. */
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
  /** The previous answer, returned again: the hub's lists, its served APIs and EKS's answers are all unchanged. */
  reused: boolean;
}

export async function discoverFleet(input: DiscoveryInput): Promise<DiscoveryResult> {
  const { hub } = input;
  // Read before anything else: a change arriving while this cycle reads moves it, and the next cycle recomputes.
  const generation = hub.generation;
  const served = preferredVersions(await hub.getJson(`/apis`));
  const eksProblems = new SourceProblems();
  const eks = await eksCandidates(input.eks, input.list, input.describe, eksProblems);
  const inputs = generation === undefined ? null : discoveryInputs(generation, served, eks, eksProblems);
  if (inputs !== null && input.previous?.inputs === inputs) return { ...input.previous, reused: true };

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
  candidates.push(...eks.candidates);

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
  for (const [key, info] of eks.eksInfo) {
    const cluster = (info.arn ? byArn.get(info.arn) : undefined) ?? byName.get(key.split("/")[1]);
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
  return { clusters, secrets, complete: problems.complete, problems: problems.messages, eksInfo: infoByName, inputs, reused: false };
}

/** Everything besides the hub's lists that discovery is computed from, with the lists' generation: equal means the same answer. */
function discoveryInputs(
  generation: number,
  served: Map<string, string[]>,
  eks: { eksInfo: Map<string, EksClusterInfo> },
  eksProblems: SourceProblems,
): string {
  // Sorted: DescribeCluster answers arrive in any order.
  const answers = [...eks.eksInfo].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([generation, [...served], answers, [...eksProblems.messages].sort(), eksProblems.complete]);
}
