// Our own shapes of what the collector reads from a cluster. Kubernetes and client-node types stay inside
// lib/kube; everything else in the project sees only these.
import type { StoredHealth } from "../fleet/status";

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
  chartVersion: string | null;
  appVersion: string | null;
  desiredChartVersion: string | null;
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

/** A Kubernetes Event about a Flux object. */
export interface KubeEventRecord {
  uid: string;
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
