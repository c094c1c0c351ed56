import { describe, expect, it } from "vitest";
import { configMapData, substitutionSources } from "./substitutions";

const ks = (namespace: string, name: string, postBuild: unknown) => ({
  apiVersion: "kustomize.toolkit.fluxcd.io/v1",
  kind: "Kustomization",
  metadata: { namespace, name },
  spec: { interval: "10m", path: "./apps", prune: true, sourceRef: { kind: "GitRepository", name: "fleet" }, postBuild },
});

describe("substitutionSources", () => {
  it("collects ConfigMaps once, skips Secrets, and keeps inline values per Kustomization", () => {
    const sources = substitutionSources([
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
    expect(substitutionSources([null, 7, "x", {}])).toEqual({ configMaps: [], inline: {} });
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
