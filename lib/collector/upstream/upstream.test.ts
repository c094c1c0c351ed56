// Against a real HTTP server started here: a Helm repository (index.yaml with ETag) and an OCI registry
// (v2 tags/list behind an anonymous Bearer token challenge, paginated with Link headers).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/lib/testing/db";
import { parseMirrors, refreshUpstreamVersions, throughMirror } from "./index";
import { parseHelmIndex } from "./helm-index";
import { chartVersionsFromTags, parseBearerChallenge } from "./oci-tags";

const db = useTestDatabase();

let server: Server;
let base = "";
let indexVersion = 1;
let chartsDown = false;
const requests: { path: string; ifNoneMatch?: string; auth?: string }[] = [];

const index = () => `apiVersion: v1
entries:
  cert-manager:
    - version: v1.18.2
      appVersion: v1.18.2
    - version: v1.19.1
    ${indexVersion > 1 ? "- version: v1.20.0\n    " : ""}- version: v1.20.0-alpha.1
  other:
    - version: 1.0.0
generated: "2026-11-21T00:00:00Z"
`;

function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url!, base);
  requests.push({ path: url.pathname, ifNoneMatch: req.headers["if-none-match"], auth: req.headers.authorization });
  if (url.pathname === "/charts/index.yaml") {
    if (chartsDown) return void res.writeHead(503).end();
    const etag = `"index-${indexVersion}"`;
    if (req.headers["if-none-match"] === etag) return void res.writeHead(304, { etag }).end();
    return void res.writeHead(200, { etag, "content-type": "application/x-yaml" }).end(index());
  }
  if (url.pathname === "/mirror/index.yaml") {
    return void res.writeHead(200, { "content-type": "application/x-yaml" }).end("entries:\n  cert-manager:\n    - version: v1.15.5\n");
  }
  if (url.pathname === "/broken/index.yaml") return void res.writeHead(500).end("boom");
  if (url.pathname === "/token") {
    const ok = url.searchParams.get("service") === "test-registry" && url.searchParams.get("scope") === "repository:org/podinfo:pull";
    return void res
      .writeHead(ok ? 200 : 400, { "content-type": "application/json" })
      .end(JSON.stringify(ok ? { token: "anon-token" } : {}));
  }
  if (url.pathname === "/v2/org/podinfo/tags/list") {
    if (req.headers.authorization !== "Bearer anon-token") {
      return void res
        .writeHead(401, { "www-authenticate": `Bearer realm="${base}/token",service="test-registry",scope="repository:org/podinfo:pull"` })
        .end(JSON.stringify({ errors: [{ code: "UNAUTHORIZED" }] }));
    }
    if (!url.searchParams.get("last")) {
      return void res
        .writeHead(200, { "content-type": "application/json", link: '</v2/org/podinfo/tags/list?last=latest&n=2>; rel="next"' })
        .end(JSON.stringify({ name: "org/podinfo", tags: ["6.9.1", "latest"] }));
    }
    return void res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ name: "org/podinfo", tags: ["6.9.2_abc123", "6.8.0", "sha256-deadbeef.sig"] }));
  }
  res.writeHead(404).end();
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  requests.length = 0;
});

let seq = 0;
async function flux(clusterId: number, kind: string, namespace: string, name: string, extra: Record<string, unknown>) {
  await db.prisma().fluxObject.create({
    data: { clusterId, kind, apiVersion: "v1", namespace, name, health: "ready", contentHash: `h${seq++}`, ...extra },
  });
}

async function seed() {
  const a = await db.prisma().cluster.create({ data: { name: "a" } });
  const b = await db.prisma().cluster.create({ data: { name: "b" } });
  await flux(a.id, "HelmRepository", "flux-system", "jetstack", { url: `${base}/charts/` });
  await flux(a.id, "HelmRelease", "cert-manager", "cert-manager", {
    chartName: "cert-manager",
    chartVersion: "v1.18.2",
    sourceKind: "HelmRepository",
    sourceName: "jetstack",
    sourceNamespace: "flux-system",
  });
  // Same repository name and chart name in another cluster, but a different repository URL.
  await flux(b.id, "HelmRepository", "flux-system", "jetstack", { url: `${base}/mirror` });
  await flux(b.id, "HelmRelease", "cert-manager", "cert-manager", {
    chartName: "cert-manager",
    chartVersion: "v1.15.5",
    sourceKind: "HelmRepository",
    sourceName: "jetstack",
    sourceNamespace: "flux-system",
  });
  await flux(b.id, "OCIRepository", "podinfo", "podinfo", {
    url: `oci://${base.replace("http://", "")}/org/podinfo`,
    spec: { insecure: true, url: "x" },
  });
  await flux(b.id, "HelmRelease", "podinfo", "podinfo", {
    chartName: "podinfo",
    chartVersion: "6.8.0",
    sourceKind: "OCIRepository",
    sourceName: "podinfo",
    sourceNamespace: "podinfo",
  });
  await flux(b.id, "HelmRepository", "flux-system", "broken", { url: `${base}/broken` });
  await flux(b.id, "HelmRelease", "x", "broken-app", {
    chartName: "app",
    chartVersion: "1.0.0",
    sourceKind: "HelmRepository",
    sourceName: "broken",
    sourceNamespace: "flux-system",
  });
  // A release whose source is not in the database is left out, not guessed.
  await flux(b.id, "HelmRelease", "y", "orphan", {
    chartName: "cert-manager",
    chartVersion: "1.0.0",
    sourceKind: "HelmRepository",
    sourceName: "gone",
    sourceNamespace: "flux-system",
  });
}

