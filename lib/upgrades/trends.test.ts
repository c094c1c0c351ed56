import { describe, expect, it } from "vitest";
import { buildAddonMatrix, upstreamKey, type UpstreamInfo } from "./addon-matrix";
import { addonFigures, clusterFigures, newestAvailable } from "./fleet-figures";
import { clusterVersionAt, matrixInputAt, type FleetHistory, type HistoryCluster, type HistoryRelease } from "./fleet-history";
import { trendPointAt, trendSeries } from "./trends";

const d = (iso: string) => new Date(iso);
const now = d("2026-11-23T15:00:00Z");

function makeCluster(name: string, over: Partial<HistoryCluster> = {}): HistoryCluster {
  return {
    id: 0,
    name,
    env: "prod",
    team: "platform",
    region: "us-east-1",
    firstSeenAt: d("2026-11-01T00:00:00Z"),
    goneAt: null,
    version: "1.34",
    versionChanges: [],
    fluxVersion: "v2.9.4",
    fluxChanges: [],
    ...over,
  };
}

function makeRelease(cluster: string, applied: string | null, over: Partial<HistoryRelease> = {}): HistoryRelease {
  return {
    cluster,
    namespace: "cert-manager",
    name: "cert-manager",
    chart: "cert-manager",
    repositoryUrl: "https://charts.jetstack.io",
    desired: null,
    applied,
    failing: false,
    firstSeenAt: d("2026-11-01T00:00:00Z"),
    deletedAt: null,
    transitions: [],
    ...over,
  };
}

const upstream = new Map<string, UpstreamInfo>([
  [
    upstreamKey("https://charts.jetstack.io", "cert-manager"),
    { latestVersion: "v1.19.1", versions: ["v1.19.1"], error: null, fetchedAt: null },
  ],
]);

const history: FleetHistory = {
  clusters: [
    makeCluster("a", {
      version: "1.35",
      versionChanges: [{ at: d("2026-11-20T10:00:00Z"), from: "1.34", to: "1.35" }],
      fluxChanges: [{ at: d("2026-11-21T00:00:00Z"), from: "v2.8.5", to: "v2.9.4" }],
    }),
    makeCluster("b", { version: "1.27", fluxVersion: "v2.7.3" }),
    makeCluster("c", { version: null, fluxVersion: null, firstSeenAt: d("2026-11-22T00:00:00Z") }), // never reached
  ],
  releases: [
    makeRelease("a", "v1.19.1", {
      transitions: [
        { at: d("2026-11-01T00:00:00Z"), change: "created", applied: "v1.18.2", failing: false },
        { at: d("2026-11-21T08:00:00Z"), change: "changed", applied: "v1.19.1", failing: false },
      ],
    }),
    makeRelease("b", "v1.19.1"),
    makeRelease("b", null, { name: "cert-manager-2", failing: true }), // never installed
  ],
  managed: [
    {
      cluster: "a",
      name: "vpc-cni",
      version: "v1.20.5-eksbuild.1",
      failing: false,
      deletedAt: null,
      changes: [{ at: d("2026-11-21T00:00:00Z"), from: "v1.19.6-eksbuild.7", to: "v1.20.5-eksbuild.1" }],
    },
  ],
  catalog: new Map([
    ["vpc-cni@1.35", [{ addonVersion: "v1.20.5-eksbuild.1", defaultVersion: true }]],
    ["vpc-cni@1.34", [{ addonVersion: "v1.20.5-eksbuild.1", defaultVersion: true }]],
  ]),
};

describe("upgrade trends", () => {
  const points = trendSeries(history, { upstream, versionInfo: new Map(), from: d("2026-10-01T00:00:00Z"), to: now, now });

  it("start from a baseline on the day the first cluster was seen, not with rows of zeros", () => {
    expect(points[0].date).toBe("2026-11-01");
    expect(points.at(-1)!.date).toBe("2026-11-23");
    expect(points.every((p) => p.clusters > 0)).toBe(true);
    const fresh = trendSeries(
      { ...history, clusters: [makeCluster("new", { firstSeenAt: d("2026-11-23T14:00:00Z") })], releases: [], managed: [] },
      { upstream, versionInfo: new Map(), from: d("2026-10-25T00:00:00Z"), to: now, now },
    );
    expect(fresh.map((p) => p.date)).toEqual(["2026-11-23"]);
  });

  it("move with the history", () => {
    const day = (date: string) => points.find((p) => p.date === date)!;
    expect(day("2026-11-19").byVersion).toEqual({ "1.27": 1, "1.34": 1 });
    expect(day("2026-11-20").byVersion).toEqual({ "1.27": 1, "1.35": 1 });
    expect(day("2026-11-22")).toMatchObject({ clusters: 3, versionUnknown: 1, newestVersion: "1.35", onNewest: 1 });
    // cert-manager in a: v1.18.2 until Nov 21, then the latest
    expect([day("2026-11-20").addonsOnLatest, day("2026-11-21").addonsOnLatest]).toEqual([1, 3]);
    expect(day("2026-11-20").unsupported).toBe(1); // 1.27 is past end of extended support
  });

  it("today's point is exactly what the pages showing now count", () => {
    const input = matrixInputAt(history, now.getTime(), now.getTime());
    const rows = buildAddonMatrix({
      clusters: input.clusters.map((c) => c.name),
      helm: input.helm,
      upstream,
      managed: input.managed,
      flux: input.flux,
    });
    const versions = history.clusters.map((c) => clusterVersionAt(c, now.getTime()));
    const clusters = clusterFigures(versions, newestAvailable(new Map(), versions, now));
    const addons = addonFigures(rows);
    expect(points.at(-1)).toMatchObject({
      clusters: clusters.clusters,
      versionUnknown: clusters.versionUnknown,
      onNewest: clusters.onNewest,
      byVersion: clusters.byVersion,
      addons: addons.addons,
      addonInstallations: addons.installations,
      addonsOnLatest: addons.onLatest,
      addonsWithKnownLatest: addons.withKnownLatest,
    });
    expect(addons).toEqual({ addons: 3, installations: 5, onLatest: 3, withKnownLatest: 5 });
    // Computed directly (as the page does for today) or swept from the first day: the same point.
    expect(trendPointAt(history, { upstream, versionInfo: new Map(), now }, now.getTime())).toEqual(points.at(-1));
  });
});
