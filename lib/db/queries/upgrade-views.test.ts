// The upgrade views on one fixture fleet that holds the shapes real fleets have and the old pages got
// wrong: a cluster on 1.27 past end of extended support, one unreachable (last known version), one never
// reached, one Crossplane is still creating, a release whose install failed next to installed ones, one
// chart from an OCI and an HTTPS repository, removed APIs in a HelmRelease inventory; and the figures
// /, /addons, /upgrades and /upgrades/trends show for the same moment.
import { beforeAll, describe, expect, it } from "vitest";
import { cellSummary } from "../../upgrades/addon-matrix";
import { useTestDatabase } from "../../testing/db";
import { archiveCampaign, createCampaign, updateCampaign } from "../writes/campaigns";
import { getAddonMatrix } from "./addons";
import { getCampaignView, listCampaigns } from "./campaigns";
import { getFleet } from "./fleet";
import { makeCluster, makeObject } from "./test-factories";
import { getUpgradeTrends } from "./upgrades-trends";
import { loadUpgradeData, nowStamp } from "./upgrade-data";
import { getClusterReadiness, getDeadlineAnswer, getUpgradesOverview, upgradeFacts } from "./upgrades";

const db = useTestDatabase();
const now = new Date("2026-11-23T12:00:00Z");
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

beforeAll(async () => {
  const prisma = db.prisma();
  const reached = { lastSuccessAt: new Date("2026-11-23T11:59:00Z"), lastAttemptAt: new Date("2026-11-23T11:59:00Z") };
  const old = await makeCluster(prisma, {
    name: "old",
    env: "staging",
    team: "data",
    eksArn: "arn:aws:eks:us-east-1:1:cluster/old",
    eksVersion: "1.27",
    eksFactsSource: "eks-api",
    kubernetesVersion: "v1.27.16-eks-2f0b4c7",
    supportType: "EXTENDED",
    firstSeenAt: day("2026-11-01"),
    ...reached,
  });
  const fresh = await makeCluster(prisma, {
    name: "fresh",
    env: "dev",
    team: "data",
    eksVersion: "1.35",
    eksFactsSource: "eks-api",
    kubernetesVersion: "v1.35.2-eks-1d7b9f3",
    fluxVersion: "v2.9.4",
    firstSeenAt: day("2026-11-01"),
    ...reached,
  });
  const mid = await makeCluster(prisma, {
    name: "mid",
    env: "prod",
    team: "web",
    eksVersion: "1.34",
    eksFactsSource: "eks-api",
    kubernetesVersion: "v1.34.4-eks-c8e2a41",
    fluxVersion: "v2.8.5",
    firstSeenAt: day("2026-11-01"),
    ...reached,
  });
  // mid moved from 1.33 to 1.34 on Nov 10
  await prisma.clusterVersionChange.create({
    data: { clusterId: mid.id, at: new Date("2026-11-10T10:00:00Z"), component: "kubernetes", fromVersion: "1.33", toVersion: "1.34" },
  });
  // unreachable since this morning, token refused, and the EKS API refuses it too: last known 1.33
  await makeCluster(prisma, {
    name: "dark",
    env: "prod",
    team: "web",
    eksVersion: "1.33",
    eksFactsSource: "eks-api",
    eksError: "AccessDeniedException: not authorized to perform eks:DescribeCluster",
    eksErrorSince: new Date("2026-11-23T08:00:00Z"),
    eksArn: "arn:aws:eks:us-east-1:1:cluster/dark",
    firstSeenAt: day("2026-11-01"),
    lastSuccessAt: new Date("2026-11-23T09:00:00Z"),
    lastErrorAt: new Date("2026-11-23T11:58:00Z"),
    lastErrorKind: "auth",
    lastError: "HTTP 401 Unauthorized",
  });
  // never reached, no EKS access
  await makeCluster(prisma, {
    name: "never",
    env: "dev",
    team: "web",
    firstSeenAt: day("2026-11-22"),
    lastSuccessAt: null,
    lastAttemptAt: null,
  });
  // Crossplane is still creating it
  const sandbox = await makeCluster(prisma, {
    name: "sandbox",
    provisioning: "creating",
    firstSeenAt: day("2026-11-23"),
    lastSuccessAt: null,
    lastAttemptAt: null,
  });
  await prisma.provisioningResource.create({
    data: {
      clusterId: sandbox.id,
      apiVersion: "eks.aws.crossplane.io/v1beta1",
      kind: "Cluster",
      name: "sandbox",
      ready: "False",
      readyReason: "Creating",
    },
  });

  // metrics-server: installed on fresh and mid, its install failed on old (nothing deployed)
  const repo = (clusterId: number, name: string, url: string, spec: object = {}) =>
    makeObject(prisma, clusterId, { kind: "HelmRepository", apiVersion: "source.toolkit.fluxcd.io/v1", name, url, spec: { url, ...spec } });
  const release = (clusterId: number, name: string, chart: string, source: string, applied: string | null, extra: object = {}) =>
    makeObject(prisma, clusterId, {
      kind: "HelmRelease",
      apiVersion: "helm.toolkit.fluxcd.io/v2",
      namespace: "kube-system",
      name,
      chartName: chart,
      chartVersion: applied ?? "3.13.0",
      appliedRevision: applied,
      deployedChartVersion: applied,
      sourceKind: "HelmRepository",
      sourceName: source,
      sourceNamespace: "flux-system",
      firstSeenAt: day("2026-11-01"),
      ...extra,
    });
  for (const c of [old, fresh, mid]) await repo(c.id, "metrics-server", "https://kubernetes-sigs.github.io/metrics-server/");
  await release(fresh.id, "metrics-server", "metrics-server", "metrics-server", "3.13.0");
  await release(mid.id, "metrics-server", "metrics-server", "metrics-server", "3.12.2");
  await release(old.id, "metrics-server", "metrics-server", "metrics-server", null, {
    health: "stalled",
    readyStatus: "False",
    readyReason: "InstallFailed",
    // Karpenter-style FlowSchemas on the API removed in 1.32 (upcoming for 1.27) and CSIStorageCapacity v1beta1 (gone since 1.27)
    inventory: [
      { id: "_flows_flowcontrol.apiserver.k8s.io_FlowSchema", v: "v1beta3" },
      { id: "kube-system_cap_storage.k8s.io_CSIStorageCapacity", v: "v1beta1" },
    ],
  });
  // podinfo: HTTPS on fresh, OCI on old
  await repo(fresh.id, "podinfo", "https://stefanprodan.github.io/podinfo");
  await repo(old.id, "podinfo", "oci://ghcr.io/stefanprodan/charts", { type: "oci" });
  await release(fresh.id, "podinfo", "podinfo", "podinfo", "6.9.2");
  await release(old.id, "podinfo", "podinfo", "podinfo", "6.8.0+e18ead32b53e");

  for (const [repositoryUrl, chartName, latest] of [
    ["https://kubernetes-sigs.github.io/metrics-server", "metrics-server", "3.13.0"],
    ["https://stefanprodan.github.io/podinfo", "podinfo", "6.9.2"],
    ["oci://ghcr.io/stefanprodan/charts", "podinfo", "6.9.2"],
  ]) {
    await prisma.chartUpstream.create({ data: { repositoryUrl, chartName, latestVersion: latest, versions: [latest], fetchedAt: now } });
  }
});

