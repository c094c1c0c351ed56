import { describe, expect, it } from "vitest";
import { configMapData, kustomizationName, substitutionNeeds, substitutionSources } from "./substitutions";

const ks = (namespace: string, name: string, postBuild: unknown) => ({
  apiVersion: "kustomize.toolkit.fluxcd.io/v1",
  kind: "Kustomization",
  metadata: { namespace, name },
  spec: { interval: "10m", path: "./apps", prune: true, sourceRef: { kind: "GitRepository", name: "fleet" }, postBuild },
});

const sourcesOf = (kustomizations: unknown[]) =>
  substitutionSources(kustomizations.map((k) => [kustomizationName(k), substitutionNeeds(k)]));

describe("substitutionSources", () => {
  it("collects ConfigMaps once, skips Secrets, and keeps inline values per Kustomization", () => {
    const sources = sourcesOf([
      ks("flux-system", "apps", {
        substitute: { tier: "gold", replicas: 3 },
        substituteFrom: [
          { kind: "ConfigMap", name: "cluster-info" },
          { kind: "Secret", name: "cluster-secrets" },
        ],
      }),
      ks("flux-system", "infra", { substituteFrom: [{ kind: "ConfigMap", name: "cluster-info", optional: true }] }),
      ks("tenants", "team-a", { substituteFrom: [{ kind: "ConfigMap", name: "cluster-info" }] }),
      ks("flux-system", "plain", undefined),
    ]);
    expect(sources.configMaps).toEqual(["flux-system/cluster-info", "tenants/cluster-info"]);
    // Non-string inline values are not substitution strings (the API would reject them): left out.
    expect(sources.inline).toEqual({ "inline flux-system/apps": { tier: "gold" } });
  });

  it("copes with objects that are not Kustomizations at all", () => {
    expect(sourcesOf([null, 7, "x", {}])).toEqual({ configMaps: [], inline: {} });
  });

  it("keeps nothing of a Kustomization that substitutes nothing, and only names and values of one that does", () => {
    expect(substitutionNeeds(ks("flux-system", "plain", undefined))).toBeNull();
    expect(substitutionNeeds(ks("flux-system", "secrets-only", { substituteFrom: [{ kind: "Secret", name: "s" }] }))).toBeNull();
    const needs = substitutionNeeds(
      ks("flux-system", "apps", { substitute: { tier: "gold" }, substituteFrom: [{ kind: "ConfigMap", name: "cluster-info" }] }),
    );
    expect(needs).toEqual({ configMaps: ["flux-system/cluster-info"], inline: { tier: "gold" } });
    // Kustomizations naming the same ConfigMaps and nothing inline share one record (a fleet keeps 100,000 of them).
    const infra = substitutionNeeds(ks("flux-system", "infra", { substituteFrom: [{ kind: "ConfigMap", name: "cluster-info" }] }));
    const apps = substitutionNeeds(ks("flux-system", "apps2", { substituteFrom: [{ kind: "ConfigMap", name: "cluster-info" }] }));
    expect(infra).toEqual({ configMaps: ["flux-system/cluster-info"], inline: null });
    expect(apps).toBe(infra);
    // Another namespace's cluster-info is another ConfigMap.
    expect(substitutionNeeds(ks("tenants", "a", { substituteFrom: [{ kind: "ConfigMap", name: "cluster-info" }] }))?.configMaps).toEqual([
      "tenants/cluster-info",
    ]);
  });
});

describe("configMapData", () => {
  it("keeps string data only", () => {
    expect(configMapData({ data: { cluster_name: "prod-eu-1", region: "eu-west-1" }, binaryData: { blob: "AAAA" } })).toEqual({
      cluster_name: "prod-eu-1",
      region: "eu-west-1",
    });
    expect(configMapData({})).toEqual({});
  });
});
