import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../../testing/db";
import { getAddonMatrix, groupClusters } from "./addons";
import { getClusterReadiness, getUpgradesOverview } from "./upgrades";
import { getUpgradeTrends } from "./upgrades-trends";
import { makeCluster, makeObject } from "./test-factories";

const db = useTestDatabase();
const now = new Date("2026-11-21T12:00:00Z");
const catalog = (...v: string[]) => v.map((addonVersion, i) => ({ addonVersion, defaultVersion: i === 0 }));

beforeAll(async () => {
  const prisma = db.prisma();
  await prisma.eksVersion.create({
    data: {
      clusterVersion: "1.33",
      versionStatus: "STANDARD_SUPPORT",
      endOfStandardSupportDate: new Date("2026-07-29T00:00:00Z"),
      endOfExtendedSupportDate: new Date("2027-07-29T00:00:00Z"),
    },
  });
  const legacy = await makeCluster(prisma, {
    name: "legacy",
    env: "prod",
    team: "payments",
    region: "eu-west-1",
    eksVersion: "1.31",
    eksFactsSource: "eks-api",
    kubernetesVersion: "v1.31.14-eks-9a1f3d2",
    supportType: "EXTENDED",
    eksStatus: "ACTIVE",
    fluxVersion: "v2.6.4",
    kubeletVersions: { "v1.31.14-eks-9a1f3d2": 2 },
    firstSeenAt: new Date("2026-11-01T00:00:00Z"),
  });
  const mid = await makeCluster(prisma, {
    name: "mid",
    env: "prod",
    team: "search",
    region: "us-east-1",
    eksVersion: "1.33",
    eksFactsSource: "eks-api",
    kubernetesVersion: "v1.33.7-eks-3025e55",
    supportType: "EXTENDED",
    eksStatus: "ACTIVE",
    fluxVersion: "v2.7.3",
    kubeletVersions: { "v1.32.11-eks-5f2e8b7": 3 },
    firstSeenAt: new Date("2026-11-01T00:00:00Z"),
  });
  const modern = await makeCluster(prisma, {
    name: "modern",
    env: "staging",
    team: "search",
    region: "us-east-1",
    eksVersion: "1.34",
    eksFactsSource: "eks-api",
    kubernetesVersion: "v1.34.4-eks-c8e2a41",
    supportType: null,
    fluxVersion: "v2.7.3",
    kubeletVersions: { "v1.34.4-eks-c8e2a41": 2 },
    firstSeenAt: new Date("2026-11-01T00:00:00Z"),
  });

  // mid was upgraded 1.32 → 1.33 on Nov 15; its node group still runs 1.32
  await prisma.clusterVersionChange.create({
    data: { clusterId: mid.id, at: new Date("2026-11-15T10:00:00Z"), component: "kubernetes", fromVersion: "1.32", toVersion: "1.33" },
  });
  await prisma.nodeGroup.create({
    data: {
      clusterId: mid.id,
      name: "general",
      version: "1.32",
      releaseVersion: "1.32.11-20261110",
      status: "ACTIVE",
      desiredSize: 3,
      instanceTypes: ["m6i.large"],
    },
  });
  await prisma.nodeGroup.create({
    data: {
      clusterId: legacy.id,
      name: "workers",
      version: "1.31",
      releaseVersion: "1.31.14-20261104",
      status: "ACTIVE",
      desiredSize: 2,
      instanceTypes: [],
    },
  });

  await prisma.managedAddon.create({ data: { clusterId: mid.id, name: "vpc-cni", version: "v1.18.6-eksbuild.1", status: "ACTIVE" } });
  await prisma.addonVersionCatalog.create({
    data: { addonName: "vpc-cni", kubernetesVersion: "1.33", versions: catalog("v1.20.5-eksbuild.1", "v1.18.6-eksbuild.1") },
  });
  await prisma.addonVersionCatalog.create({
    data: { addonName: "vpc-cni", kubernetesVersion: "1.34", versions: catalog("v1.20.5-eksbuild.1") },
  });
  await prisma.upgradeInsight.create({
    data: {
      clusterId: mid.id,
      insightId: "i-1",
      name: "Kubelet version skew",
      category: "UPGRADE_READINESS",
      kubernetesVersion: "1.34",
      status: "WARNING",
      reason: "Worker nodes are behind.",
    },
  });
  await prisma.upgradeInsight.create({
    data: {
      clusterId: mid.id,
      insightId: "i-2",
      name: "Cluster health issues",
      category: "UPGRADE_READINESS",
      kubernetesVersion: "1.34",
      status: "PASSING",
    },
  });

  // legacy (1.31 → 1.32) still applies flowcontrol v1beta3, removed in 1.32
  await makeObject(prisma, legacy.id, {
    name: "infra",
    inventory: [
      { id: "_apf-tuning_flowcontrol.apiserver.k8s.io_FlowSchema", v: "v1beta3" },
      { id: "apps_api_apps_Deployment", v: "v1" },
      { id: "apps_api_autoscaling_HorizontalPodAutoscaler", v: "v2" },
    ],
  });

  // An Argo CD Application held by modern deploys into legacy: its status.resources count in legacy's column.
  await makeObject(prisma, modern.id, {
    kind: "Application",
    apiVersion: "argoproj.io/v1alpha1",
    namespace: "argocd",
    name: "legacy-flow-control",
    targetClusterId: legacy.id,
    inventory: [{ id: "_argo-tuning_flowcontrol.apiserver.k8s.io_FlowSchema", v: "v1beta3" }],
  });

  for (const c of [legacy, mid, modern]) {
    await makeObject(prisma, c.id, {
      kind: "HelmRepository",
      apiVersion: "source.toolkit.fluxcd.io/v1",
      name: "jetstack",
      url: "https://charts.jetstack.io/",
    });
  }
  const rel = (clusterId: number, applied: string, extra: Record<string, unknown> = {}) =>
    makeObject(prisma, clusterId, {
      kind: "HelmRelease",
      apiVersion: "helm.toolkit.fluxcd.io/v2",
      namespace: "cert-manager",
      name: "cert-manager",
      chartName: "cert-manager",
      chartVersion: applied,
      appliedRevision: applied,
      deployedChartVersion: applied,
      sourceKind: "HelmRepository",
      sourceName: "jetstack",
      sourceNamespace: "flux-system",
      firstSeenAt: new Date("2026-11-01T00:00:00Z"),
      ...extra,
    });
  const legacyRelease = await rel(legacy.id, "v1.19.1");
  await prisma.fluxObjectTransition.create({
    data: {
      objectId: legacyRelease.id,
      clusterId: legacy.id,
      at: new Date("2026-11-01T00:00:00Z"),
      change: "created",
      fields: [],
      health: "ready",
      chartVersion: "v1.18.2",
      appliedRevision: "v1.18.2",
    },
  });
  await prisma.fluxObjectTransition.create({
    data: {
      objectId: legacyRelease.id,
      clusterId: legacy.id,
      at: new Date("2026-11-20T09:00:00Z"),
      change: "changed",
      fields: ["chart"],
      health: "ready",
      chartVersion: "v1.19.1",
      appliedRevision: "v1.19.1",
    },
  });
  await rel(mid.id, "v1.18.2", { desiredChartVersion: "~1.18.0" });
  await rel(modern.id, "v1.19.0", { health: "failing", readyStatus: "False" });
  await prisma.chartUpstream.create({
    data: {
      repositoryUrl: "https://charts.jetstack.io",
      chartName: "cert-manager",
      latestVersion: "v1.19.1",
      versions: ["v1.19.1", "v1.19.0", "v1.18.2"],
      fetchedAt: now,
    },
  });
});