describe("unknown is never zero", () => {
  it("the unreachable, never reached and being-created clusters show what is known, counted apart", async () => {
    const o = await getUpgradesOverview(now);
    const by = Object.fromEntries(o.clusters.map((c) => [c.name, c]));
    expect(by.dark).toMatchObject({
      versionLabel: "1.33 (last known, 3 h ago)",
      knowledge: { source: "last-known", why: "credentials refused (token expired or not allowed); no EKS API access", from: "eks-api" },
      eksFactsNote:
        "from the EKS API before it stopped answering (EKS API refused: AccessDeniedException: not authorized to perform eks:DescribeCluster)",
      monthlyExtendedSupportCostUSD: 365, // 1.33 left standard support on 2026-07-29: an estimate...
      costKnown: false, // ...never summed
    });
    expect(by.never).toMatchObject({
      version: null,
      versionLabel: "unknown — never reached yet; no EKS API access",
      monthlyExtendedSupportCostUSD: null,
    });
    expect(by.sandbox.versionLabel).toBe("unknown — being created by Crossplane; desired version not recorded");
    expect(o.totals).toMatchObject({
      clusters: 6,
      clustersPastExtendedSupport: 1, // old
      extraPerMonthUSD: 365, // old only: dark's estimate is not summed
      unknownCost: { clusters: 3, names: ["dark", "never", "sandbox"], estimatedExtraPerMonthUSD: 365 },
    });
  });

  it("a cluster past end of extended support: auto-upgrade due, its blockers and upcoming removals", async () => {
    const r = (await getClusterReadiness("old", now))!;
    expect(r).toMatchObject({ version: "1.27", pastExtendedSupport: true, next: "1.28", versionStatus: "UNSUPPORTED" });
    expect(r.readiness.warnings[0].title).toBe("Kubernetes 1.27 is past end of extended support: auto-upgrade due since 2025-07-24");
    // Read from a HelmRelease inventory: the removal already in effect blocks, the later one is upcoming.
    expect(r.blockers.map((b) => b.title)).toContain("storage.k8s.io/v1beta1 CSIStorageCapacity is no longer served since 1.27");
    expect(r.upcoming.map((u) => u.title)).toEqual(["flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is removed in 1.32"]);
    expect(r.removedApis.map((u) => [u.owner.kind, u.stage])).toEqual([
      ["HelmRelease", "removed"],
      ["HelmRelease", "upcoming"],
    ]);
  });
});

