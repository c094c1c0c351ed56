// The contract between the fleet model (lib/simulator/fleet, lib/simulator/aws) and the Kubernetes API
// runtime (lib/simulator/kube). The model decides WHAT each cluster holds at a simulated time; the
// runtime serves it over HTTPS with real Kubernetes semantics (resourceVersion, watch, pagination).
//
// Extensions (backward compatible): FleetModel.epoch (t0 of the scenario timeline),
// ClusterConditions.gitVersion (the /version answer moves when a control plane is upgraded) and
// SimCluster.serviceAccountTokens (bearer tokens a cluster accepts besides the static and EKS ones).

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface SimEksIdentity {
  name: string;
  region: string;
  accountId: string;
  arn: string;
}

export interface SimCluster {
  /** Stable name; also the EKS cluster name for spokes. */
  name: string;
  role: "hub" | "spoke";
  eks?: SimEksIdentity;
  /** Served on /version as gitVersion, e.g. "v1.33.4-eks-3025e55". */
  gitVersion: string;
  /** hub: static bearer tokens only; spoke: EKS tokens (k8s-aws-v1.) and static tokens. */
  auth: "static" | "eks";
  env: string;
  team: string;
  /** Service-account bearer tokens this cluster also accepts (token → user), e.g. Argo CD's argocd-manager. */
  serviceAccountTokens?: Record<string, string>;
}

/** What the runtime knows and the model needs in order to write kubeconfigs and DescribeCluster answers. */
export interface RuntimeInfo {
  /** https://127.0.0.1:<port> of a cluster's API server. */
  endpointOf(cluster: string): string;
  /** base64 of the PEM CA certificate of a cluster (kubeconfig certificate-authority-data). */
  caDataOf(cluster: string): string;
  /** https://127.0.0.1:<port> of the simulated STS (tokens are presigned URLs for it). */
  stsEndpoint: string;
}

export interface ClusterConditions {
  /** Connections to this cluster are refused (the API server is "down"). */
  unreachable: boolean;
  /** /version gitVersion at that time when it differs from SimCluster.gitVersion (a control plane upgrade). */
  gitVersion?: string;
}

/** Deterministic for a seed: the same (seed, t) always gives the same objects. */
export interface FleetModel {
  seed: number;
  /** Epoch ms of t0: scenario times are relative to it (the simulator passes its clock's start). */
  epoch?: number;
  clusters: SimCluster[];
  /** Every object a cluster holds at simulated time t (epoch ms). */
  objectsAt(cluster: string, t: number, runtime: RuntimeInfo): KubeObject[];
  /** Clusters whose objects may differ between t0 and t1 (the runtime re-syncs only those). */
  changedClusters(t0: number, t1: number): string[];
  conditionsAt(cluster: string, t: number): ClusterConditions;
}

/** Result of checking an Authorization header on a spoke. */
export type TokenCheck = { ok: true; user: string; readOnly: boolean } | { ok: false; reason: string };
