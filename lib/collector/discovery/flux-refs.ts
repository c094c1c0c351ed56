// Discovery source (a): the hub's Flux Kustomizations and HelmReleases that deploy into spokes through
// spec.kubeConfig.secretRef.
import { FLUX_KINDS } from "../../kube/flux";
import { obj, type Raw } from "../../kube/raw";
import { fluxKubeconfigRef } from "../../kube/crossplane";
import type { SecretReference } from "./candidates";
import { listServedKind, type SourceProblems } from "./problems";
import type { HubReader } from "./hub-reader";

/** The connection secret a Flux object deploys through, or null when it applies where it lives. */
export function fluxSecretReference(item: Raw): SecretReference | null {
  const ref = fluxKubeconfigRef(item);
  return ref ? { ref, via: "flux-secret", labels: obj(obj(item.metadata).labels) as Record<string, string> } : null;
}

export async function fluxSecretReferences(
  hub: HubReader,
  served: Map<string, string[]>,
  problems: SourceProblems,
): Promise<SecretReference[]> {
  const refs: SecretReference[] = [];
  for (const kind of FLUX_KINDS.filter((k) => k.kind === "Kustomization" || k.kind === "HelmRelease")) {
    for (const item of await listServedKind(hub, served, kind, problems, { what: `listing ${kind.plural} in the hub` })) {
      const ref = fluxSecretReference(item);
      if (ref) refs.push(ref);
    }
  }
  return refs;
}
