// Objects that act on another cluster: a hub Kustomization or HelmRelease with spec.kubeConfig.secretRef
// lives in the hub but applies to whatever cluster that secret reaches; an Argo CD Application applies to
// its spec.destination (a server URL or an Argo CD cluster name). Discovery already knows which cluster each
// hub secret, API server and Argo CD name leads to (its access paths); this maps the objects onto those
// clusters. Pure.
import { fluxKubeconfigRef } from "../kube/crossplane";
import { normaliseEndpoint } from "../kube/kubeconfig";
import type { FluxObjectRecord } from "../kube/types";
import type { AccessPath } from "../db/types";

/** Argo CD's address for the cluster it runs in, and the name of that implicit destination. */
const IN_CLUSTER_SERVER = "https://kubernetes.default.svc";
const IN_CLUSTER_NAME = "in-cluster";

export interface ObjectTarget {
  kind: string;
  namespace: string;
  name: string;
  /** The cluster the object applies to; null when its secret leads to no cluster we know. */
  targetClusterId: number | null;
}

const secretKey = (namespace: string, name: string) => `secret:${namespace}/${name}`;
const serverKey = (server: string) => `server:${normaliseEndpoint(server) ?? server}`;
const argoNameKey = (name: string) => `argocd:${name}`;

/**
 * Where each spoke is reached from: hub secret ("secret:<namespace>/<name>"), API server ("server:<host:port>")
 * and Argo CD cluster name ("argocd:<name>") → cluster id. The hub is left out: an object aimed at the hub
 * from the hub applies where it lives.
 */
export function clustersBySecret(
  clusters: Array<{ id: number; role: string; endpoint?: string | null; accessPaths: AccessPath[] }>,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of clusters) {
    if (c.role === "hub") continue;
    if (c.endpoint) out.set(serverKey(c.endpoint), c.id);
    for (const p of c.accessPaths ?? []) {
      if (p.secretNamespace && p.secretName) out.set(secretKey(p.secretNamespace, p.secretName), c.id);
      if (p.argocd?.server) out.set(serverKey(p.argocd.server), c.id);
      if (p.argocd?.name) out.set(argoNameKey(p.argocd.name), c.id);
    }
  }
  return out;
}

/** The cluster an Application's spec.destination names, or null for its own cluster or one we do not know. */
function applicationTarget(r: FluxObjectRecord, index: Map<string, number>): number | null {
  const destination = (r.details?.destination ?? {}) as { server?: string | null; name?: string | null };
  const server = destination.server?.replace(/\/+$/, "");
  if (server) return server === IN_CLUSTER_SERVER ? null : (index.get(serverKey(server)) ?? null);
  const name = destination.name;
  if (!name || name === IN_CLUSTER_NAME) return null;
  return index.get(argoNameKey(name)) ?? null;
}

/** The objects that apply to another cluster, with the cluster each applies to. */
export function objectTargets(records: FluxObjectRecord[], index: Map<string, number>): ObjectTarget[] {
  const out: ObjectTarget[] = [];
  for (const r of records) {
    if (r.kind === "Application") {
      out.push({ kind: r.kind, namespace: r.namespace, name: r.name, targetClusterId: applicationTarget(r, index) });
      continue;
    }
    if (r.kind !== "Kustomization" && r.kind !== "HelmRelease") continue;
    const ref = fluxKubeconfigRef({ metadata: { namespace: r.namespace }, spec: r.spec });
    if (!ref) continue;
    out.push({
      kind: r.kind,
      namespace: r.namespace,
      name: r.name,
      targetClusterId: index.get(secretKey(ref.namespace, ref.name)) ?? null,
    });
  }
  return out;
}
