// kubeconfig files for the simulated clusters (static bearer tokens, per-cluster CA).
import { stringify } from "yaml";

export interface KubeconfigCluster {
  name: string;
  endpoint: string;
  caData: string;
}

export function kubeconfigYaml(clusters: KubeconfigCluster[], token: string, userSuffix: string, currentContext: string): string {
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: clusters.map(({ name, endpoint, caData }) => ({
      name,
      cluster: { server: endpoint, "certificate-authority-data": caData },
    })),
    users: [{ name: `sim-${userSuffix}`, user: { token } }],
    contexts: clusters.map(({ name }) => ({ name, context: { cluster: name, user: `sim-${userSuffix}` } })),
    "current-context": currentContext,
    preferences: {},
  });
}
