import { describe, expect, it } from "vitest";
import type { HubReader } from "./hub-reader";
import { candidateFromSecret } from "./candidates";
import { labelledSecretReference } from "./labelled-secrets";
import { SecretStore } from "./secret-store";
import { model, ofKind } from "./simulated-hub.testing";

describe("discovery through labelled kubeconfig secrets", () => {
  it("points at the labelled secret itself and names the cluster from its kubeconfig", () => {
    const store = new SecretStore({} as HubReader);
    const labelled = ofKind("Secret")
      .filter((s) => (s.metadata as { labels?: Record<string, string> }).labels?.["crows-nest.io/cluster-kubeconfig"] === "true")
      .map((s) => store.add(s));
    expect(labelled).toHaveLength(1);
    const ref = labelledSecretReference(labelled[0]);
    expect(ref).toMatchObject({
      via: "label-secret",
      ref: { namespace: "fleet-kubeconfigs", name: `${model.facts.labelOnly[0]}-kubeconfig` },
    });
    const candidate = candidateFromSecret(ref.ref, ref.via, labelled[0], undefined, ref.labels);
    expect(candidate?.name).toBe(model.facts.labelOnly[0]);
  });
});
