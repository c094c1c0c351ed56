// The upgrade and add-on JSON/CSV routes: same data as the pages, one error envelope.
import { beforeAll, describe, expect, it } from "vitest";
import { makeCluster, makeObject } from "@/lib/db/queries/test-factories";
import { useTestDatabase } from "@/lib/testing/db";
import { GET as getAddonsCsv } from "../addons/csv/route";
import { GET as getAddons } from "../addons/route";
import { GET as getClusterUpgrade } from "./[cluster]/route";
import { GET as getDeadline } from "./deadline/route";
import { GET as getUpgrades } from "./route";
import { GET as getTrends } from "./trends/route";

const db = useTestDatabase();
const req = (path: string) => new Request(`http://localhost${path}`);

beforeAll(async () => {
  const p = db.prisma();
  // Kubernetes 1.28 ended extended support in 2025: whatever today is, this cluster is past its dates.
  const old = await makeCluster(p, {
    name: 'old, "quoted"',
    eksVersion: "1.28",
    eksFactsSource: "eks-api",
    supportType: "EXTENDED",
    kubeletVersions: { "v1.28.15-eks-4c4b5e1": 1 },
  });
  const cur = await makeCluster(p, { name: "current", eksVersion: "1.35", eksFactsSource: "eks-api", team: "core" });
  // Never reached: its version is unknown, so is its cost.
  await makeCluster(p, { name: "dark", lastSuccessAt: null, lastErrorAt: new Date(), lastErrorKind: "timeout", lastError: "timeout" });
  for (const c of [old, cur])
    await makeObject(p, c.id, {
      kind: "HelmRepository",
      apiVersion: "source.toolkit.fluxcd.io/v1",
      name: "podinfo",
      url: "https://stefanprodan.github.io/podinfo",
    });
  await makeObject(p, old.id, {
    kind: "HelmRelease",
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    namespace: "podinfo",
    name: "podinfo",
    chartName: "podinfo",
    chartVersion: "6.8.0",
    appliedRevision: "6.8.0",
    deployedChartVersion: "6.8.0",
    sourceKind: "HelmRepository",
    sourceName: "podinfo",
    sourceNamespace: "flux-system",
  });
  await makeObject(p, cur.id, {
    kind: "HelmRelease",
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    namespace: "podinfo",
    name: "podinfo",
    chartName: "podinfo",
    chartVersion: "6.9.2",
    appliedRevision: "6.9.2",
    deployedChartVersion: "6.9.2",
    sourceKind: "HelmRepository",
    sourceName: "podinfo",
    sourceNamespace: "flux-system",
  });
  await p.chartUpstream.create({
    data: {
      repositoryUrl: "https://stefanprodan.github.io/podinfo",
      chartName: "podinfo",
      latestVersion: "6.9.2",
      versions: ["6.9.2", "6.8.0"],
      fetchedAt: new Date(),
    },
  });
});

describe("GET /api/upgrades", () => {
  it("answers the fields per cluster and the fleet totals", async () => {
    const body = await (await getUpgrades(new Request("http://localhost/api/upgrades"))).json();
    const old = body.clusters.find((c: { name: string }) => c.name.startsWith("old"));
    expect(Object.keys(old)).toEqual(
      expect.arrayContaining([
        "name",
        "version",
        "versionStatus",
        "endOfStandardSupport",
        "endOfExtendedSupport",
        "daysToEndOfStandardSupport",
        "inExtendedSupport",
        "monthlyExtendedSupportCostUSD",
        "blockers",
      ]),
    );
    // Past end of extended support: auto-upgrade due, still billed as extended support meanwhile.
    expect(old).toMatchObject({
      version: "1.28",
      versionSource: "observed",
      versionStatus: "UNSUPPORTED",
      inExtendedSupport: false,
      pastExtendedSupport: true,
      monthlyExtendedSupportCostUSD: 365,
      costKnown: true,
      endOfStandardSupport: "2024-11-26T00:00:00.000Z",
      next: "1.29",
    });
    const dark = body.clusters.find((c: { name: string }) => c.name === "dark");
    expect(dark).toMatchObject({
      version: null,
      versionSource: "unknown",
      versionLabel: "unknown — never reached: timeout; no EKS API access",
      versionFrom: null,
      eksAccess: false,
      monthlyExtendedSupportCostUSD: null,
      costKnown: false,
    });
    expect(body.totals).toMatchObject({
      clusters: 3,
      extraPerClusterMonthUSD: 365,
      extraPerMonthUSD: 365,
      unknownCost: { clusters: 1, names: ["dark"], estimatedExtraPerMonthUSD: 0 },
    });
    expect(body.figures).toMatchObject({ clusters: 3, withVersion: 2, versionUnknown: 1, newestVersion: "1.35", onNewest: 1 });
  });
  it("per cluster, or a 404 envelope", async () => {
    const ok = await getClusterUpgrade(req("/api/upgrades/current"), { params: Promise.resolve({ cluster: "current" }) });
    expect((await ok.json()).readiness).toMatchObject({ current: "1.35" });
    const missing = await getClusterUpgrade(req("/api/upgrades/nope"), { params: Promise.resolve({ cluster: "nope" }) });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: "not_found", message: "cluster nope not found" } });
  });
  it("trends validate days, and start on the day the first cluster was seen", async () => {
    expect((await getTrends(req("/api/upgrades/trends?days=0"))).status).toBe(400);
    const body = await (await getTrends(req("/api/upgrades/trends?days=3"))).json();
    expect(body.points).toHaveLength(1); // a fresh install: one baseline point, not three days of zeros
    expect(body.points[0]).toMatchObject({ clusters: 3, versionUnknown: 1 });
  });
  it("the date question as JSON and CSV, with the same rows; bad input is a 400", async () => {
    const by = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
    const body = await (await getDeadline(req(`/api/upgrades/deadline?by=${by}`))).json();
    expect(body.date).toBe(by);
    expect(body.rows.map((r: { name: string }) => r.name)).toEqual(['old, "quoted"', "current", "dark"]);
    expect(body.totals).toMatchObject({ clusters: 3, unknownCost: 1 });
    const csv = await getDeadline(req(`/api/upgrades/deadline?by=${by}&format=csv`));
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="crows-nest-upgrades-before-${by}.csv"`);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines.slice(1, -1).map((l) => l.split(",")[0])).toEqual(['"old', "current", "dark"]);
    expect(lines.at(-1)).toContain("total (3 clusters; 1 of unknown cost not summed)");
    expect((await getDeadline(req("/api/upgrades/deadline?by=soon"))).status).toBe(400);
    expect((await getDeadline(req("/api/upgrades/deadline?format=xml"))).status).toBe(400);
  });
});

describe("add-on routes", () => {
  it("JSON with filters", async () => {
    const body = await (await getAddons(req("/api/addons?kind=helm&standing=minor"))).json();
    expect(body.rows.map((r: { label: string }) => r.label)).toEqual(["podinfo"]);
    expect((await getAddons(req("/api/addons?at=nonsense"))).status).toBe(400);
  });
  it("CSV of the whole matrix, quoted where needed, grouped column order", async () => {
    const res = await getAddonsCsv(req("/api/addons/csv?group=team"));
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="crows-nest-addons-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await res.text()).trim().split("\r\n");
    expect(lines[0]).toBe('add-on,kind,repository,latest,latest source,skew,current,dark,"old, ""quoted"""');
    expect(lines).toContain(
      "podinfo,helm,https://stefanprodan.github.io/podinfo,6.9.2,upstream,yes,6.9.2 (current),,6.8.0 (behind by minor)",
    );
  });
});
