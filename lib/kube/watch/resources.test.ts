import { describe, expect, it } from "vitest";
import { clusterWatchResources } from "./resources";

describe("what a cluster's session watches", () => {
  it("watches the Flux kinds everywhere and the Argo CD kinds only where discovery says they are served", () => {
    const plain = clusterWatchResources().map((r) => r.kind);
    expect(plain).toEqual([
      "Kustomization",
      "HelmRelease",
      "GitRepository",
      "OCIRepository",
      "HelmRepository",
      "HelmChart",
      "Node",
      "Event",
    ]);
    const withArgo = clusterWatchResources({ Application: "v1alpha1", ApplicationSet: "v1alpha1", HelmRelease: "v2beta2" });
    expect(withArgo.map((r) => `${r.kind}@${r.version}`)).toEqual([
      "Kustomization@v1",
      "HelmRelease@v2beta2",
      "GitRepository@v1",
      "OCIRepository@v1",
      "HelmRepository@v1",
      "HelmChart@v1",
      "Application@v1alpha1",
      "ApplicationSet@v1alpha1",
      "Node@v1",
      "Event@v1",
    ]);
    expect(withArgo.find((r) => r.kind === "Application")).toMatchObject({ group: "argoproj.io", plural: "applications" });
  });
});
