import { describe, expect, it } from "vitest";
import { kindFromSlug, kindSlug, resolveKind } from "./kinds";
import { objectPath } from "./urls";

describe("resolveKind", () => {
  it.each([
    ["Kustomization", "Kustomization"],
    ["kustomizations", "Kustomization"],
    ["KS", "Kustomization"],
    ["HelmRelease", "HelmRelease"],
    ["hr", "HelmRelease"],
    ["HELMRELEASES", "HelmRelease"],
    ["HelmRelease.helm.toolkit.fluxcd.io", "HelmRelease"],
    ["gitrepo", "GitRepository"],
    ["gitrepositories", "GitRepository"],
    ["ocirepo", "OCIRepository"],
    ["OCIRepository", "OCIRepository"],
    ["helmrepo", "HelmRepository"],
    ["helmrepositories", "HelmRepository"],
    ["hc", "HelmChart"],
    ["helmcharts", "HelmChart"],
    [" helmchart ", "HelmChart"],
  ])("%s → %s", (text, want) => expect(resolveKind(text)).toBe(want));

  it.each([["Deployment"], ["HelmRelease.apps"], [""], ["bucket"]])("%s → null", (text) => expect(resolveKind(text)).toBeNull());
});

describe("URL slugs", () => {
  it("uses the lower-case singular", () => {
    expect(kindSlug("HelmRelease")).toBe("helmrelease");
    expect(kindFromSlug("ocirepository")).toBe("OCIRepository");
    expect(kindFromSlug("hr")).toBeNull();
    expect(kindFromSlug("HelmRelease")).toBeNull();
  });
  it("builds the canonical object URL", () => {
    expect(objectPath({ cluster: "prod-eu-1", kind: "GitRepository", namespace: "flux-system", name: "fleet repo" })).toBe(
      "/clusters/prod-eu-1/gitrepository/flux-system/fleet%20repo",
    );
  });
});
