// Objects that act on another cluster: a hub Kustomization or HelmRelease with spec.kubeConfig.secretRef
// lives in the hub but applies to whatever cluster that secret reaches. Discovery already knows which
// cluster each hub secret leads to (its access paths); this maps the objects onto those clusters. Pure.
import { fluxKubeconfigRef } from "../kube/crossplane";
import type { FluxObjectRecord } from "../kube/types";
import type { AccessPath } from "../db/types";

export interface ObjectTarget {
  kind: string;
  namespace: string;
  name: string;
  /** The cluster the object applies to; null when its secret leads to no cluster we know. */
  targetClusterId: number | null;
}

/** Hub secret ("namespace/name") → the cluster it reaches, from every cluster's access paths. */
export function clustersBySecret(clusters: Array<{ id: number; role: string; accessPaths: AccessPath[] }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of clusters) {
    if (c.role === "hub") continue;
    for (const p of c.accessPaths ?? []) {
      if (p.secretNamespace && p.secretName) out.set(`${p.secretNamespace}/${p.secretName}`, c.id);
    }
  }
  return out;
}

/** The objects with a spec.kubeConfig.secretRef, with the cluster each applies to. */
export function objectTargets(records: FluxObjectRecord[], bySecret: Map<string, number>): ObjectTarget[] {
  const out: ObjectTarget[] = [];
  for (const r of records) {
    if (r.kind !== "Kustomization" && r.kind !== "HelmRelease") continue;
    const ref = fluxKubeconfigRef({ metadata: { namespace: r.namespace }, spec: r.spec });
    if (!ref) continue;
    out.push({ kind: r.kind, namespace: r.namespace, name: r.name, targetClusterId: bySecret.get(`${ref.namespace}/${ref.name}`) ?? null });
  }
  return out;
}
