import { describe, expect, it } from "vitest";
import {
  buildAddonMatrix,
  CELL_OBJECT_LIMIT,
  cellSummary,
  normaliseRepositoryUrl,
  shareCurrent,
  upstreamKey,
  type HelmInstallation,
  type UpstreamInfo,
} from "./addon-matrix";
import { csvField, matrixCsv } from "./csv";

const helm = (cluster: string, applied: string | null, over: Partial<HelmInstallation> = {}): HelmInstallation => ({
  cluster,
  namespace: "cert-manager",
  name: "cert-manager",
  chart: "cert-manager",
  repositoryUrl: "https://charts.jetstack.io",
  desired: null,
  applied,
  failing: false,
  ...over,
});

const up = (
  latestVersion: string | null,
  versions: string[] = latestVersion ? [latestVersion] : [],
  error: string | null = null,
): UpstreamInfo => ({ latestVersion, versions, error, fetchedAt: "2026-11-21T20:00:00.000Z" });

describe("add-on matrix", () => {
  const clusters = ["a", "b", "c", "d"];
  const upstream = new Map([
    [upstreamKey("https://charts.jetstack.io", "cert-manager"), up("v1.19.1", ["v1.19.1", "v1.19.0", "v1.18.2"])],
    [
      upstreamKey("oci://mirror.example.com/charts", "cert-manager"),
      up(null, [], "GET https://mirror.example.com/v2/: connect ECONNREFUSED"),
    ],
  ]);

  const rows = buildAddonMatrix({
    clusters,
    helm: [
      helm("a", "v1.19.1+abc123"),
      helm("b", "v1.18.2", { desired: "~1.18.0" }),
      helm("c", "v1.19.0", { failing: true }),
      // same chart from another repository: the same add-on (one row by chart name), its source shown apart
      helm("d", "v1.15.5", { repositoryUrl: "oci://mirror.example.com/charts" }),
    ],
    upstream,
    managed: [
      {
        cluster: "a",
        name: "vpc-cni",
        version: "v1.20.5-eksbuild.1",
        failing: false,
        latestCompatible: "v1.20.5-eksbuild.1",
        defaultCompatible: "v1.20.4-eksbuild.2",
      },
      {
        cluster: "b",
        name: "vpc-cni",
        version: "v1.19.6-eksbuild.7",
        failing: false,
        latestCompatible: "v1.20.5-eksbuild.1",
        defaultCompatible: "v1.20.4-eksbuild.2",
      },
      // kube-proxy builds follow each cluster's Kubernetes version: different versions, each the default for its own
      { cluster: "a", name: "kube-proxy", version: "v1.35.2-eksbuild.3", failing: false, latestCompatible: "v1.35.2-eksbuild.3" },
      {
        cluster: "b",
        name: "kube-proxy",
        version: "v1.27.16-eksbuild.6",
        failing: false,
        latestCompatible: "v1.27.16-eksbuild.6",
        defaultCompatible: "v1.27.16-eksbuild.3",
      },
    ],
    flux: [
      { cluster: "a", version: "v2.7.3" },
      { cluster: "b", version: "v2.6.4" },
    ],
  });
  const certManager = rows.find((r) => r.key === "helm:cert-manager")!;

  it("orders rows Flux, EKS, Helm; one Helm row per chart name whatever the repository", () => {
    expect(rows.map((r) => r.key)).toEqual(["flux", "eks:kube-proxy", "eks:vpc-cni", "helm:cert-manager"]);
    expect(certManager.sources).toEqual([
      { url: "https://charts.jetstack.io", installations: 3 },
      { url: "oci://mirror.example.com/charts", installations: 1 },
    ]);
    expect(certManager.repository).toBe("https://charts.jetstack.io");
    expect(certManager.cells.d.otherSources).toEqual(["oci://mirror.example.com/charts"]);
    expect(certManager.cells.a.otherSources).toEqual([]);
  });

  it("gives each cell its standing against the latest of its own repository", () => {
    expect(Object.values(certManager.cells).map((c) => [c.cluster, c.standing])).toEqual([
      ["a", "current"],
      ["b", "minor"],
      ["c", "failing"],
      ["d", "unknown"], // the mirror cannot be read: reported, never guessed
    ]);
    expect(certManager.cells.b).toMatchObject({ desired: "~1.18.0", latestAllowed: "v1.18.2", latest: "v1.19.1" });
    expect(certManager).toMatchObject({ skew: true, fleetNewest: "v1.19.1", latestBasis: "upstream", latest: "v1.19.1" });
    expect(certManager.upstreamError).toBe("oci://mirror.example.com/charts: GET https://mirror.example.com/v2/: connect ECONNREFUSED");
    expect(certManager.cells.a.skewed).toBe(false);
    expect(certManager.cells.b.skewed).toBe(true);
    expect(certManager.counts).toMatchObject({ current: 1, minor: 1, failing: 1, unknown: 1 });
  });

  it("EKS add-ons: flagged only off the default and latest build for the cluster's own version", () => {
    const vpc = rows.find((r) => r.key === "eks:vpc-cni")!;
    expect(vpc.cells.b.standing).toBe("minor");
    expect([vpc.cells.a.skewed, vpc.cells.b.skewed, vpc.skew]).toEqual([false, true, true]);
    const proxy = rows.find((r) => r.key === "eks:kube-proxy")!;
    expect([proxy.cells.a.skewed, proxy.cells.b.skewed, proxy.skew]).toEqual([false, false, false]);
  });

  it("Flux against the newest in the fleet", () => {
    expect(rows[0]).toMatchObject({ latest: "v2.7.3", latestBasis: "fleet" });
    expect(rows[0].cells.b.standing).toBe("minor");
    expect(rows[0].cells.c.standing).toBe("missing");
  });

  it("share of installations on the latest version", () => {
    // counted: flux a,b; kube-proxy a,b; vpc a,b; cert-manager a,b,c (d unknown)
    // current: flux a; kube-proxy a and b (each on the latest build for its own version); vpc a; cert-manager a
    expect(shareCurrent(rows)).toEqual({ current: 5, installed: 9 });
  });

  it("exports the whole matrix as CSV", () => {
    const csv = matrixCsv(rows, clusters).split("\r\n");
    expect(csv[0]).toBe("add-on,kind,repository,latest,latest source,skew,a,b,c,d");
    expect(csv[4]).toBe(
      "cert-manager,helm,https://charts.jetstack.io oci://mirror.example.com/charts,v1.19.1,upstream,yes,v1.19.1 (current),v1.18.2 (behind by minor),v1.19.0 (failing),v1.15.5 (latest unknown)",
    );
    expect(csv).toHaveLength(6);
  });
});

