import { describe, expect, it } from "vitest";
import { fluxSecretReference } from "./flux-refs";
import { model, ofKind } from "./simulated-hub.testing";

describe("discovery through the hub's Flux kubeConfig.secretRef", () => {
  it("finds the connection secret a hub HelmRelease deploys through, and skips objects that apply where they live", () => {
    const hubToSpoke = model.facts.hubToSpoke!;
    const refs = [...ofKind("HelmRelease"), ...ofKind("Kustomization")].map(fluxSecretReference).filter((r) => r !== null);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs).toContainEqual(
      expect.objectContaining({
        via: "flux-secret",
        ref: { namespace: "flux-system", name: `${hubToSpoke.spoke}-eks-connection`, key: "kubeconfig" },
      }),
    );
    const local = ofKind("Kustomization").filter((k) => !(k.spec as { kubeConfig?: unknown }).kubeConfig);
    expect(local.length).toBeGreaterThan(0);
    expect(local.map(fluxSecretReference)).toEqual(local.map(() => null));
  });
});
