// Shapes the collector hands to lib/db/writes: what discovery found, what a poll found, and the write plan
// for Flux objects. They live here because lib/db never imports lib/collector, while the collector already
// depends on lib/db.
import type { GitOpsBridgeFacts } from "../kube/argocd/types";
import type { CaredFields } from "../kube/flux";
import type { CrossplaneNodeGroupRecord, FluxObjectRecord, ProvisioningRecord } from "../kube/types";
import type { CrossplaneEksFacts } from "../fleet/cluster-facts";
import type { ClusterProvisioning, ProvisionerVerdict } from "../fleet/provisioning";

export type AccessVia = "hub" | "label-secret" | "flux-secret" | "crossplane-secret" | "argocd-secret" | "eks";

/** What an Argo CD cluster secret says about its cluster (no credential: the way in is described in words). */
export interface ArgoAccessFacts {
  /** Argo CD's name for the cluster (what spec.destination.name refers to). */
  name: string | null;
  server: string;
  /** How Argo CD (and so Crow's Nest) reaches it, in words (accessSummary). */
  access: string;
  /** Why Crow's Nest cannot use this way in (an exec plugin it never runs, no credentials), else null. */
  problem: string | null;
  warnings: string[];
  /** GitOps Bridge metadata from the secret's labels and annotations. */
  gitopsBridge: GitOpsBridgeFacts;
}

/** One way to reach a cluster. Stored in cluster.accessPaths (never a credential, only where to find one). */
export interface AccessPath {
  via: AccessVia;
  secretNamespace?: string;
  secretName?: string;
  key?: string;
  region?: string;
  roleArn?: string;
  /** Argo CD cluster secrets only: what the secret says (kept with the path, as the secret is its source). */
  argocd?: ArgoAccessFacts;
}

export interface DiscoveredCluster {
  name: string;
  role: "hub" | "spoke";
  accessPaths: AccessPath[];
  endpoint: string | null;
  eksArn: string | null;
  eksName: string | null;
  region: string | null;
  accountId: string | null;
  env: string | null;
  team: string | null;
  labels: Record<string, string>;
  provisioners: DiscoveredProvisioner[];
  /** Crossplane NodeGroups of this cluster (either provider). */
  nodeGroups: CrossplaneNodeGroupRecord[];
  /** Crossplane is still creating it, or failed to: nothing to reach yet. */
  provisioning: ClusterProvisioning | null;
  /** The version Crossplane is asked to run. */
  desiredVersion: string | null;
  /** EKS facts Crossplane observed (status.atProvider), written when the EKS API cannot be asked. */
  crossplaneFacts: CrossplaneEksFacts | null;
}

/** A Crossplane resource that provisions a cluster, with what it is doing (lib/fleet/provisioning.ts). */
export type DiscoveredProvisioner = ProvisioningRecord & { verdict: ProvisionerVerdict };

/** The result of polling one cluster's Kubernetes API. */
export interface KubePollResult {
  ok: boolean;
  error?: { message: string; kind: string };
  /** How long reading it took; null when nothing was timed yet (the stored figure stays). */
  latencyMs: number | null;
  requests: number;
  objectCount: number;
  kubernetesVersion: string | null;
  kubeletVersions: Record<string, number> | null;
  fluxVersion: string | null;
  fluxReport: unknown | null;
  substitutions?: Record<string, Record<string, string>> | null;
  healthCounts?: Record<string, Record<string, number>> | null;
}

/** What we remember per stored object (loaded once per cluster, then kept in memory). */
export interface KnownObject {
  id: string;
  kind: string;
  hash: string;
  cared: CaredFields;
  firstFailedAt: string | null;
  lastReadyAt: string | null;
  lastGoodRevision: string | null;
  lastReconcileAt: string | null;
  deleted: boolean;
}

export interface ObjectUpsert {
  key: string;
  record: FluxObjectRecord;
  /** `JSON.stringify(record)`: what the hash was taken of, and the row the write sends. */
  json: string;
  hash: string;
  firstFailedAt: string | null;
  lastReadyAt: string | null;
  lastGoodRevision: string | null;
}

export interface TransitionRow {
  key: string;
  at: string;
  /** first-seen: found on the first poll of its cluster (it existed before we looked); created: appeared since. */
  change: "first-seen" | "created" | "changed" | "deleted";
  fields: string[];
  previousHealth: string | null;
  cared: CaredFields;
}

export interface ObjectPlan {
  upserts: ObjectUpsert[];
  transitions: TransitionRow[];
  /** Keys of stored objects that vanished from the cluster. */
  deletions: string[];
}