describe("facts kept for the day", () => {
  it("on one copy of the data, the age of a last known version moves by the minute, days left and status with the day", async () => {
    const data = await loadUpgradeData(now); // the web keeps one copy between changes and asks it at any moment
    const at = (name: string, iso: string) => upgradeFacts(data, new Date(iso)).find((f) => f.view.name === name)!.view;
    expect(at("dark", "2026-11-23T12:00:00Z").versionLabel).toBe("1.33 (last known, 3 h ago)");
    expect(at("dark", "2026-11-23T15:00:00Z").versionLabel).toBe("1.33 (last known, 6 h ago)");
    const before = at("mid", "2026-11-23T12:00:00Z");
    expect(at("mid", "2026-11-25T08:00:00Z").daysToEndOfStandardSupport).toBe(before.daysToEndOfStandardSupport! - 2);
    // Across the end of standard support the same copy answers with the new status at once.
    const end = new Date(before.endOfStandardSupport!).getTime();
    const status = (t: number) => at("mid", new Date(t).toISOString()).versionStatus;
    expect([status(end - 60_000), status(end + 60_000), status(end - 60_000)]).toEqual([
      "STANDARD_SUPPORT",
      "EXTENDED_SUPPORT",
      "STANDARD_SUPPORT",
    ]);
    expect(at("dark", "2026-11-23T12:00:00Z").versionLabel).toBe("1.33 (last known, 3 h ago)");
  });

  it("views of now are kept per copy and day once the copy is read; an earlier moment goes by the minute", async () => {
    const data = await loadUpgradeData(now);
    const stamp = (iso: string) => nowStamp(data, new Date(iso));
    expect(stamp("2026-11-23T12:00:00Z")).toBe(stamp("2026-11-23T23:59:00Z"));
    expect(stamp("2026-11-24T00:00:00Z")).not.toBe(stamp("2026-11-23T23:59:00Z"));
    expect(stamp("2026-11-23T11:58:00Z")).not.toBe(stamp("2026-11-23T11:59:00Z"));
  });
});

describe("the add-on matrix", () => {
  it("a release not installed yet never hides the installed ones, and the same chart from OCI and HTTPS is one row", async () => {
    const m = await getAddonMatrix({ now });
    const ms = m.rows.find((r) => r.key === "helm:metrics-server")!;
    expect(cellSummary(ms.cells.fresh)).toBe("3.13.0");
    expect(ms.cells.old).toMatchObject({ applied: null, notInstalled: 1, standing: "failing" });
    expect(cellSummary(ms.cells.old)).toBe("1 not installed yet");
    expect(ms.cells.mid).toMatchObject({ applied: "3.12.2", standing: "minor" });
    const podinfo = m.rows.filter((r) => r.label === "podinfo");
    expect(podinfo).toHaveLength(1);
    expect(podinfo[0].sources.map((s) => s.url).sort()).toEqual([
      "https://stefanprodan.github.io/podinfo",
      "oci://ghcr.io/stefanprodan/charts",
    ]);
    expect(podinfo[0].cells.old).toMatchObject({ applied: "6.8.0+e18ead32b53e", standing: "minor" });
    expect(cellSummary(podinfo[0].cells.old)).toBe("6.8.0"); // build metadata stripped
    const differs = [podinfo[0].cells.old.otherSources, podinfo[0].cells.fresh.otherSources];
    expect(differs.filter((d) => d.length)).toHaveLength(1); // the source is shown where it differs from the row's
  });
});

