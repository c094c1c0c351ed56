import { describe, expect, it } from "vitest";
import { crossplaneSecretReference } from "./crossplane";
import { model, ofKind } from "./simulated-hub.testing";

describe("discovery through Crossplane connection secrets", () => {
  it("reads each provisioning resource's published secret and what it provisions", () => {
    const refs = [...ofKind("Cluster"), ...ofKind("ClusterAuth"), ...ofKind("EKSCluster")].map(crossplaneSecretReference);
    const crossplaneOnly = model.facts.crossplaneOnly[0];
    const ref = refs.find((r) => r.provisioner?.eksName === crossplaneOnly && r.ref.name);
    expect(ref).toMatchObject({
      via: "crossplane-secret",
      ref: { namespace: "crossplane-system", name: `${crossplaneOnly}-eks-connection` },
    });
    // A resource that publishes no secret still names the cluster it provisions (through its provisioner record).
    for (const r of refs) expect(r.provisioner).toBeDefined();
  });
});
