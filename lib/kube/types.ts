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

/** One Flux object as the collector stores it (current state). */
export interface FluxObjectRecord {
  kind: FluxKind;
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