describe("numbers agree", () => {
  it("/, /addons, /upgrades and /upgrades/trends count the same clusters, versions and add-ons for the same moment", async () => {
    const [fleet, overview, matrix, trends] = await Promise.all([
      getFleet(undefined, now),
      getUpgradesOverview(now),
      getAddonMatrix({ now }),
      getUpgradeTrends({ days: 30, now }),
    ]);
    const today = trends.points.at(-1)!;
    expect(fleet.summary.clusters).toBe(6);
    expect([overview.figures.clusters, overview.totals.clusters, matrix.figures.clusters, matrix.clusters.length, today.clusters]).toEqual([
      6, 6, 6, 6, 6,
    ]);
    expect([overview.figures.onNewest, matrix.figures.onNewest, today.onNewest]).toEqual([1, 1, 1]);
    expect([overview.figures.versionUnknown, matrix.figures.versionUnknown, today.versionUnknown]).toEqual([2, 2, 2]);
    expect(overview.figures.byVersion).toEqual(today.byVersion);
    expect({
      addons: today.addons,
      installations: today.addonInstallations,
      onLatest: today.addonsOnLatest,
      known: today.addonsWithKnownLatest,
    }).toEqual({
      addons: matrix.summary.addons,
      installations: matrix.summary.installations,
      onLatest: matrix.summary.onLatest,
      known: matrix.summary.withKnownLatest,
    });
  });

  it("trends start from the first snapshot, not rows of zeros", async () => {
    const trends = await getUpgradeTrends({ days: 90, now });
    expect(trends.baseline).toBe("2026-11-01");
    expect(trends.points[0]).toMatchObject({ date: "2026-11-01", clusters: 4 });
    expect(trends.points.find((p) => p.date === "2026-11-09")!.byVersion).toMatchObject({ "1.33": 2 });
  });
});

describe("the date question", () => {
  it("clusters whose standard support ends before it, the cost accrued to it, and EKS's own upgrades", async () => {
    const a = await getDeadlineAnswer({ by: "2027-01-01", env: "prod" }, now);
    expect(a.rows.map((r) => [r.name, r.standardEndsBefore, r.countedApart])).toEqual([
      ["mid", true, false],
      ["dark", true, true],
    ]);
    // mid (1.34): 2026-12-02 → 2027-01-01 = 30 days × 24 h × $0.50
    expect(a.totals).toMatchObject({ accruedUSD: 360, unknownCost: 1 });
    expect(a.facets.envs).toEqual(["dev", "prod", "staging"]);
  });
});

describe("campaigns", () => {
  it("are created, shown in waves with their progress and burn-down, edited and archived", async () => {
    const slug = await createCampaign(
      { name: "All on 1.35", targetVersion: "1.35", deadline: "2027-03-01", waveLabel: "env", waveOrder: ["dev", "staging", "prod"] },
      "alice",
    );
    expect(slug).toBe("all-on-1-35");
    expect(
      await createCampaign(
        { name: "All on 1.35", targetVersion: "1.35", deadline: "2027-03-01", waveLabel: "env", waveOrder: ["dev"] },
        "bob",
      ),
    ).toBe("all-on-1-35-2");
    await db.pool().query(`UPDATE upgrade_campaign SET "createdAt" = '2026-11-05T00:00:00Z' WHERE slug = $1`, [slug]);
    const v = (await getCampaignView(slug, now))!;
    expect(v.progress.waves.map((w) => [w.value, w.clusters.map((c) => `${c.name}:${c.state}`)])).toEqual([
      ["dev", ["never:unknown", "fresh:done"]],
      ["staging", ["old:blocked"]],
      ["prod", ["dark:not-started", "mid:upgrading"]], // mid moved 1.33 → 1.34 after the start
      [null, ["sandbox:unknown"]],
    ]);
    expect(v.progress.waves[1].clusters[0].blockers.length).toBeGreaterThan(0);
    expect(v).toMatchObject({ total: 6, done: 1, unknown: 2, createdBy: "alice", daysLeft: 98 });
    expect(v.burnDown[0]).toMatchObject({ date: "2026-11-01", remaining: 3, done: 1 });
    expect(v.burnDown.at(-1)).toMatchObject({ date: "2026-11-23", remaining: 5, done: 1 });
    expect(
      await updateCampaign(
        slug,
        { name: "All on 1.35", targetVersion: "1.34", deadline: "2027-02-01", waveLabel: "team", waveOrder: ["web"] },
        "bob",
      ),
    ).toBe(true);
    const edited = (await getCampaignView(slug, now))!;
    expect(edited).toMatchObject({ targetVersion: "1.34", updatedBy: "bob", done: 2 });
    expect(edited.progress.waves.map((w) => w.value)).toEqual(["web", null]);
    expect(await archiveCampaign(slug, "bob")).toBe(true);
    expect((await listCampaigns(now)).map((c) => c.slug)).toEqual(["all-on-1-35-2"]);
    expect(await getCampaignView(slug, now)).toBeNull();
  });
});
