import { describe, expect, it } from "vitest";
import { troubledSource, upstreamOf, type ChainLink } from "./source-chain";

const base = { sourceKind: null, sourceNamespace: null, sourceName: null, helmChartNamespace: null, helmChartName: null };

describe("upstreamOf", () => {
  it("a HelmRelease links to the HelmChart helm-controller generated (status.helmChart)", () => {
    const name = `${"n".repeat(63)}-${"r".repeat(63)}`; // 127 characters: HelmChart names are not labels
    expect(
      upstreamOf({
        ...base,
        kind: "HelmRelease",
        namespace: "n".repeat(63),
        name: "r".repeat(63),
        sourceKind: "HelmRepository",
        sourceNamespace: "flux-system",
        sourceName: "podinfo",
        helmChartNamespace: "flux-system",
        helmChartName: name,
      }),
    ).toEqual({ kind: "HelmChart", namespace: "flux-system", name });
  });

  it("before the chart exists, the HelmChart it will have: <namespace>-<name> in the source's namespace", () => {
    expect(
      upstreamOf({
        ...base,
        kind: "HelmRelease",
        namespace: "monitoring",
        name: "kps",
        sourceKind: "HelmRepository",
        sourceNamespace: "flux-system",
        sourceName: "prometheus-community",
      }),
    ).toEqual({ kind: "HelmChart", namespace: "flux-system", name: "monitoring-kps" });
  });

  it("spec.chartRef links straight to the OCIRepository or HelmChart", () => {
    expect(
      upstreamOf({
        ...base,
        kind: "HelmRelease",
        namespace: "karpenter",
        name: "karpenter",
        sourceKind: "OCIRepository",
        sourceNamespace: "flux-system",
        sourceName: "karpenter",
      }),
    ).toEqual({
      kind: "OCIRepository",
      namespace: "flux-system",
      name: "karpenter",
    });
    expect(
      upstreamOf({ ...base, kind: "HelmRelease", namespace: "apps", name: "x", sourceKind: "HelmChart", sourceName: "shared" }),
    ).toEqual({
      kind: "HelmChart",
      namespace: "apps",
      name: "shared",
    });
  });

  it("a HelmChart links to its repository, a Kustomization to its source, a source to nothing", () => {
    expect(
      upstreamOf({ ...base, kind: "HelmChart", namespace: "flux-system", name: "c", sourceKind: "HelmRepository", sourceName: "podinfo" }),
    ).toEqual({
      kind: "HelmRepository",
      namespace: "flux-system",
      name: "podinfo",
    });
    expect(
      upstreamOf({
        ...base,
        kind: "Kustomization",
        namespace: "flux-system",
        name: "apps",
        sourceKind: "GitRepository",
        sourceName: "apps",
      })?.kind,
    ).toBe("GitRepository");
    expect(upstreamOf({ ...base, kind: "GitRepository", namespace: "flux-system", name: "apps" })).toBeNull();
  });
});

describe("troubledSource", () => {
  const link = (kind: string, health: ChainLink["health"]): ChainLink => ({
    kind,
    namespace: "flux-system",
    name: kind.toLowerCase(),
    health,
    reason: null,
    message: null,
  });
  it("names the first link in trouble behind a ready consumer", () => {
    const chain = [link("HelmChart", "ready"), link("HelmRepository", "failing")];
    expect(troubledSource("ready", chain)?.kind).toBe("HelmRepository");
    expect(troubledSource("ready", [link("HelmChart", "missing")])?.kind).toBe("HelmChart");
  });
  it("says nothing for a consumer in trouble itself, or a healthy chain", () => {
    expect(troubledSource("failing", [link("HelmRepository", "failing")])).toBeNull();
    expect(troubledSource("ready", [link("HelmChart", "ready"), link("HelmRepository", "progressing")])).toBeNull();
  });
});
