// Discovery source (b): Crossplane resources that provision clusters (classic Cluster, Upbound ClusterAuth,
// composites from XRDs) and their writeConnectionSecretToRef, plus the NodeGroups of either provider and
// what all of them say about each cluster once its ways in are merged.
import type { DiscoveredCluster } from "../../db/types";
import { crossplaneEksFacts } from "../../fleet/cluster-facts";
import { clusterProvisioning } from "../../fleet/provisioning";
import {
  compositeKindsFromXrds,
  connectionSecretOf,
  NODE_GROUP_KINDS,
  PROVISIONER_KINDS,
  servedVersion,
  toCrossplaneNodeGroup,
  toProvisioningRecord,
  type ProvisionerKind,
} from "../../kube/crossplane";
import { obj, type Raw } from "../../kube/raw";
import type { CrossplaneNodeGroupRecord } from "../../kube/types";
import type { MergedCluster, SecretReference } from "./candidates";
import { listServedKind, type SourceProblems } from "./problems";
import type { HubReader } from "./hub-reader";

/** A provisioning resource and the connection secret it publishes (an empty ref when it publishes none). */
export function crossplaneSecretReference(item: Raw): SecretReference {
  return {
    ref: connectionSecretOf(item) ?? { namespace: "", name: "" },
    via: "crossplane-secret",
    provisioner: toProvisioningRecord(item),
    labels: obj(obj(item.metadata).labels) as Record<string, string>,
  };
}

export async function crossplaneSecretReferences(
  hub: HubReader,
  served: Map<string, string[]>,
  problems: SourceProblems,
): Promise<SecretReference[]> {
  const kinds: ProvisionerKind[] = [...PROVISIONER_KINDS];
  const xrdVersion = servedVersion(served, "apiextensions.crossplane.io", ["v2", "v1"]);
  if (xrdVersion) {
    try {
      kinds.push(...compositeKindsFromXrds(await hub.list(`/apis/apiextensions.crossplane.io/${xrdVersion}/compositeresourcedefinitions`)));
    } catch (err) {
      problems.failed("listing CompositeResourceDefinitions", err);
    }
  }
  const refs: SecretReference[] = [];
  // A group can be served without one of its kinds (e.g. Upbound's ClusterAuth without Cluster): a 404 is no problem.
  for (const kind of kinds) {
    for (const item of await listServedKind(hub, served, kind, problems, { absentOk: true })) refs.push(crossplaneSecretReference(item));
  }
  return refs;
}

/** Crossplane NodeGroups (either provider; Upbound at the version the server prefers, lists or objects). */
export async function crossplaneNodeGroups(
  hub: HubReader,
  served: Map<string, string[]>,
  problems: SourceProblems,
): Promise<CrossplaneNodeGroupRecord[]> {
  const nodeGroups: CrossplaneNodeGroupRecord[] = [];
  for (const kind of NODE_GROUP_KINDS) {
    for (const item of await listServedKind(hub, served, kind, problems, { absentOk: true })) nodeGroups.push(toCrossplaneNodeGroup(item));
  }
  return nodeGroups;
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
