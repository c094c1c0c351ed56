// The `cluster-info` pattern: Kustomizations take per-cluster variables from ConfigMaps through
// `spec.postBuild.substituteFrom` (and inline `spec.postBuild.substitute`). We show those variables on
// the cluster page. Secrets named in substituteFrom are never read: their values must not leave the cluster.

import { arr, obj, str } from "./raw";

export interface SubstitutionSources {
  /** ConfigMaps to read, "namespace/name", each once. */
  configMaps: string[];
  /** Inline values per Kustomization, keyed "inline <namespace>/<name>". */
  inline: Record<string, Record<string, string>>;
}

/** What the Kustomizations of a cluster substitute from, read off their specs. */
export function substitutionSources(kustomizations: unknown[]): SubstitutionSources {
  const configMaps = new Set<string>();
  const inline: Record<string, Record<string, string>> = {};
  for (const item of kustomizations) {
    const meta = obj(obj(item).metadata);
    const namespace = str(meta.namespace) ?? "default";
    const postBuild = obj(obj(obj(item).spec).postBuild);
    const refs = arr(postBuild.substituteFrom);
    for (const ref of refs) {
      const r = obj(ref);
      const name = str(r.name);
      if (r.kind === "ConfigMap" && name) configMaps.add(`${namespace}/${name}`);
    }
    const values = Object.entries(obj(postBuild.substitute)).filter((e): e is [string, string] => typeof e[1] === "string");
    if (values.length) inline[`inline ${namespace}/${str(meta.name) ?? "?"}`] = Object.fromEntries(values);
  }
  return { configMaps: [...configMaps].sort(), inline };
}

/** The string data of a ConfigMap (binaryData is skipped). */
export function configMapData(raw: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(obj(obj(raw).data)).filter((e): e is [string, string] => typeof e[1] === "string"));
}