describe("a cell summarises every release of the chart in its cluster", () => {
  const upstream = new Map([[upstreamKey("https://charts.example.com", "tenant"), up("3.5.0")]]);
  const release = (version: string | null, i: number, over: Partial<HelmInstallation> = {}) =>
    helm("big", version, {
      chart: "tenant",
      name: `tenant-${i}`,
      namespace: `team-${i}`,
      repositoryUrl: "https://charts.example.com",
      ...over,
    });
  const installs = [
    ...Array.from({ length: 435 }, (_, i) => release(i % 2 ? "3.4.2+e18ead32b53e" : "3.4.2", i)),
    ...Array.from({ length: 185 }, (_, i) => release("3.5.0", 1000 + i)),
    release(null, 9999, { failing: true }), // install failed: no deployed release
  ];
  const [row] = buildAddonMatrix({ clusters: ["big"], helm: installs, upstream, managed: [], flux: [] });
  const cell = row.cells.big;

  it("counts each version (build metadata stripped) and the releases not installed yet", () => {
    expect(cellSummary(cell)).toBe("3.4.2 ×435 · 3.5.0 ×185 · 1 not installed yet");
    expect(cell).toMatchObject({ applied: "3.4.2", notInstalled: 1, objectCount: 621, standing: "failing" });
  });

  it("a release not installed yet never hides the installed ones", () => {
    const [only] = buildAddonMatrix({
      clusters: ["big"],
      helm: [release(null, 1), release("3.5.0", 2)],
      upstream,
      managed: [],
      flux: [],
    });
    expect(only.cells.big).toMatchObject({ applied: "3.5.0", standing: "current" });
    expect(cellSummary(only.cells.big)).toBe("3.5.0 ×1 · 1 not installed yet");
    const [none] = buildAddonMatrix({ clusters: ["big"], helm: [release(null, 1)], upstream, managed: [], flux: [] });
    expect(none.cells.big).toMatchObject({ applied: null, standing: "unknown" });
    expect(cellSummary(none.cells.big)).toBe("1 not installed yet");
  });

  it("links its objects, the ones needing work first, and counts the rest", () => {
    expect(cell.objects).toHaveLength(CELL_OBJECT_LIMIT);
    expect(cell.objects[0]).toEqual({ cluster: "big", namespace: "team-9999", name: "tenant-9999", fromHub: false });
  });

  it("a release deployed from the hub counts in the spoke's column, marked from hub", () => {
    const [r] = buildAddonMatrix({
      clusters: ["hub", "spoke"],
      helm: [release("3.5.0", 1, { cluster: "spoke", objectCluster: "hub", namespace: "flux-system", name: "agent-spoke" })],
      upstream,
      managed: [],
      flux: [],
    });
    expect(r.cells.hub.standing).toBe("missing");
    expect(r.cells.spoke).toMatchObject({ standing: "current", fromHub: 1 });
    expect(r.cells.spoke.objects).toEqual([{ cluster: "hub", namespace: "flux-system", name: "agent-spoke", fromHub: true }]);
  });
});

describe("helpers", () => {
  it.each([
    ["https://Charts.Jetstack.io/", "https://charts.jetstack.io"],
    ["oci://ghcr.io/Org/charts", "oci://ghcr.io/Org/charts"],
    ["https://kubernetes-sigs.github.io/metrics-server/", "https://kubernetes-sigs.github.io/metrics-server"],
  ])("normalise %s", (url, expected) => {
    expect(normaliseRepositoryUrl(url)).toBe(expected);
  });
  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["=cmd()", "'=cmd()"],
    [null, ""],
    [3, "3"],
  ])("csvField(%j) = %s", (v, expected) => {
    expect(csvField(v)).toBe(expected);
  });
});
