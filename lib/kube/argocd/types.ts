// Our own shapes of what Argo CD writes: cluster secrets (how to reach a cluster, and the GitOps Bridge
// metadata on them) and Application / ApplicationSet records. Argo CD's Go types stay described here, in
// lib/kube; the rest of the project sees only these.
import type { FluxObjectRecord } from "../types";
import type { ArgoHealth } from "../../fleet/argocd-status";

export const ARGOCD_GROUP = "argoproj.io";
export const ARGOCD_VERSION = "v1alpha1";
import type { ARGO_KIND_NAMES } from "../types";
export type ArgoKind = (typeof ARGO_KIND_NAMES)[number];

/** Label that makes a Secret an Argo CD cluster secret. */
export const CLUSTER_SECRET_TYPE_LABEL = "argocd.argoproj.io/secret-type";
/** Argo CD's address for the cluster it runs in. */
export const IN_CLUSTER_SERVER = "https://kubernetes.default.svc";
/** Name of the implicit in-cluster destination (exists without any secret). */
export const IN_CLUSTER_NAME = "in-cluster";

// --- cluster secrets ----------------------------------------------------------------------------------

/**
 * How Argo CD authenticates to a cluster, in the order Argo CD itself applies (RawRestConfig):
 * in-cluster server first, then awsAuthConfig, then execProviderConfig, then basic/bearer (+ TLS).
 * Holds credentials: never store, log or show it; use `accessSummary` for that.
 */
export type ArgoClusterAuth =
  /** Argo CD's own service account in the cluster holding the secret (server https://kubernetes.default.svc). */
  | { type: "in-cluster" }
  | { type: "bearer"; token: string }
  | { type: "basic"; username: string; password: string }
  /** The client certificate in `tls.clientCert` is the only credential. */
  | { type: "client-cert" }
  /** An EKS token for `clusterName`, minted with our own AWS identity after assuming `roleArn` when given. */
  | { type: "eks-token"; clusterName: string; roleArn: string | null; profile: string | null; via: "awsAuthConfig" | "exec" }
  /** A client-go exec plugin we do not run (only its command name is kept: args and env may hold secrets). */
  | { type: "exec"; command: string; apiVersion: string | null; installHint: string | null }
  /** Nothing: requests would be anonymous. */
  | { type: "none" };

export interface ArgoClusterAccess {
  /** API URL as Argo CD uses it (trailing "/" trimmed). */
  endpoint: string;
  tls: {
    /** PEM of the CA to trust, when the secret gives one (else the system roots). */
    caPem: string | null;
    insecure: boolean;
    serverName: string | null;
    clientCert: { certPem: string; keyPem: string } | null;
  };
  auth: ArgoClusterAuth;
  proxyUrl: string | null;
  disableCompression: boolean;
}

/** Repository coordinates the GitOps Bridge writes for add-ons and workloads. */
export interface RepoCoordinates {
  url: string | null;
  basepath: string | null;
  path: string | null;
  revision: string | null;
}

/** What the GitOps Bridge (and people following its conventions) put in a cluster secret's labels and annotations. */
export interface GitOpsBridgeFacts {
  clusterName: string | null;
  environment: string | null;
  team: string | null;
  region: string | null;
  accountId: string | null;
  /** EKS cluster name (`aws_cluster_name`). */
  eksClusterName: string | null;
  vpcId: string | null;
  kubernetesVersion: string | null;
  /** `enable_<addon>` flags, both true and false (the bridge writes both), keyed by add-on name. */
  addons: Record<string, boolean>;
  /** `<addon>_iam_role_arn`, `<addon>_namespace`, `<addon>_service_account` annotations per add-on. */
  addonMetadata: Record<string, { iamRoleArn?: string; namespace?: string; serviceAccount?: string }>;
  addonsRepo: RepoCoordinates | null;
  workloadRepo: RepoCoordinates | null;
}

/** One parsed Argo CD cluster secret. */
export interface ArgoClusterSecret {
  secret: { namespace: string; name: string; uid: string | null };
  /** Argo CD's name for the cluster (`data.name`), what `spec.destination.name` refers to. */
  name: string | null;
  server: string;
  inCluster: boolean;
  /** Namespaces Argo CD is limited to (empty: all). */
  namespaces: string[];
  clusterResources: boolean;
  project: string | null;
  shard: number | null;
  /** `argocd.argoproj.io/skip-reconcile: "true"`: Argo CD skips every Application targeting it. */
  skipReconcile: boolean;
  access: ArgoClusterAccess;
  /** The secret's labels minus the secret-type label (what the cluster generator matches). */
  labels: Record<string, string>;
  /** The secret's annotations minus last-applied-configuration and managed-by (what templates read). */
  annotations: Record<string, string>;
  gitopsBridge: GitOpsBridgeFacts;
  /** Flattened for discovery, like the other discovery paths' candidates. */
  env: string | null;
  team: string | null;
  region: string | null;
  accountId: string | null;
  eksName: string | null;
  /** `arn:aws:eks:<region>:<account>:cluster/<name>` when the metadata gives all three (merging by ARN). */
  eksArn: string | null;
  /** Things that do not stop Argo CD from using the secret but a person should know. */
  warnings: string[];
}

export type ArgoClusterSecretResult =
  { ok: true; cluster: ArgoClusterSecret } | { ok: false; secret: { namespace: string; name: string }; problem: string };

