// The JSON routes scripts and live islands use: same data as the pages, one error envelope.
import { beforeAll, describe, expect, it } from "vitest";
import { failing, makeCluster, makeObject } from "@/lib/db/queries/test-factories";
import { useTestDatabase } from "@/lib/testing/db";
import { GET as getClusterRoute } from "./clusters/[cluster]/route";
import { GET as getFailuresRoute } from "./failures/route";
import { GET as getFleetRoute } from "./fleet/route";
import { GET as getObjectRoute } from "./objects/[cluster]/[kind]/[namespace]/[name]/route";

const db = useTestDatabase();

beforeAll(async () => {
  for (const name of ["prod-eu-1", "prod-eu-2", "prod-us-1"]) {
    const c = await makeCluster(db.prisma(), { name, env: name.startsWith("prod-eu") ? "prod" : "dev" });
    await makeObject(db.prisma(), c.id, {
      name: "apps",
      ...failing(`kustomize build failed: at main@sha1:${name.length}aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa after 2.${name.length}s`),
    });
    // Reconciled just now: the routes use the real clock.
    await makeObject(db.prisma(), c.id, { name: "infra", lastReconcileAt: new Date() });
  }
});

const req = (path: string) => new Request(`http://localhost${path}`);

describe("JSON routes", () => {
  it("GET /api/fleet filters by the query string", async () => {
    const res = await getFleetRoute(req("/api/fleet?env=prod"));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.clusters.map((c: { name: string }) => c.name)).toEqual(["prod-eu-1", "prod-eu-2"]);
    expect(body.summary.byHealth).toMatchObject({ failing: 2, ready: 2 });
  });

  it("GET /api/failures gives groups with clusterCount, firstFailedAt and member URLs", async () => {
    const body = await (await getFailuresRoute(req("/api/failures"))).json();
    expect(body.groups).toHaveLength(1);
    expect(body.groups[0]).toMatchObject({ clusterCount: 3, firstFailedAt: "2026-11-21T09:00:00.000Z" });
    expect(body.groups[0].members[0]).toMatchObject({
      cluster: "prod-eu-1",
      kind: "Kustomization",
      namespace: "flux-system",
      name: "apps",
      url: "/clusters/prod-eu-1/kustomization/flux-system/apps",
    });
  });

  it("keeps a page's shape: at most `limit` clusters and `members` members per group, counts over all", async () => {
    const fleet = await (await getFleetRoute(req("/api/fleet?limit=1"))).json();
    expect(fleet.clusters).toHaveLength(1);
    expect(fleet.matching).toBe(3);
    const failures = await (await getFailuresRoute(req("/api/failures?members=2"))).json();
    expect(failures.groups[0].members).toHaveLength(2);
    expect(failures.groups[0]).toMatchObject({ objectCount: 3, clusterCount: 3 });
    expect((await getFailuresRoute(req("/api/failures?members=0"))).status).toBe(400);
  });

  it("GET /api/clusters/{cluster} answers the cluster or a 404 envelope", async () => {
    const ok = await getClusterRoute(req("/api/clusters/prod-eu-1"), { params: Promise.resolve({ cluster: "prod-eu-1" }) });
    expect((await ok.json()).objects).toHaveLength(2);
    const missing = await getClusterRoute(req("/api/clusters/nope"), { params: Promise.resolve({ cluster: "nope" }) });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: "not_found", message: "no cluster named nope" } });
  });

  it("GET /api/objects/... answers the object, 404 when unknown, 400 for a bad kind", async () => {
    const params = { cluster: "prod-eu-2", kind: "kustomization", namespace: "flux-system", name: "apps" };
    const ok = await getObjectRoute(req("/api/objects/prod-eu-2/kustomization/flux-system/apps"), { params: Promise.resolve(params) });
    expect(ok.status).toBe(200);
    expect((await ok.json()).object).toMatchObject({ health: "failing", readyReason: "BuildFailed" });
    const missing = await getObjectRoute(req("/x"), { params: Promise.resolve({ ...params, name: "gone" }) });
    expect(missing.status).toBe(404);
    const bad = await getObjectRoute(req("/x"), { params: Promise.resolve({ ...params, kind: "Deployment" }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("invalid_request");
  });

  it("GET /api/objects/... and /api/clusters/... carry a version: 304 while nothing changed, a new one after a change", async () => {
    const params = { cluster: "prod-us-1", kind: "kustomization", namespace: "flux-system", name: "apps" };
    const path = "/api/objects/prod-us-1/kustomization/flux-system/apps";
    const get = (etag?: string) =>
      getObjectRoute(new Request(`http://localhost${path}`, { headers: etag ? { "if-none-match": etag } : {} }), {
        params: Promise.resolve(params),
      });
    const first = await get();
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\//);
    // Later reads of unchanged data (another generatedAt, a longer "failing for") keep the version.
    const same = await get(etag);
    expect(same.status).toBe(304);
    expect(await same.text()).toBe("");
    const cluster = (etag?: string) =>
      getClusterRoute(new Request("http://localhost/api/clusters/prod-us-1", { headers: etag ? { "if-none-match": etag } : {} }), {
        params: Promise.resolve({ cluster: "prod-us-1" }),
      });
    const clusterEtag = (await cluster()).headers.get("etag")!;
    expect((await cluster(clusterEtag)).status).toBe(304);

    await db.prisma().fluxObject.updateMany({
      where: { name: "apps", cluster: { name: "prod-us-1" } },
      data: { health: "ready", readyStatus: "True", readyReason: "ReconciliationSucceeded", readyMessage: "Applied revision: main@sha1:1" },
    });
    const changed = await get(etag);
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect((await changed.json()).object.readyReason).toBe("ReconciliationSucceeded");
    expect((await cluster(clusterEtag)).status).toBe(200);
  });
});
