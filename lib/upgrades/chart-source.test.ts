import { describe, expect, it } from "vitest";
import { normaliseRepositoryUrl } from "./addon-matrix";
import { argoChartSource, parseOciUrl, resolveChartSource, sourceKey, type SourceObject } from "./chart-source";

const sources = new Map<string, SourceObject>(
  [
    { clusterId: 1, kind: "HelmRepository", namespace: "flux-system", name: "jetstack", url: "https://Charts.Jetstack.io/", spec: {} },
    {
      clusterId: 2,
      kind: "HelmRepository",
      namespace: "flux-system",
      name: "jetstack",
      url: "https://mirror.example.com/jetstack",
      spec: {},
    },
    {
      clusterId: 1,
      kind: "HelmRepository",
      namespace: "flux-system",
      name: "bitnami",
      url: "oci://registry-1.docker.io/bitnamicharts",
      spec: { type: "oci" },
    },
    {
      clusterId: 1,
      kind: "OCIRepository",
      namespace: "kube-system",
      name: "karpenter",
      url: "oci://public.ecr.aws/karpenter/karpenter",
      spec: { insecure: false },
    },
  ].map((s) => [sourceKey(s.clusterId, s.kind, s.namespace, s.name), s]),
);

const release = (
  clusterId: number,
  sourceKind: string,
  sourceName: string,
  chartName: string,
  sourceNamespace: string | null = "flux-system",
) => ({ clusterId, namespace: "apps", chartName, sourceKind, sourceName, sourceNamespace });

describe("resolveChartSource", () => {
  it.each([
    [
      release(1, "HelmRepository", "jetstack", "cert-manager"),
      { repositoryUrl: "https://charts.jetstack.io", protocol: "http", oci: null },
    ],
    // same source name in another cluster is another repository
    [release(2, "HelmRepository", "jetstack", "cert-manager"), { repositoryUrl: "https://mirror.example.com/jetstack", protocol: "http" }],
    [
      release(1, "HelmRepository", "bitnami", "redis"),
      {
        repositoryUrl: "oci://registry-1.docker.io/bitnamicharts",
        protocol: "oci",
        oci: { registry: "registry-1.docker.io", repository: "bitnamicharts/redis" },
      },
    ],
    [
      release(1, "OCIRepository", "karpenter", "karpenter", "kube-system"),
      { protocol: "oci", oci: { registry: "public.ecr.aws", repository: "karpenter/karpenter" }, insecure: false },
    ],
  ])("%j", (r, expected) => {
    expect(resolveChartSource(r, sources)).toMatchObject(expected);
  });
  it.each([
    [release(3, "HelmRepository", "jetstack", "cert-manager")],
    [release(1, "HelmRepository", "jetstack", "cert-manager", "other-ns")],
    [{ ...release(1, "HelmRepository", "jetstack", "cert-manager"), chartName: null }],
  ])("unresolved: %j", (r) => {
    expect(resolveChartSource(r, sources)).toBeNull();
  });
  it("defaults the source namespace to the release's", () => {
    const s = new Map([
      [
        sourceKey(1, "HelmRepository", "apps", "local"),
        { clusterId: 1, kind: "HelmRepository", namespace: "apps", name: "local", url: "https://x.example/charts", spec: {} },
      ],
    ]);
    expect(resolveChartSource(release(1, "HelmRepository", "local", "c", null), s)?.repositoryUrl).toBe("https://x.example/charts");
  });
  it("OCI URLs", () => {
    expect(parseOciUrl("oci://docker.io/bitnamicharts/")).toEqual({ registry: "registry-1.docker.io", repository: "bitnamicharts" });
    expect(parseOciUrl("https://x")).toBeNull();
  });
});

describe("argoChartSource", () => {
  it("reads an Application's Helm repository or OCI registry (with or without oci://) as the chart's upstream", () => {
    expect(argoChartSource({ chartName: "aws-load-balancer-controller", url: "https://aws.github.io/eks-charts/" })).toEqual({
      repositoryUrl: normaliseRepositoryUrl("https://aws.github.io/eks-charts/"),
      chart: "aws-load-balancer-controller",
      protocol: "http",
      oci: null,
      insecure: false,
    });
    const oci = argoChartSource({ chartName: "karpenter", url: "public.ecr.aws/karpenter" });
    expect(oci).toMatchObject({ protocol: "oci", oci: { registry: "public.ecr.aws", repository: "karpenter/karpenter" } });
    expect(argoChartSource({ chartName: "karpenter", url: "oci://public.ecr.aws/karpenter" })).toEqual(oci);
    expect(argoChartSource({ chartName: null, url: "https://github.com/acme/gitops" })).toBeNull();
  });
});