const rows = async () =>
  Object.fromEntries((await db.prisma().chartUpstream.findMany()).map((r) => [`${r.repositoryUrl.replace(base, "")}#${r.chartName}`, r]));

describe("refreshUpstreamVersions", () => {
  it("reads index.yaml and OCI tags per (repository, chart) and reports unreachable repositories", async () => {
    await seed();
    const summary = await refreshUpstreamVersions({ timeoutMs: 5000 });
    expect(summary).toMatchObject({ pairs: 4, repositories: 4, updated: 3, failed: 1, notModified: 0 });

    const r = await rows();
    expect(Object.keys(r).sort()).toEqual(
      [
        "/broken#app",
        "/charts#cert-manager",
        "/mirror#cert-manager",
        "oci://127.0.0.1:" + base.split(":")[2] + "/org/podinfo#podinfo",
      ].sort(),
    );
    expect(r["/charts#cert-manager"]).toMatchObject({
      latestVersion: "v1.19.1",
      versions: ["v1.20.0-alpha.1", "v1.19.1", "v1.18.2"],
      etag: '"index-1"',
      error: null,
    });
    expect(r["/mirror#cert-manager"]).toMatchObject({ latestVersion: "v1.15.5", etag: null });
    const oci = Object.entries(r).find(([k]) => k.startsWith("oci://"))![1];
    expect(oci).toMatchObject({ latestVersion: "6.9.2+abc123", versions: ["6.9.2+abc123", "6.9.1", "6.8.0"], error: null });
    expect(r["/broken#app"]).toMatchObject({ latestVersion: null, error: expect.stringContaining("HTTP 500") });
    expect(r["/broken#app"].errorAt).toBeInstanceOf(Date);

    // The token dance: 401 first, then the token endpoint, then the authorised read and its next page.
    expect(requests.filter((q) => q.path.startsWith("/v2/") || q.path === "/token").map((q) => `${q.path} ${q.auth ?? "-"}`)).toEqual([
      "/v2/org/podinfo/tags/list -",
      "/token -",
      "/v2/org/podinfo/tags/list Bearer anon-token",
      "/v2/org/podinfo/tags/list Bearer anon-token",
    ]);
  });

  it("skips fresh pairs, then asks with If-None-Match and keeps versions on 304", async () => {
    const fresh = await refreshUpstreamVersions({ timeoutMs: 5000 });
    expect(fresh).toMatchObject({ repositories: 0, skippedFresh: 4 }); // the broken one waits errorRetrySeconds
    const before = (await rows())["/charts#cert-manager"].fetchedAt!;

    const again = await refreshUpstreamVersions({ timeoutMs: 5000, force: true, now: () => new Date(Date.now() + 1000) });
    expect(again.notModified).toBe(1);
    expect(requests.find((q) => q.path === "/charts/index.yaml")?.ifNoneMatch).toBe('"index-1"');
    const after = (await rows())["/charts#cert-manager"];
    expect(after.latestVersion).toBe("v1.19.1");
    expect(after.fetchedAt!.getTime()).toBeGreaterThan(before.getTime());
  });

  it("picks up a changed index", async () => {
    indexVersion = 2;
    await refreshUpstreamVersions({ timeoutMs: 5000, force: true });
    expect((await rows())["/charts#cert-manager"]).toMatchObject({ latestVersion: "v1.20.0", etag: '"index-2"' });
  });

  it("keeps the last versions read when a repository becomes unreachable, and marks the error", async () => {
    chartsDown = true;
    await refreshUpstreamVersions({ timeoutMs: 5000, force: true });
    expect((await rows())["/charts#cert-manager"]).toMatchObject({ latestVersion: "v1.20.0", error: expect.stringContaining("HTTP 503") });
    chartsDown = false;
  });

  it("a repository nobody answers for is reported with the connection error", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/charts`;
    await new Promise<void>((r) => closed.close(() => r()));
    await db
      .prisma()
      .fluxObject.updateMany({ where: { kind: "HelmRepository", name: "jetstack", url: `${base}/charts/` }, data: { url: deadUrl } });
    const s = await refreshUpstreamVersions({ timeoutMs: 5000, force: true });
    expect(s.errors.find((e) => e.repositoryUrl === deadUrl)?.error).toMatch(/ECONNREFUSED/);
    expect(
      await db
        .prisma()
        .chartUpstream.findUnique({ where: { repositoryUrl_chartName: { repositoryUrl: deadUrl, chartName: "cert-manager" } } }),
    ).toMatchObject({ latestVersion: null, versions: [] });
  });
});

describe("mirrors", () => {
  it("reads a repository through a mirror and keeps the row keyed by the original URL", async () => {
    const c = await db.prisma().cluster.create({ data: { name: "airgapped" } });
    await flux(c.id, "HelmRepository", "flux-system", "jetstack", { url: "https://charts.example.invalid/jetstack" });
    await flux(c.id, "HelmRelease", "cert-manager", "cert-manager", {
      chartName: "cert-manager",
      chartVersion: "v1.18.2",
      sourceKind: "HelmRepository",
      sourceName: "jetstack",
      sourceNamespace: "flux-system",
    });
    await flux(c.id, "OCIRepository", "podinfo", "podinfo", { url: "oci://registry.example.invalid/org/podinfo" });
    await flux(c.id, "HelmRelease", "podinfo", "podinfo", {
      chartName: "podinfo",
      chartVersion: "6.8.0",
      sourceKind: "OCIRepository",
      sourceName: "podinfo",
      sourceNamespace: "podinfo",
    });
    const mirrors = parseMirrors([`https://charts.example.invalid/jetstack=${base}/charts/`, `oci://registry.example.invalid=${base}`]);
    const s = await refreshUpstreamVersions({ timeoutMs: 5000, mirrors });
    expect(s.errors.filter((e) => e.repositoryUrl.includes("example.invalid"))).toEqual([]);
    const r = await rows();
    expect(r["https://charts.example.invalid/jetstack#cert-manager"]).toMatchObject({ latestVersion: "v1.20.0", error: null });
    expect(r["oci://registry.example.invalid/org/podinfo#podinfo"]).toMatchObject({ latestVersion: "6.9.2+abc123", error: null });
  });

  it("longest prefix wins; unrelated repositories are untouched", () => {
    const src = { repositoryUrl: "https://charts.example.com/a", chart: "x", protocol: "http" as const, oci: null, insecure: false };
    const m = parseMirrors(["https://charts.example.com=https://m1", "https://charts.example.com/a=https://m2/a", "broken"]);
    expect(throughMirror(src, m).fetchUrl).toBe("https://m2/a");
    expect(throughMirror({ ...src, repositoryUrl: "https://charts.example.com/b" }, m).fetchUrl).toBe("https://m1/b");
    expect(throughMirror({ ...src, repositoryUrl: "https://charts.example.community" }, m).fetchUrl).toBeUndefined();
  });
});

describe("parsers", () => {
  it("index.yaml", () => {
    expect(parseHelmIndex("entries:\n  a:\n    - version: 1.0.0\n    - {}\n  b: nope\n")).toEqual(new Map([["a", ["1.0.0"]]]));
    expect(() => parseHelmIndex("apiVersion: v1\n")).toThrow(/no entries/);
    expect(() => parseHelmIndex("entries: [unclosed")).toThrow(/not valid YAML/);
  });
  it("bearer challenge", () => {
    expect(parseBearerChallenge('Bearer realm="https://public.ecr.aws/token/",service="public.ecr.aws",scope="aws"')).toEqual({
      realm: "https://public.ecr.aws/token/",
      params: { service: "public.ecr.aws", scope: "aws" },
    });
    expect(parseBearerChallenge('Basic realm="x"')).toBeNull();
    expect(parseBearerChallenge(null)).toBeNull();
  });
  it("tags to chart versions", () => {
    expect(chartVersionsFromTags(["1.8.1", "v1.19.1", "1.2.3_abc", "latest", "sha256-abc.sig", "1.2", "2.0.0-rc.1"])).toEqual([
      "1.8.1",
      "v1.19.1",
      "1.2.3+abc",
      "2.0.0-rc.1",
    ]);
  });
});