describe("upgrades overview", () => {
  it("support, cost and blockers per cluster and for the fleet", async () => {
    const o = await getUpgradesOverview(now);
    expect(o.clusters.map((c) => c.name)).toEqual(["legacy", "mid", "modern"]); // extended first, longest past the date first
    const [legacy, mid, modern] = o.clusters;
    expect(legacy).toMatchObject({
      version: "1.31",
      versionStatus: "EXTENDED_SUPPORT",
      inExtendedSupport: true,
      monthlyExtendedSupportCostUSD: 365,
      endOfStandardSupport: "2025-11-26T00:00:00.000Z",
      endOfExtendedSupport: "2026-11-26T00:00:00.000Z",
      daysToEndOfStandardSupport: -360,
      supportSource: "calendar",
      next: "1.32",
    });
    expect(modern).toMatchObject({
      version: "1.34",
      daysToEndOfStandardSupport: 11,
      crossesIntoExtendedSoon: true,
      monthlyExtendedSupportCostUSD: 0,
    });
    // mid has dates from DescribeClusterVersions: standard support ended 2026-07-29
    expect(mid).toMatchObject({ version: "1.33", supportSource: "eks-api", inExtendedSupport: true, daysToEndOfStandardSupport: -115 });
    expect(mid.skew).toMatchObject({
      maxBehindNow: 1,
      maxBehindNext: 2,
      kubelets: [{ source: "general", minor: "1.32", nodes: 3, behindNow: 1, behindNext: 2, blocksNext: false }],
    });
    expect(mid.blockers.map((b) => b.kind).sort()).toEqual(["insight", "managed-addon"]);
    expect(legacy.blockers.map((b) => b.title)).toEqual(["flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is removed in 1.32"]);
    expect(o.totals).toMatchObject({
      clusters: 3,
      clustersInExtendedSupport: 2,
      extraPerMonthUSD: 730,
      extraPerYearUSD: 8760,
      clustersCrossingSoon: 1,
      crossingExtraPerMonthUSD: 365,
      byVersion: { "1.31": 1, "1.33": 1, "1.34": 1 },
      clustersWithBlockers: 2,
      ready: 1,
    });
  });

  it("per-cluster readiness with the removed API and its owner", async () => {
    const r = (await getClusterReadiness("legacy", now))!;
    expect(r.removedApis).toHaveLength(2);
    expect(r.removedApis.find((u) => u.owner.kind === "Kustomization")).toMatchObject({
      kind: "FlowSchema",
      name: "apf-tuning",
      owner: { kind: "Kustomization", namespace: "flux-system", name: "infra" },
      ownerUrl: "/clusters/legacy/kustomization/flux-system/infra",
    });
    // In legacy's readiness, linked to the Application where it lives.
    expect(r.removedApis.find((u) => u.owner.kind === "Application")).toMatchObject({
      kind: "FlowSchema",
      name: "argo-tuning",
      ownerUrl: "/clusters/modern/application/argocd/legacy-flow-control",
    });
    expect((await getClusterReadiness("modern", now))!.removedApis).toEqual([]);
    expect(r.readiness.checklist[0]).toMatchObject({ done: false });
    expect(r.nodeGroups[0]).toMatchObject({ name: "workers", releaseVersion: "1.31.14-20261104" });
    const mid = (await getClusterReadiness("mid", now))!;
    expect(mid.managedAddons[0]).toMatchObject({
      name: "vpc-cni",
      compatibleWithNext: false,
      latestNext: "v1.20.5-eksbuild.1",
      defaultNow: "v1.20.5-eksbuild.1",
    });
    expect(mid.insights.map((i) => i.status)).toEqual(["PASSING", "WARNING"]);
    expect(await getClusterReadiness("nope", now)).toBeNull();
  });
});