/** A place Argo CD can deploy to: a parsed secret, or the implicit in-cluster destination. */
export interface ArgoDestinationCluster {
  name: string;
  server: string;
  /** Null for the implicit in-cluster destination (no secret). */
  secret: ArgoClusterSecret | null;
  inCluster: boolean;
}

// --- Applications ----------------------------------------------------------------------------------------

export interface ArgoSourceSummary {
  repoURL: string;
  /** Git path (directory, Kustomize, plugin sources). */
  path: string | null;
  /** Helm chart name (Helm repository and OCI sources). */
  chart: string | null;
  targetRevision: string | null;
  /** `ref` of a values-only source in a multi-source Application. */
  ref: string | null;
  name: string | null;
  releaseName: string | null;
  kind: "helm" | "git" | "oci";
}

export interface ArgoOperationSummary {
  phase: string;
  message: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** `username` or "automated". */
  initiatedBy: string | null;
  /** The revision(s) the operation synced to (syncResult, else the operation's). */
  revisions: string[];
  retryCount: number | null;
}

export interface ArgoHistoryEntry {
  id: number;
  revisions: string[];
  deployedAt: string | null;
  deployStartedAt: string | null;
  initiatedBy: string | null;
  /** Chart name/version of the Helm source in that sync, when there was one. */
  chart: string | null;
  chartVersion: string | null;
}

export interface ArgoResourceRef {
  group: string;
  version: string;
  kind: string;
  namespace: string;
  name: string;
  status: string | null;
  health: string | null;
  healthMessage: string | null;
}

export interface ArgoResourcesSummary {
  total: number;
  byKind: Record<string, number>;
  /** Sync status per resource (Synced, OutOfSync, Unknown). */
  byStatus: Record<string, number>;
  /** Health per resource, only when Argo CD persists it (see healthSource). */
  byHealth: Record<string, number>;
  /** "appTree": Argo CD v3 keeps resource health out of the Application (the default); "inline": in status.resources. */
  healthSource: "appTree" | "inline";
  /** Distinct group/version/kind of every managed resource (for removed-API checks), sorted. */
  apiVersions: Array<{ group: string; version: string; kind: string; count: number }>;
}

export interface ArgoApplicationDetails {
  project: string | null;
  /** Argo CD's own words: status.sync.status, status.health.status, status.operationState.phase. */
  syncStatus: string | null;
  healthStatus: string | null;
  healthSince: string | null;
  operation: ArgoOperationSummary | null;
  /** `operation` is set: a sync was requested and the controller has not finished it. */
  operationRequested: boolean;
  /** `argocd.argoproj.io/refresh` while a refresh waits for the controller. */
  refreshRequested: string | null;
  sources: ArgoSourceSummary[];
  /** Index in `sources` of the source that says what is deployed (the chart, else the path, else the first non-ref one). */
  primarySource: number | null;
  multiSource: boolean;
  /** status.sync.revision(s): what the last comparison resolved the target to. */
  syncedRevisions: string[];
  destination: { server: string | null; name: string | null; namespace: string | null };
  automatedSync: { enabled: boolean; prune: boolean; selfHeal: boolean };
  resources: ArgoResourcesSummary;
  /** status.history converted to newest first (Argo CD keeps it oldest first). */
  history: ArgoHistoryEntry[];
  /** Warning conditions (SharedResourceWarning, OrphanedResourceWarning, …): not failures. */
  warnings: string[];
  /** Live state differs from Git without being a failure (see lib/fleet/argocd-status.ts). */
  drift: { reason: string; message: string } | null;
  reconciledAt: string | null;
  sourceTypes: string[];
  images: string[];
  /** The ApplicationSet that generated this Application (ownerReference), when any. */
  applicationSet: string | null;
}

export interface ArgoApplicationSetDetails {
  /** status.resourcesCount, else the length of status.resources (the count Argo CD generated). */
  generated: number | null;
  /** Generated Applications by their health and sync status, from status.resources. */
  byHealth: Record<string, number>;
  byStatus: Record<string, number>;
  applications: Array<{ namespace: string; name: string; health: string | null; status: string | null }>;
  generators: string[];
  templateName: string | null;
  goTemplate: boolean;
}

/**
 * An Argo CD object as the collector would store it: the same fields as a Flux object (so lists, counts,
 * failures and object pages stay generic), with Argo CD's specifics in `argo`. The Flux-named fields carry:
 * readyStatus/readyReason/readyMessage — our derived verdict (Argo CD has no Ready condition);
 * attemptedRevision — the revision of the last sync operation; appliedRevision — the newest history entry;
 * url/chartName/desiredChartVersion/chartVersion — the primary source; inventory — status.resources in
 * Flux's `<namespace>_<name>_<group>_<Kind>` form (these resources live in the destination cluster);
 * history — newest first; lastReconcileAt — status.reconciledAt.
 */
type ArgoRecordBase = Omit<FluxObjectRecord, "kind" | "health"> & { health: ArgoHealth };
export type ArgoApplicationRecord = ArgoRecordBase & { kind: "Application"; argo: ArgoApplicationDetails };
export type ArgoApplicationSetRecord = ArgoRecordBase & { kind: "ApplicationSet"; appSet: ArgoApplicationSetDetails };
/** @public The record type the collector writes for Argo CD kinds once they are collected (issue 15). */
export type ArgoObjectRecord = ArgoApplicationRecord | ArgoApplicationSetRecord;
