// Discovery source (e): Argo CD cluster secrets on the hub (label argocd.argoproj.io/secret-type=cluster),
// as Terraform's GitOps Bridge writes them. Each parsed secret is one way into one cluster; its labels and
// annotations give the cluster's labels, environment, team, region, account and EKS ARN (to merge with the
// other ways in). A secret that cannot be parsed is noted and skipped, as Argo CD skips it.
import type { ArgoAccessFacts } from "../../db/types";
import { accessProblem, accessSummary, parseArgoClusterSecrets } from "../../kube/argocd/cluster-secret";
import { CLUSTER_SECRET_TYPE_LABEL, type ArgoClusterSecret } from "../../kube/argocd/types";
import type { Candidate } from "./candidates";
import type { SourceProblems } from "./problems";
import type { SecretStore } from "./secret-store";
import { labelledSecrets, type HubReader } from "./hub-reader";

/** What the secret says about its cluster, safe to store (no credential). */
export function argoAccessFacts(cluster: ArgoClusterSecret): ArgoAccessFacts {
  return {
    name: cluster.name,
    server: cluster.server,
    access: accessSummary(cluster.access),
    problem: accessProblem(cluster.access),
    warnings: cluster.warnings,
    gitopsBridge: cluster.gitopsBridge,
  };
}

/**
 * One parsed cluster secret as a way into its cluster. The in-cluster secret is the hub itself (Argo CD runs
 * there): it takes the hub's name and address so it merges with the hub.
 */
export function candidateFromArgoSecret(cluster: ArgoClusterSecret, hub: { name: string; server: string }): Candidate {
  const auth = cluster.access.auth;
  const facts = cluster.gitopsBridge;
  return {
    name: cluster.inCluster ? hub.name : (cluster.name ?? facts.clusterName ?? cluster.eksName ?? cluster.secret.name),
    via: "argocd-secret",
    path: {
      via: "argocd-secret",
      secretNamespace: cluster.secret.namespace,
      secretName: cluster.secret.name,
      ...(cluster.region ? { region: cluster.region } : {}),
      ...(auth.type === "eks-token" && auth.roleArn ? { roleArn: auth.roleArn } : {}),
      argocd: argoAccessFacts(cluster),
    },
    endpoint: cluster.inCluster ? hub.server : cluster.server,
    eksArn: cluster.eksArn,
    eksName: cluster.eksName,
    region: cluster.region,
    accountId: cluster.accountId,
    env: cluster.env,
    team: cluster.team,
    labels: cluster.labels,
    provisioners: [],
  };
}

export async function argocdCandidates(
  hub: HubReader,
  hubName: string,
  secrets: SecretStore,
  problems: SourceProblems,
  namespaces: readonly string[] = [],
): Promise<Candidate[]> {
  const items = await labelledSecrets(hub, `${CLUSTER_SECRET_TYPE_LABEL}=cluster`, namespaces, (where, err) =>
    problems.failed(`listing Argo CD cluster secrets in ${where}`, err),
  );
  // Kept for this cycle's connections: clients read the secret again from the store.
  for (const item of items) secrets.add(item);
  return argocdCandidatesFrom(items, { name: hubName, server: hub.server }, problems);
}

/** Candidates from listed cluster secrets; a secret that cannot be parsed is noted, the others stand. */
export function argocdCandidatesFrom(items: unknown[], hub: { name: string; server: string }, problems: SourceProblems): Candidate[] {
  const parsed = parseArgoClusterSecrets(items);
  for (const { secret, problem } of parsed.problems) problems.note(`Argo CD cluster secret ${secret.namespace}/${secret.name}: ${problem}`);
  return parsed.clusters.map((c) => candidateFromArgoSecret(c, hub));
}