describe("add-on matrix", () => {
  it("standings per cluster now", async () => {
    const m = await getAddonMatrix({ now });
    const cm = m.rows.find((r) => r.kind === "helm")!;
    expect(cm).toMatchObject({ label: "cert-manager", repository: "https://charts.jetstack.io", latest: "v1.19.1", skew: true });
    expect(Object.fromEntries(Object.values(cm.cells).map((c) => [c.cluster, c.standing]))).toEqual({
      legacy: "current",
      mid: "minor",
      modern: "failing",
    });
    expect(cm.cells.mid).toMatchObject({
      desired: "~1.18.0",
      latestAllowed: "v1.18.2",
      objects: [{ cluster: "mid", namespace: "cert-manager", name: "cert-manager", fromHub: false }],
    });
    const vpc = m.rows.find((r) => r.key === "eks:vpc-cni")!;
    expect(vpc.cells.mid).toMatchObject({ applied: "v1.18.6-eksbuild.1", latest: "v1.20.5-eksbuild.1", standing: "minor" });
    expect(vpc.cells.legacy.standing).toBe("missing");
    expect(m.rows.find((r) => r.kind === "flux")!.cells.legacy.standing).toBe("minor");
    expect(m.clusters.map((c) => c.kubernetesVersion)).toEqual(["1.31", "1.33", "1.34"]);
    // cert-manager and Flux differ across clusters; vpc-cni in mid runs neither the default nor the latest build for 1.33
    expect(m.summary).toMatchObject({ skewedAddons: 3, unreadableRepositories: [] });
    expect(groupClusters(m.clusters, "team").map((g) => [g.group, g.clusters.map((c) => c.name)])).toEqual([
      ["payments", ["legacy"]],
      ["search", ["mid", "modern"]],
    ]);
  });

  it("as it was on a past date", async () => {
    const m = await getAddonMatrix({ now, at: new Date("2026-11-10T00:00:00Z") });
    expect(m.at).toBe("2026-11-10T00:00:00.000Z");
    expect(m.rows.find((r) => r.kind === "helm")!.cells.legacy).toMatchObject({ applied: "v1.18.2", standing: "minor" });
    expect(m.clusters.find((c) => c.name === "mid")!.kubernetesVersion).toBe("1.32");
    const before = await getAddonMatrix({ now, at: new Date("2026-10-01T00:00:00Z") });
    expect(before.clusters).toEqual([]);
  });
});

describe("trends", () => {
  it("per day from the history", async () => {
    const t = await getUpgradeTrends({ now, days: 10 });
    expect(t.points).toHaveLength(10);
    expect(t.points[0]).toMatchObject({ date: "2026-11-12", clusters: 3, byVersion: { "1.31": 1, "1.32": 1, "1.34": 1 } });
    expect(t.points.at(-1)).toMatchObject({ date: "2026-11-21", byVersion: { "1.31": 1, "1.33": 1, "1.34": 1 } });
    // On latest, as /addons counts it: Flux in mid and modern (v2.7.3, the fleet's newest) every day;
    // cert-manager in legacy from Nov 20 (modern 1.19.0 and mid 1.18.2 never)
    expect(t.points.map((p) => p.addonsOnLatest)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 3, 3]);
    expect(t.versions).toEqual(["1.31", "1.32", "1.33", "1.34"]);
    expect(t.baseline).toBe("2026-11-12");
  });
});
