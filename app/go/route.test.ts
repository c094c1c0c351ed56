import { beforeAll, describe, expect, it } from "vitest";
import { makeCluster, makeObject } from "@/lib/db/queries/test-factories";
import { useTestDatabase } from "@/lib/testing/db";
import { GET } from "./route";

const db = useTestDatabase();

beforeAll(async () => {
  const a = await makeCluster(db.prisma(), { name: "prod-eu-1" });
  const b = await makeCluster(db.prisma(), { name: "prod-eu-2" });
  await makeObject(db.prisma(), a.id, {
    kind: "HelmRelease",
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    namespace: "monitoring",
    name: "kube-prometheus-stack",
  });
  await makeObject(db.prisma(), a.id, { name: "apps" });
  await makeObject(db.prisma(), b.id, { name: "apps" });
});

const go = (qs: string) => GET(new Request(`http://localhost/go?${qs}`));

describe("GET /go", () => {
  it("302s to the canonical URL for kube-state-metrics labels", async () => {
    const res = await go("cluster=prod-eu-1&customresource_kind=HelmRelease&exported_namespace=monitoring&name=kube-prometheus-stack");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/clusters/prod-eu-1/helmrelease/monitoring/kube-prometheus-stack");
  });
  it("302s for short, plural and odd-case kinds", async () => {
    for (const kind of ["hr", "HelmReleases", "HELMRELEASE"]) {
      expect((await go(`cluster=prod-eu-1&kind=${kind}&name=kube-prometheus-stack`)).headers.get("location")).toBe(
        "/clusters/prod-eu-1/helmrelease/monitoring/kube-prometheus-stack",
      );
    }
  });
  it("sends ambiguous and unknown labels to the results page", async () => {
    expect((await go("kind=ks&name=apps")).headers.get("location")).toBe("/go/results?kind=ks&name=apps");
    expect((await go("cluster=prod-eu-1&kind=ks&name=nope")).headers.get("location")).toBe(
      "/go/results?cluster=prod-eu-1&kind=ks&name=nope",
    );
  });
});

describe("GET /go?format=json", () => {
  it("answers the resolution itself, 404 with the nearest matches when nothing matches", async () => {
    const res = await go("cluster=prod-eu-1&kind=ks&name=aps&format=json");
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.decision.type).toBe("not-found");
    expect(body.decision.nearest[0].url).toBe("/clusters/prod-eu-1/kustomization/flux-system/apps");
  });
});

describe("GET /go with labels no name can hold", () => {
  it("answers not found (never a database error) for NUL and other control characters", async () => {
    for (const qs of ["name=%00", "cluster=prod-eu-1%00&name=apps", "namespace=a%01b&name=apps", "kind=%00&name=apps"]) {
      const json = await go(`${qs}&format=json`);
      expect(json.status, qs).toBe(404);
      expect((await json.json()).decision.problem).toMatch(/holds a character no name can contain/);
      const res = await go(qs);
      expect(res.status, qs).toBe(302);
      expect(res.headers.get("location")).toMatch(/^\/go\/results\?/);
    }
  });
});
