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

/** What one Kustomization substitutes from: the small part of its spec a watch session keeps. */
export interface SubstitutionNeeds {
  /** ConfigMaps it substitutes from, "namespace/name". */
  readonly configMaps: readonly string[];
  /** Its inline `spec.postBuild.substitute` values, if any. */
  readonly inline: Readonly<Record<string, string>> | null;
}

/** Needs without inline values, one instance per list of ConfigMaps: a fleet's Kustomizations name the same few. */
const shared = new Map<string, SubstitutionNeeds>();
const SHARED_MAX = 10_000;

/** What a Kustomization substitutes from; null when it substitutes nothing (most do not). */
export function substitutionNeeds(item: unknown): SubstitutionNeeds | null {
  const postBuild = obj(obj(obj(item).spec).postBuild);
  const namespace = str(obj(obj(item).metadata).namespace) ?? "default";
  const configMaps: string[] = [];
  for (const ref of arr(postBuild.substituteFrom)) {
    const r = obj(ref);
    const name = str(r.name);
    if (r.kind === "ConfigMap" && name) configMaps.push(`${namespace}/${name}`);
  }
  const values = Object.entries(obj(postBuild.substitute)).filter((e): e is [string, string] => typeof e[1] === "string");
  if (values.length) return { configMaps, inline: Object.fromEntries(values) };
  if (!configMaps.length) return null;
  const key = configMaps.join("\0");
  const known = shared.get(key);
  if (known) return known;
  if (shared.size >= SHARED_MAX) shared.clear();
  const needs = { configMaps, inline: null };
  shared.set(key, needs);
  return needs;
}

/** What the Kustomizations of a cluster substitute from: each one's needs, by its "namespace/name". */
export function substitutionSources(needs: Iterable<readonly [string, SubstitutionNeeds | null]>): SubstitutionSources {
  const configMaps = new Set<string>();
  const inline: Record<string, Record<string, string>> = {};
  for (const [kustomization, one] of needs) {
    if (!one) continue;
    for (const ref of one.configMaps) configMaps.add(ref);
    if (one.inline) inline[`inline ${kustomization}`] = { ...one.inline };
  }
  return { configMaps: [...configMaps].sort(), inline };
}

/** `namespace/name` of a Kustomization, as substitutionSources names its inline values. */
export function kustomizationName(item: unknown): string {
  const meta = obj(obj(item).metadata);
  return [str(meta.namespace) ?? "default", str(meta.name) ?? "?"].join("/");
}

/** The string data of a ConfigMap (binaryData is skipped). */
export function configMapData(raw: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(obj(obj(raw).data)).filter((e): e is [string, string] => typeof e[1] === "string"));
}
