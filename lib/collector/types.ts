// Shapes shared by the collector's discovery, polling and writes.
import type { ProvisioningRecord } from "../kube/types";

export type AccessVia = "hub" | "label-secret" | "flux-secret" | "crossplane-secret" | "eks";

/** One way to reach a cluster. Stored in cluster.accessPaths (never a credential, only where to find one). */
export interface AccessPath {
  via: AccessVia;
  secretNamespace?: string;
  secretName?: string;
  key?: string;
  region?: string;
  roleArn?: string;
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
  provisioners: ProvisioningRecord[];
}

/** The result of polling one cluster's Kubernetes API. */
export interface KubePollResult {
  ok: boolean;
  error?: { message: string; kind: string };
  latencyMs: number;
  requests: number;
  objectCount: number;
  kubernetesVersion: string | null;
  kubeletVersions: Record<string, number> | null;
  fluxVersion: string | null;
  fluxReport: unknown | null;
  substitutions?: Record<string, Record<string, string>> | null;
  healthCounts?: Record<string, Record<string, number>> | null;
}
