// Our own shapes of what the collector reads from a cluster. Kubernetes and client-node types stay inside
// lib/kube; everything else in the project sees only these.
import type { HealthDetail, StoredHealth } from "../fleet/status";

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export const FLUX_KIND_NAMES = ["Kustomization", "HelmRelease", "GitRepository", "OCIRepository", "HelmRepository", "HelmChart"] as const;
export type FluxKind = (typeof FLUX_KIND_NAMES)[number];
/** Argo CD kinds stored beside the Flux ones (same table, same history). */
export const ARGO_KIND_NAMES = ["Application", "ApplicationSet"] as const;
/** Every kind the collector stores as an object: Flux's and Argo CD's. */
export type CollectedKind = FluxKind | (typeof ARGO_KIND_NAMES)[number];

/** One Flux object as the collector stores it (current state). */
export interface FluxObjectRecord {
  kind: CollectedKind;
  apiVersion: string;
  namespace: string;
  name: string;
  uid: string | null;
  generation: number | null;
  observedGeneration: number | null;
  health: StoredHealth;
  /** "static" (OCI HelmRepository) or "drifted" (Ready with Drifted=True); null otherwise. */
  healthDetail: HealthDetail | null;
  /** metadata.creationTimestamp, ISO. */
  creationTimestamp: string | null;
  readyStatus: string | null;
  readyReason: string | null;
  readyMessage: string | null;
  stalledReason: string | null;
  stalledMessage: string | null;
  reconciling: boolean;
  suspended: boolean;
  conditions: Condition[];
  attemptedRevision: string | null;
  appliedRevision: string | null;
  originRevision: string | null;
  sourceKind: string | null;
  sourceNamespace: string | null;
  sourceName: string | null;
  url: string | null;
  chartName: string | null;
  /** HelmRelease: chart version of the newest release snapshot (whatever its status); HelmChart: artifact revision. */
  chartVersion: string | null;
  /** HelmRelease: chart version of the newest snapshot whose status is `deployed` (what runs), null when none. */
  deployedChartVersion: string | null;
  appVersion: string | null;
  desiredChartVersion: string | null;
  /** HelmRelease: the HelmChart helm-controller generated for it (status.helmChart "<namespace>/<name>"). */
  helmChartNamespace: string | null;
  helmChartName: string | null;
  dependsOn: string[];
  interval: string | null;
  intervalSeconds: number | null;
  lastHandledReconcileAt: string | null;
  /** ISO time of the controller's last reconcile, when the object tells. */
  lastReconcileAt: string | null;
  inventory: Array<{ id: string; v: string }> | null;
  history: unknown[] | null;
  spec: Record<string, unknown>;
  /** Argo CD's specifics of an Application or ApplicationSet (lib/kube/argocd/types.ts); absent for Flux kinds. */
  details?: Record<string, unknown> | null;
}

/** A Kubernetes Event kept by the collector: about a Flux object, a Node, or a Crossplane resource on the hub. */
export interface KubeEventRecord {
  uid: string;
  involvedApiVersion: string | null;
  involvedKind: string;
  involvedNamespace: string;
  involvedName: string;
  type: string;
  reason: string;
  message: string;
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
  reportingController: string | null;
  /** Flux's `<group>/revision` annotation: the source revision, or for helm-controller the chart version. */
  revision: string | null;
}

/** A Crossplane resource that provisions a cluster and writes its connection secret. */
export interface ProvisioningRecord {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  ready: string | null;
  readyReason: string | null;
  synced: string | null;
  syncedReason: string | null;
  conditions: Condition[];
  secretNamespace: string | null;
  secretName: string | null;
  /** EKS cluster name the resource stands for, when it says (external name, clusterName). */
  eksName: string | null;
  region: string | null;
  /** metadata.creationTimestamp */
  createdAt: string | null;
  /** spec.forProvider.version: the Kubernetes version asked for. */
  desiredVersion: string | null;
  /** What the provider last observed (status.atProvider); all null while an upjet resource is being created. */
  eksArn: string | null;
  version: string | null;
  platformVersion: string | null;
  /** atProvider.status: CREATING | ACTIVE | UPDATING | DELETING | FAILED | PENDING */
  eksStatus: string | null;
  /** upgradePolicy.supportType (Upbound only): STANDARD | EXTENDED */
  supportType: string | null;
  /** The connection secret as discovery found it (null: the resource names none, or it was not read). */
  secret: ConnectionSecretState | null;
}

/**
 * Crossplane writes a connection secret empty on its first reconcile and adds the keys once the cluster
 * exists: only a kubeconfig in it means the cluster can be reached.
 */
export type ConnectionSecretState = "missing" | "empty" | "kubeconfig";

/** A Crossplane NodeGroup (provider-aws v1alpha1, or Upbound v1beta1 lists / v1beta2 objects). */
export interface CrossplaneNodeGroupRecord {
  apiVersion: string;
  kind: string;
  /** The resource's own name. */
  resourceName: string;
  /** The EKS node group name (external name). */
  name: string;
  /** EKS name of the cluster it belongs to, when resolved (forProvider.clusterName / atProvider.clusterName). */
  clusterName: string | null;
  /** Name of the Crossplane Cluster it references (clusterNameRef). */
  clusterRef: string | null;
  version: string | null;
  releaseVersion: string | null;
  status: string | null;
  capacityType: string | null;
  amiType: string | null;
  instanceTypes: string[];
  desiredSize: number | null;
  minSize: number | null;
  maxSize: number | null;
  ready: string | null;
  readyReason: string | null;
  synced: string | null;
  syncedReason: string | null;
}

/** One Node as the collector stores it: its node group, kubelet and whether it is Ready. */
export interface NodeRecord {
  name: string;
  /** `eks.amazonaws.com/nodegroup`: the EKS managed node group it belongs to (null for Karpenter, self-managed, Fargate). */
  nodeGroup: string | null;
  kubeletVersion: string | null;
  /** The Ready condition: True | False | Unknown, null when the node has none yet. */
  readyStatus: string | null;
  readyReason: string | null;
  readyMessage: string | null;
  /** When Ready last changed (ISO): "NotReady since". */
  readySince: string | null;
  /** ON_DEMAND | SPOT (EKS label; Karpenter's `karpenter.sh/capacity-type` read upper-cased). */
  capacityType: string | null;
  instanceType: string | null;
}

/** A reference to a secret in the hub that holds a spoke kubeconfig. */
export interface SecretRef {
  namespace: string;
  name: string;
  /** Preferred key, when the referrer names one (Flux kubeConfig.secretRef.key). */
  key?: string;
}

export interface FluxReportSummary {
  distribution: { version: string | null; status: string | null; entitlement: string | null } | null;
  ready: string | null;
  readyMessage: string | null;
}
