// API versions Kubernetes deprecated and then stopped serving, from the Kubernetes "Deprecated API
// Migration Guide" (kubernetes.io/docs/reference/using-api/deprecation-guide/, "Removed APIs by release":
// every removal from v1.16 through v1.32, the newest release the guide lists). A resource a
// Flux inventory (Kustomization or HelmRelease status.inventory) still records under one of these versions
// cannot be applied (or read back) once the control plane reaches `removedIn`: a removal at N+1 blocks the
// next upgrade, a later one is upcoming work for the upgrades after it.

export interface RemovedApi {
  group: string; // "" for the core group
  version: string;
  kind: string;
  /** First Kubernetes minor that no longer serves it. */
  removedIn: string;
  /** apiVersion to migrate to. */
  replacement: string;
}

const r = (apiVersion: string, kinds: string[], removedIn: string, replacement: string): RemovedApi[] => {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  return kinds.map((kind) => ({ group, version, kind, removedIn, replacement }));
};

export const REMOVED_APIS: readonly RemovedApi[] = [
  // 1.16
  ...r("extensions/v1beta1", ["Deployment", "DaemonSet", "ReplicaSet"], "1.16", "apps/v1"),
  ...r("apps/v1beta1", ["Deployment", "StatefulSet"], "1.16", "apps/v1"),
  ...r("apps/v1beta2", ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"], "1.16", "apps/v1"),
  ...r("extensions/v1beta1", ["NetworkPolicy"], "1.16", "networking.k8s.io/v1"),
  ...r("extensions/v1beta1", ["PodSecurityPolicy"], "1.16", "policy/v1beta1"),
  // 1.22
  ...r(
    "admissionregistration.k8s.io/v1beta1",
    ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"],
    "1.22",
    "admissionregistration.k8s.io/v1",
  ),
  ...r("apiextensions.k8s.io/v1beta1", ["CustomResourceDefinition"], "1.22", "apiextensions.k8s.io/v1"),
  ...r("apiregistration.k8s.io/v1beta1", ["APIService"], "1.22", "apiregistration.k8s.io/v1"),
  ...r("authentication.k8s.io/v1beta1", ["TokenReview"], "1.22", "authentication.k8s.io/v1"),
  ...r(
    "authorization.k8s.io/v1beta1",
    ["SubjectAccessReview", "LocalSubjectAccessReview", "SelfSubjectAccessReview"],
    "1.22",
    "authorization.k8s.io/v1",
  ),
  ...r("certificates.k8s.io/v1beta1", ["CertificateSigningRequest"], "1.22", "certificates.k8s.io/v1"),
  ...r("coordination.k8s.io/v1beta1", ["Lease"], "1.22", "coordination.k8s.io/v1"),
  ...r("extensions/v1beta1", ["Ingress"], "1.22", "networking.k8s.io/v1"),
  ...r("networking.k8s.io/v1beta1", ["Ingress", "IngressClass"], "1.22", "networking.k8s.io/v1"),
  ...r(
    "rbac.authorization.k8s.io/v1beta1",
    ["ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"],
    "1.22",
    "rbac.authorization.k8s.io/v1",
  ),
  ...r("scheduling.k8s.io/v1beta1", ["PriorityClass"], "1.22", "scheduling.k8s.io/v1"),
  ...r("storage.k8s.io/v1beta1", ["CSIDriver", "CSINode", "StorageClass", "VolumeAttachment"], "1.22", "storage.k8s.io/v1"),
  // 1.25
  ...r("batch/v1beta1", ["CronJob"], "1.25", "batch/v1"),
  ...r("discovery.k8s.io/v1beta1", ["EndpointSlice"], "1.25", "discovery.k8s.io/v1"),
  ...r("events.k8s.io/v1beta1", ["Event"], "1.25", "events.k8s.io/v1"),
  ...r("autoscaling/v2beta1", ["HorizontalPodAutoscaler"], "1.25", "autoscaling/v2"),
  ...r("policy/v1beta1", ["PodDisruptionBudget"], "1.25", "policy/v1"),
  ...r("policy/v1beta1", ["PodSecurityPolicy"], "1.25", "Pod Security Admission (no replacement API)"),
  ...r("node.k8s.io/v1beta1", ["RuntimeClass"], "1.25", "node.k8s.io/v1"),
  // 1.26
  ...r("flowcontrol.apiserver.k8s.io/v1beta1", ["FlowSchema", "PriorityLevelConfiguration"], "1.26", "flowcontrol.apiserver.k8s.io/v1"),
  ...r("autoscaling/v2beta2", ["HorizontalPodAutoscaler"], "1.26", "autoscaling/v2"),
  // 1.27
  ...r("storage.k8s.io/v1beta1", ["CSIStorageCapacity"], "1.27", "storage.k8s.io/v1"),
  // 1.29
  ...r("flowcontrol.apiserver.k8s.io/v1beta2", ["FlowSchema", "PriorityLevelConfiguration"], "1.29", "flowcontrol.apiserver.k8s.io/v1"),
  // 1.32
  ...r("flowcontrol.apiserver.k8s.io/v1beta3", ["FlowSchema", "PriorityLevelConfiguration"], "1.32", "flowcontrol.apiserver.k8s.io/v1"),
];

export interface InventoryRef {
  namespace: string;
  name: string;
  group: string;
  kind: string;
  version: string;
}

/**
 * Reads a Flux inventory entry: id `<namespace>_<name>_<group>_<kind>` (empty namespace for cluster-scoped
 * objects, empty group for the core group) and `v` the version. Kubernetes names never hold "_".
 */
export function parseInventoryEntry(entry: { id?: unknown; v?: unknown }): InventoryRef | null {
  if (typeof entry.id !== "string" || typeof entry.v !== "string") return null;
  const parts = entry.id.split("_");
  if (parts.length !== 4 || !parts[1] || !parts[3]) return null;
  const [namespace, name, group, kind] = parts;
  return { namespace, name, group, kind, version: entry.v };
}

/** Inventory entries, given as status.inventory ({ entries: [{ id, v }] }) or as the stored entry list; bad JSON → []. */
export function inventoryRefs(inventory: unknown): InventoryRef[] {
  const entries = Array.isArray(inventory) ? inventory : (inventory as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(entries)) return [];
  return entries.map((e) => parseInventoryEntry(e as { id?: unknown; v?: unknown })).filter((x): x is InventoryRef => x !== null);
}

export interface RemovedApiUse extends InventoryRef {
  removed: RemovedApi;
}

function minorOf(v: string): number {
  return Number(v.split(".")[1]);
}

/**
 * Where a removal stands for a cluster on `current` whose next version is `next`: already not served
 * ("removed": the manifest cannot be applied today), removed by the next upgrade ("next": a blocker), or
 * removed by a later one ("upcoming"). "unknown-version" when the cluster's version is not known.
 */
export type RemovalStage = "removed" | "next" | "upcoming" | "unknown-version";

export interface StagedRemovedApiUse extends RemovedApiUse {
  stage: RemovalStage;
}

export function removalStage(removedIn: string, current: string | null, next: string | null): RemovalStage {
  if (!current) return "unknown-version";
  const r = minorOf(removedIn);
  if (r <= minorOf(current)) return "removed";
  if (next && r <= minorOf(next)) return "next";
  return "upcoming";
}

/** Every inventory entry on a removed or deprecated API, with its removal version and its stage for this cluster. */
export function removedApiUses(refs: readonly InventoryRef[], current: string | null, next: string | null): StagedRemovedApiUse[] {
  const uses: StagedRemovedApiUse[] = [];
  for (const ref of refs) {
    const removed = removedApiOf(ref);
    if (removed) uses.push({ ...ref, removed, stage: removalStage(removed.removedIn, current, next) });
  }
  return uses.sort((a, b) => minorOf(a.removed.removedIn) - minorOf(b.removed.removedIn));
}

function removedApiOf(ref: Pick<InventoryRef, "group" | "version" | "kind">): RemovedApi | undefined {
  return REMOVED_APIS.find((a) => a.group === ref.group && a.version === ref.version && a.kind === ref.kind);
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}
