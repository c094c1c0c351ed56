import { describe, expect, it } from "vitest";
import {
  buildAddonMatrix,
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
      // same chart name, other repository: a separate add-on, never matched by name
      helm("d", "v1.15.5", { repositoryUrl: "oci://mirror.example.com/charts" }),
    ],
    upstream,
    managed: [
      { cluster: "a", name: "vpc-cni", version: "v1.20.5-eksbuild.1", failing: false, latestCompatible: "v1.20.5-eksbuild.1" },
      { cluster: "b", name: "vpc-cni", version: "v1.19.6-eksbuild.7", failing: false, latestCompatible: "v1.20.5-eksbuild.1" },
    ],
    flux: [
      { cluster: "a", version: "v2.7.3" },
      { cluster: "b", version: "v2.6.4" },
    ],
  });

  it("orders rows Flux, EKS, Helm and splits charts by repository", () => {
    expect(rows.map((r) => r.key)).toEqual([
      "flux",
      "eks:vpc-cni",
      "helm:https://charts.jetstack.io#cert-manager",
      "helm:oci://mirror.example.com/charts#cert-manager",
    ]);
  });

  it("gives each cell its standing", () => {
    const jetstack = rows[2];
    expect(Object.values(jetstack.cells).map((c) => [c.cluster, c.standing])).toEqual([
      ["a", "current"],
      ["b", "minor"],
      ["c", "failing"],
      ["d", "missing"],
    ]);
    expect(jetstack.cells.b).toMatchObject({ desired: "~1.18.0", latestAllowed: "v1.18.2", latest: "v1.19.1" });
    expect(jetstack).toMatchObject({ skew: true, fleetNewest: "v1.19.1+abc123", latestBasis: "upstream", upstreamError: null });
    expect(jetstack.cells.a.skewed).toBe(false);
    expect(jetstack.cells.b.skewed).toBe(true);
    expect(jetstack.counts).toMatchObject({ current: 1, minor: 1, failing: 1, missing: 1 });
  });

  it("reports an unreachable repository instead of guessing", () => {
    const mirror = rows[3];
    expect(mirror.latest).toBeNull();
    expect(mirror.upstreamError).toContain("ECONNREFUSED");
    expect(mirror.cells.d.standing).toBe("unknown");
  });

  it("EKS add-ons against the newest compatible version; Flux against the fleet", () => {
    expect(rows[1].cells.b.standing).toBe("minor");
    expect(rows[0]).toMatchObject({ latest: "v2.7.3", latestBasis: "fleet" });
    expect(rows[0].cells.b.standing).toBe("minor");
    expect(rows[0].cells.c.standing).toBe("missing");
  });

  it("share of installations on the latest version", () => {
    // current: flux a, vpc-cni a, jetstack a; installed (known): flux a,b; vpc a,b; jetstack a,b,c
    expect(shareCurrent(rows)).toEqual({ current: 3, installed: 7 });
  });

  it("exports the whole matrix as CSV", () => {
    const csv = matrixCsv(rows, clusters).split("\r\n");
    expect(csv[0]).toBe("add-on,kind,repository,latest,latest source,skew,a,b,c,d");
    expect(csv[3]).toBe(
      "cert-manager,helm,https://charts.jetstack.io,v1.19.1,upstream,yes,v1.19.1+abc123 (current),v1.18.2 (behind by minor),v1.19.0 (failing),",
    );
    expect(csv[4]).toBe(
      "cert-manager,helm,oci://mirror.example.com/charts,unavailable: GET https://mirror.example.com/v2/: connect ECONNREFUSED,,no,,,,v1.15.5 (latest unknown)",
    );
    expect(csv).toHaveLength(6);
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
