import { describe, expect, it } from "vitest";
import {
  clusterNotReadYet,
  decideGo,
  levenshtein,
  parseGoLabels,
  resolveClusterLabel,
  unnameableLabel,
  type GoCandidate,
  type GoCluster,
} from "./go";

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

describe("the cluster label on-call has", () => {
  const known: GoCluster[] = [
    { name: "prod-eu-1", eksArn: "arn:aws:eks:eu-west-1:111122223333:cluster/prod-eu-1", eksName: "prod-eu-1", region: "eu-west-1" },
    // Known by its EKS name and region only (the ARN came from nowhere yet).
    { name: "payments", eksArn: null, eksName: "payments-eks", region: "us-east-1" },
    { name: "prod-eu-2", eksArn: null, eksName: null, region: null },
  ];

  it("an EKS cluster ARN resolves by ARN, else by EKS name and region", () => {
    expect(resolveClusterLabel("arn:aws:eks:eu-west-1:111122223333:cluster/prod-eu-1", known)).toBe("prod-eu-1");
    expect(resolveClusterLabel("arn:aws:eks:us-east-1:444455556666:cluster/payments-eks", known)).toBe("payments");
    expect(resolveClusterLabel("arn:aws:eks:eu-central-1:444455556666:cluster/payments-eks", known)).toBeNull();
    expect(resolveClusterLabel("arn:aws:eks:eu-west-1:111122223333:cluster/nope", known)).toBeNull();
  });

  it("our own name, or the same in another case, still resolves; anything else does not", () => {
    expect(resolveClusterLabel("prod-eu-2", known)).toBe("prod-eu-2");
    expect(resolveClusterLabel("PROD-EU-2", known)).toBe("prod-eu-2");
    expect(resolveClusterLabel("arn:aws:iam::111122223333:role/x", known)).toBeNull();
  });

  it("a cluster never reached says why instead of 'no such object'", () => {
    const neverReached: GoCluster = {
      name: "staging-us-1",
      eksArn: null,
      eksName: null,
      region: null,
      neverReached: { error: "401 Unauthorized\n(details)", since: "2026-11-23T09:00:00.000Z" },
    };
    const d = decideGo(
      parseGoLabels({ cluster: "staging-us-1", kind: "Kustomization", namespace: "flux-system", name: "apps" }),
      pool,
      clusters,
      [neverReached],
    );
    expect(d).toMatchObject({
      type: "not-found",
      problem: "Cluster staging-us-1 was never reached: 401 Unauthorized since 2026-11-23T09:00:00.000Z. Its objects are not known yet.",
    });
  });

  it("a cluster Crossplane is creating, or failed to create, says so", () => {
    const base = { name: "x", eksArn: null, eksName: null, region: null };
    expect(clusterNotReadYet({ ...base, provisioning: { state: "creating", since: "2026-11-23T09:54:00.000Z" } })).toBe(
      "Cluster x is still being created by Crossplane since 2026-11-23T09:54:00.000Z: it has no objects yet.",
    );
    expect(clusterNotReadYet({ ...base, provisioning: { state: "failed", since: null } })).toBe(
      "Cluster x was never created: Crossplane failed to create it.",
    );
    expect(clusterNotReadYet(base)).toBeNull();
  });
});

describe("Argo CD notification fields", () => {
  const argoPool = [
    ...pool,
    c("hub", "Application", "argocd", "addon-prod-eu-1-aws-load-balancer-controller"),
    c("hub", "ApplicationSet", "argocd", "addons-aws-load-balancer-controller"),
    c("hub", "Kustomization", "argocd", "addon-prod-eu-1-aws-load-balancer-controller"),
  ];
  const names = [...clusters, "hub"];

  it("lands on the Application a notification names by app and app_namespace", () => {
    const labels = parseGoLabels({ cluster: "hub", app: "addon-prod-eu-1-aws-load-balancer-controller", app_namespace: "argocd" });
    expect(labels).toMatchObject({ kind: "Application", namespaces: ["argocd"], name: "addon-prod-eu-1-aws-load-balancer-controller" });
    expect(decideGo(labels, argoPool, names)).toEqual({
      type: "redirect",
      url: "/clusters/hub/application/argocd/addon-prod-eu-1-aws-load-balancer-controller",
    });
  });

  it("reads Argo CD kind names in any form, and an explicit kind wins over the app field's default", () => {
    expect(parseGoLabels({ kind: "applications.argoproj.io", name: "x" }).kind).toBe("Application");
    expect(parseGoLabels({ kind: "appset", name: "x" }).kind).toBe("ApplicationSet");
    expect(parseGoLabels({ kind: "ApplicationSet", app: "addons-aws-load-balancer-controller" })).toMatchObject({
      kind: "ApplicationSet",
      name: "addons-aws-load-balancer-controller",
    });
  });
});
