import { describe, expect, it } from "vitest";
import { decideGo, levenshtein, parseGoLabels, unnameableLabel, type GoCandidate } from "./go";

const c = (cluster: string, kind: string, namespace: string, name: string, deleted = false): GoCandidate => ({
  cluster,
  kind,
  namespace,
  name,
  deleted,
});

const pool = [
  c("prod-eu-1", "HelmRelease", "monitoring", "kube-prometheus-stack"),
  c("prod-eu-1", "Kustomization", "flux-system", "apps"),
  c("prod-eu-1", "Kustomization", "tenants", "apps"),
  c("prod-eu-2", "Kustomization", "flux-system", "apps"),
  c("prod-eu-2", "HelmRelease", "monitoring", "kube-prometheus-stack", true),
  c("prod-eu-2", "HelmRelease", "observability", "kube-prometheus-stack"),
];
const clusters = ["prod-eu-1", "prod-eu-2", "staging-us-1"];

describe("parseGoLabels", () => {
  it("reads kube-state-metrics labels in any key case, exported_namespace first", () => {
    const labels = parseGoLabels(
      new URLSearchParams(
        "Cluster=prod-eu-1&customresource_kind=HelmRelease&namespace=monitoring-stack&exported_namespace=monitoring&name=kube-prometheus-stack",
      ),
    );
    expect(labels).toEqual({
      cluster: "prod-eu-1",
      kindText: "HelmRelease",
      kind: "HelmRelease",
      namespaces: ["monitoring", "monitoring-stack"],
      name: "kube-prometheus-stack",
    });
  });
  it("reads Flux event fields and short kinds", () => {
    expect(
      parseGoLabels({
        "involvedObject.kind": "ks",
        "involvedObject.namespace": "flux-system",
        "involvedObject.name": "apps",
        cluster: "x",
      }),
    ).toMatchObject({ kind: "Kustomization", namespaces: ["flux-system"], name: "apps" });
  });
});

describe("decideGo", () => {
  const go = (q: string) => decideGo(parseGoLabels(new URLSearchParams(q)), pool, clusters);

  it.each([
    [
      "cluster=prod-eu-1&customresource_kind=HelmRelease&exported_namespace=monitoring&name=kube-prometheus-stack",
      "/clusters/prod-eu-1/helmrelease/monitoring/kube-prometheus-stack",
    ],
    [
      "cluster=prod-eu-1&kind=helmreleases&namespace=monitoring&name=kube-prometheus-stack",
      "/clusters/prod-eu-1/helmrelease/monitoring/kube-prometheus-stack",
    ],
    ["cluster=prod-eu-1&kind=HR&name=kube-prometheus-stack", "/clusters/prod-eu-1/helmrelease/monitoring/kube-prometheus-stack"],
    ["cluster=prod-eu-1&kind=ks&namespace=tenants&name=apps", "/clusters/prod-eu-1/kustomization/tenants/apps"],
    ["cluster=prod-eu-2&kind=hr&name=kube-prometheus-stack", "/clusters/prod-eu-2/helmrelease/observability/kube-prometheus-stack"],
    [
      "cluster=prod-eu-2&kind=hr&namespace=monitoring&name=kube-prometheus-stack",
      "/clusters/prod-eu-2/helmrelease/monitoring/kube-prometheus-stack",
    ],
    ["cluster=staging-us-1", "/clusters/staging-us-1"],
  ])("%s → %s", (q, url) => expect(go(q)).toEqual({ type: "redirect", url }));

  it("offers a choice when labels are ambiguous", () => {
    const d = go("cluster=prod-eu-1&kind=Kustomization&name=apps");
    expect(d.type).toBe("choose");
    if (d.type === "choose")
      expect(d.candidates.map((x) => x.url)).toEqual([
        "/clusters/prod-eu-1/kustomization/flux-system/apps",
        "/clusters/prod-eu-1/kustomization/tenants/apps",
      ]);
    expect(go("name=apps&kind=ks&namespace=flux-system").type).toBe("choose");
  });

  it("suggests the nearest objects for a typo", () => {
    const d = go("cluster=prod-eu-1&kind=HelmRelease&namespace=monitoring&name=kube-prometheus-stak");
    expect(d.type).toBe("not-found");
    if (d.type === "not-found") expect(d.nearest[0].url).toBe("/clusters/prod-eu-1/helmrelease/monitoring/kube-prometheus-stack");
  });

  it("suggests cluster names for an unknown cluster", () => {
    const d = go("cluster=prod-eu-3&kind=ks&name=apps");
    expect(d).toMatchObject({ type: "not-found", nearestClusters: ["prod-eu-1", "prod-eu-2"] });
  });

  it("refuses kinds it does not know", () => {
    expect(go("cluster=prod-eu-1&kind=Deployment&name=apps")).toMatchObject({
      type: "not-found",
      problem: expect.stringContaining("Deployment"),
    });
  });

  it("measures edit distance", () => {
    expect(levenshtein("kitten", "sitting")).toBe(3);
    expect(levenshtein("", "abc")).toBe(3);
  });
});

describe("unnameableLabel", () => {
  it("names the label holding a control character or broken Unicode, and nothing for real names", () => {
    expect(unnameableLabel(parseGoLabels({ cluster: "prod-eu-1", name: "apps", namespace: "flux-system" }))).toBeNull();
    expect(unnameableLabel(parseGoLabels({ name: "a\u0000" }))).toBe("name");
    expect(unnameableLabel(parseGoLabels({ cluster: "a\tb" }))).toBe("cluster");
    expect(unnameableLabel(parseGoLabels({ exported_namespace: "\ud800x" }))).toBe("namespace");
  });
});
