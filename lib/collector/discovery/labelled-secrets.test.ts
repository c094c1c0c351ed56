import { describe, expect, it } from "vitest";
import type { HubReader } from "./hub-reader";
import { candidateFromSecret } from "./candidates";
import { labelledSecretReference, labelledSecretReferences } from "./labelled-secrets";
import { SourceProblems } from "./problems";
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

describe("where labelled secrets are looked for", () => {
  const secret = (namespace: string, name: string) => ({
    metadata: { namespace, name, labels: { "crows-nest.io/cluster-kubeconfig": "true" } },
  });
  /** A hub that answers only for the namespaces it is given, and refuses the rest as RBAC would (403). */
  function hub(readable: Record<string, Array<Record<string, unknown>>>, seen: string[]): HubReader {
    return {
      server: "https://hub.example",
      requests: 0,
      getJson: () => Promise.reject(new Error("not used")),
      list: (path, options) => {
        seen.push(`${path}?${options?.labelSelector}`);
        const namespace = /^\/api\/v1\/namespaces\/([^/]+)\/secrets$/.exec(path)?.[1];
        if (namespace && readable[namespace]) return Promise.resolve(readable[namespace]);
        return Promise.reject(Object.assign(new Error(`secrets is forbidden at ${path}`), { status: 403 }));
      },
    };
  }

  it("lists every namespace at once when none is named", async () => {
    const seen: string[] = [];
    const problems = new SourceProblems();
    const refs = await labelledSecretReferences(
      hub({}, seen),
      "crows-nest.io/cluster-kubeconfig",
      new SecretStore({} as HubReader),
      problems,
    );
    expect(seen).toEqual(["/api/v1/secrets?crows-nest.io/cluster-kubeconfig=true"]);
    expect(refs).toEqual([]);
    expect(problems.complete).toBe(false);
    expect(problems.messages[0]).toMatch(/^listing labelled secrets in every namespace: .*forbidden/);
  });

  it("lists only the named namespaces (where RBAC lets it), and one refused does not hide the others", async () => {
    const seen: string[] = [];
    const problems = new SourceProblems();
    const refs = await labelledSecretReferences(
      hub({ "crossplane-system": [secret("crossplane-system", "a")], "flux-system": [secret("flux-system", "b")] }, seen),
      "crows-nest.io/cluster-kubeconfig",
      new SecretStore({} as HubReader),
      problems,
      ["crossplane-system", "flux-system", "team-x"],
    );
    expect(seen).toEqual([
      "/api/v1/namespaces/crossplane-system/secrets?crows-nest.io/cluster-kubeconfig=true",
      "/api/v1/namespaces/flux-system/secrets?crows-nest.io/cluster-kubeconfig=true",
      "/api/v1/namespaces/team-x/secrets?crows-nest.io/cluster-kubeconfig=true",
    ]);
    expect(refs.map((r) => `${r.ref.namespace}/${r.ref.name}`)).toEqual(["crossplane-system/a", "flux-system/b"]);
    expect(problems.messages).toHaveLength(1);
    expect(problems.messages[0]).toMatch(/^listing labelled secrets in team-x: /);
  });
});
