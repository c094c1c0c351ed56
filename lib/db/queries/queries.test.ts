import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../../testing/db";
import { getCluster } from "./clusters";
import { getFleet } from "./fleet";
import { listFailures } from "./failures";
import { resolveGo } from "./go";
import { getObject } from "./objects";
import { failing, makeCluster, makeObject } from "./test-factories";
import { parseFailureFilters, parseFleetFilters } from "../../fleet/filters";

const db = useTestDatabase();
const now = new Date("2026-11-21T12:00:00Z");
const SHA_BAD = "1111111111111111111111111111111111111111";
const SHA_GOOD = "2222222222222222222222222222222222222222";
const buildError = (sha: string, tmp: number) =>
  `kustomize build failed: accumulating resources from '/tmp/kustomization-${tmp}/apps' at main@sha1:${sha}: json: unknown field "replica"`;

beforeAll(async () => {
  const prisma = db.prisma();
  await prisma.eksVersion.create({
    data: {
      clusterVersion: "1.30",
      versionStatus: "EXTENDED_SUPPORT",
      endOfStandardSupportDate: new Date("2025-07-23T00:00:00Z"),
      endOfExtendedSupportDate: new Date("2026-07-23T00:00:00Z"),
    },
  });
  const a = await makeCluster(prisma, {
    name: "prod-eu-1",
    env: "prod",
    team: "payments",
    region: "eu-west-1",
    eksVersion: "1.33",
    kubernetesVersion: "v1.33.4-eks-3025e55",
    fluxVersion: "v2.9.4",
    accessPaths: [
      {
        via: "crossplane-secret",
        secretNamespace: "crossplane-system",
        secretName: "prod-eu-1-conn",
        key: "kubeconfig",
        token: "must-not-show",
      },
    ],
    substitutions: { cluster_name: "prod-eu-1", region: "eu-west-1", db_password: "hunter2" },
    kubeletVersions: { "v1.33.4-eks-1": 3 },
  });
  const b = await makeCluster(prisma, { name: "prod-eu-2", env: "prod", team: "search", region: "eu-west-1", eksVersion: "1.30" });
  const c = await makeCluster(prisma, { name: "staging-us-1", env: "staging", team: "payments", region: "us-east-1" });
  await makeCluster(prisma, {
    name: "dark-1",
    env: "prod",
    lastSuccessAt: new Date("2026-11-21T08:00:00Z"),
    lastErrorAt: new Date("2026-11-21T11:58:00Z"),
    lastError: "dial tcp 10.1.2.3:443: i/o timeout",
    lastErrorKind: "timeout",
  });

  for (const [cl, sha, tmp, since] of [
    [a, SHA_BAD, 111, "2026-11-21T09:00:00Z"],
    [b, SHA_BAD.replace(/1/g, "3"), 222, "2026-11-21T08:48:00Z"],
  ] as const) {
    const git = await makeObject(prisma, cl.id, {
      kind: "GitRepository",
      apiVersion: "source.toolkit.fluxcd.io/v1",
      name: "fleet",
      url: "https://github.com/acme/fleet.git",
      appliedRevision: `main@sha1:${sha}`,
      readyReason: "Succeeded",
    });
    void git;
    await makeObject(prisma, cl.id, {
      name: "infra",
      ...failing(buildError(sha, tmp), "BuildFailed", since),
      sourceKind: "GitRepository",
      sourceNamespace: "flux-system",
      sourceName: "fleet",
      attemptedRevision: `main@sha1:${sha}`,
      appliedRevision: `main@sha1:${SHA_GOOD}`,
      lastGoodRevision: `main@sha1:${SHA_GOOD}`,
      lastReadyAt: new Date("2026-11-21T08:00:00Z"),
    });
    await makeObject(prisma, cl.id, {
      name: "apps",
      ...failing("dependency 'flux-system/infra' is not ready", "DependencyNotReady", since),
      dependsOn: ["flux-system/infra"],
    });
  }
  // A stale object (no reconcile for 2×10 min + 5 min) and a healthy HelmRelease with history.
  await makeObject(prisma, c.id, { name: "tenants", lastReconcileAt: new Date("2026-11-21T11:00:00Z") });
  const hr = await makeObject(prisma, a.id, {
    kind: "HelmRelease",
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    namespace: "monitoring",
    name: "kube-prometheus-stack",
    chartName: "kube-prometheus-stack",
    chartVersion: "79.1.0",
    appVersion: "v0.86.0",
    history: [
      {
        version: 4,
        status: "deployed",
        chartName: "kube-prometheus-stack",
        chartVersion: "79.1.0",
        appVersion: "v0.86.0",
        action: "upgrade",
        firstDeployed: "2026-11-20T10:00:00Z",
        lastDeployed: "2026-11-20T10:00:00Z",
      },
      { version: 3, status: "superseded", chartName: "kube-prometheus-stack", chartVersion: "78.0.0" },
    ],
    inventory: [
      { id: "monitoring_prometheus__Service", v: "v1" },
      { id: "monitoring_grafana_apps_Deployment", v: "v1" },
      { id: "monitoring_operator_apps_Deployment", v: "v1" },
    ],
  });
  await prisma.fluxObjectTransition.createMany({
    data: [
      {
        objectId: hr.id,
        clusterId: a.id,
        at: new Date("2026-11-21T10:00:00Z"),
        change: "changed",
        fields: ["health"],
        health: "failing",
        previousHealth: "ready",
        readyReason: "UpgradeFailed",
        readyMessage: "Helm upgrade failed",
      },
      {
        objectId: hr.id,
        clusterId: a.id,
        at: new Date("2026-11-21T11:00:00Z"),
        change: "changed",
        fields: ["health"],
        health: "ready",
        previousHealth: "failing",
        readyReason: "UpgradeSucceeded",
      },
    ],
  });
  await prisma.webhookEvent.create({
    data: {
      clusterId: a.id,
      objectId: hr.id,
      dedupeKey: "k1",
      receivedAt: new Date("2026-11-21T10:30:00Z"),
      involvedKind: "HelmRelease",
      involvedNamespace: "monitoring",
      involvedName: "kube-prometheus-stack",
      severity: "info",
      reason: "UpgradeSucceeded",
      message: "Helm upgrade succeeded",
      revision: "79.1.0",
    },
  });
  await prisma.kubeEvent.create({
    data: {
      clusterId: a.id,
      objectId: hr.id,
      uid: "e1",
      involvedKind: "HelmRelease",
      involvedNamespace: "monitoring",
      involvedName: "kube-prometheus-stack",
      type: "Warning",
      reason: "UpgradeFailed",
      message: "Helm upgrade failed",
      firstTimestamp: new Date("2026-11-21T10:00:00Z"),
      lastTimestamp: new Date("2026-11-21T10:05:00Z"),
    },
  });
  await prisma.auditEntry.create({
    data: {
      actor: "alice",
      role: "operator",
      action: "reconcile",
      clusterName: "prod-eu-1",
      kind: "helmrelease",
      namespace: "monitoring",
      name: "kube-prometheus-stack",
      result: "ok",
    },
  });
  await makeObject(prisma, a.id, { name: "old-app", deletedAt: new Date("2026-11-20T00:00:00Z") });
});

describe("getFleet", () => {
  it("lists clusters worst first with counts per kind and health", async () => {
    const fleet = await getFleet(parseFleetFilters({}), now);
    expect(fleet.clusters.map((c) => [c.name, c.health])).toEqual([
      ["dark-1", "unreachable"],
      ["prod-eu-1", "failing"],
      ["prod-eu-2", "failing"],
      ["staging-us-1", "stale"],
    ]);
    const a = fleet.clusters.find((c) => c.name === "prod-eu-1")!;
    expect(a.counts.kustomization).toMatchObject({ failing: 2, ready: 0 });
    expect(a.counts.helmrelease.ready).toBe(1);
    expect(a.objectCount).toBe(4);
    expect(a.reachability).toBe("reachable");
    const b = fleet.clusters.find((c) => c.name === "prod-eu-2")!;
    expect(b.support).toMatchObject({ version: "1.30", versionStatus: "UNSUPPORTED" });
    expect(fleet.summary).toMatchObject({ clusters: 4, reachable: 3, unreachable: 1 });
    expect(fleet.facets.teams).toEqual(["payments", "search"]);
  });

  it("filters by env, team, health and text", async () => {
    expect((await getFleet(parseFleetFilters({ env: "staging" }), now)).clusters.map((c) => c.name)).toEqual(["staging-us-1"]);
    expect((await getFleet(parseFleetFilters({ team: "payments", health: "failing" }), now)).clusters.map((c) => c.name)).toEqual([
      "prod-eu-1",
    ]);
    expect((await getFleet(parseFleetFilters({ q: "EU-2" }), now)).clusters.map((c) => c.name)).toEqual(["prod-eu-2"]);
  });
});

describe("listFailures", () => {
  it("groups the same build failure across clusters, with followers nested under the root cause", async () => {
    const f = await listFailures(parseFailureFilters({}), now);
    const build = f.groups.find((g) => g.reason === "BuildFailed")!;
    expect(build).toMatchObject({ kind: "Kustomization", clusterCount: 2, objectCount: 2, firstFailedAt: "2026-11-21T08:48:00.000Z" });
    expect(build.members.map((m) => m.url)).toEqual([
      "/clusters/prod-eu-2/kustomization/flux-system/infra",
      "/clusters/prod-eu-1/kustomization/flux-system/infra",
    ]);
    expect(build.followers).toHaveLength(1);
    expect(build.followers[0]).toMatchObject({ reason: "DependencyNotReady", clusterCount: 2 });
    expect(build.followers[0].members[0].rootCause?.name).toBe("infra");
    expect(f.groups.find((g) => g.problem === "stale")?.members.map((m) => m.cluster)).toEqual(["staging-us-1"]);
    expect(f.groups.find((g) => g.problem === "unreachable")?.members.map((m) => m.url)).toEqual(["/clusters/dark-1"]);
    expect(f.totals).toEqual({ groups: 4, objects: 6, clusters: 4 });
  });

  it("filters and keeps root causes found outside the filter", async () => {
    const f = await listFailures(parseFailureFilters({ q: "dependency", cluster: "eu-1" }), now);
    expect(f.groups).toHaveLength(1);
    expect(f.groups[0].members.map((m) => `${m.cluster}/${m.name}`)).toEqual(["prod-eu-1/apps"]);
    expect(f.groups[0].members[0].rootCause?.name).toBe("infra");
    expect((await listFailures(parseFailureFilters({ problem: "unreachable" }), now)).groups.map((g) => g.kind)).toEqual(["Cluster"]);
    expect((await listFailures(parseFailureFilters({ kind: "helmrelease" }), now)).groups).toEqual([]);
  });

  it("reads only the filtered clusters' objects and answers as the whole fleet's failures would", async () => {
    // Each member with its group and root cause: what a page filtered to some clusters shows.
    const shown = (f: Awaited<ReturnType<typeof listFailures>>, match: (cluster: string) => boolean) => {
      const out: string[] = [];
      const walk = (g: (typeof f.groups)[number]) => {
        for (const m of g.members)
          if (match(m.cluster)) out.push(`${g.kind}/${g.problem}/${g.reason}: ${m.url} ← ${m.rootCause ? m.rootCause.url : "itself"}`);
        g.followers.forEach(walk);
      };
      f.groups.forEach(walk);
      return out.sort();
    };
    const whole = await listFailures(parseFailureFilters({}), now);
    for (const text of ["prod-eu-1", "EU", "staging", "dark-1", "nowhere"]) {
      const filtered = await listFailures(parseFailureFilters({ cluster: text }), now);
      const match = (cluster: string) => cluster.toLowerCase().includes(text.toLowerCase());
      expect(shown(filtered, match), text).toEqual(shown(whole, match));
      expect(
        shown(filtered, () => true),
        text,
      ).toEqual(shown(filtered, match)); // nothing of other clusters
    }
    expect(shown(await listFailures(parseFailureFilters({ cluster: "prod-eu-1" }), now), () => true).length).toBeGreaterThan(1);
  });
});

describe("getCluster", () => {
  it("answers with access, versions, objects, transitions and non-secret substitutions", async () => {
    const c = (await getCluster("prod-eu-1", now))!;
    expect(c.access.paths).toEqual([
      {
        via: "crossplane-secret",
        secretNamespace: "crossplane-system",
        secretName: "prod-eu-1-conn",
        key: "kubeconfig",
        region: null,
        roleArn: null,
        argocd: null,
      },
    ]);
    expect(JSON.stringify(c)).not.toContain("must-not-show");
    expect(c.substitutions.map((s) => s.name)).toEqual(["cluster_name", "region"]);
    expect(c.objects.map((o) => `${o.kind}/${o.name}/${o.health}`)).toEqual([
      "Kustomization/apps/failing",
      "Kustomization/infra/failing",
      "HelmRelease/kube-prometheus-stack/ready",
      "GitRepository/fleet/ready",
    ]);
    expect(c.objects[0].failingForSeconds).toBe(3 * 3600);
    expect(c.deletedObjects.map((o) => o.name)).toEqual(["old-app"]);
    expect(c.transitions.map((t) => t.health)).toEqual(["ready", "failing"]);
    expect(c.versions.kubelets).toEqual([{ version: "v1.33.4-eks-1", nodes: 3 }]);
    expect(await getCluster("nope", now)).toBeNull();
  });

  it("marks objects of an unreachable cluster unknown", async () => {
    const c = (await getCluster("dark-1", now))!;
    expect(c.reachability).toBe("unreachable");
    expect(c.lastError).toContain("i/o timeout");
  });
});

describe("getObject", () => {
  it("links the failing revision to its commit and shows the last good one", async () => {
    const o = (await getObject({ cluster: "prod-eu-1", kind: "Kustomization", namespace: "flux-system", name: "infra" }, now))!;
    expect(o.object.health).toBe("failing");
    expect(o.object.failingForSeconds).toBe(3 * 3600);
    expect(o.revisions.attempted?.commit?.url).toBe(`https://github.com/acme/fleet/commit/${SHA_BAD}`);
    expect(o.revisions.lastGood).toMatchObject({ revision: `main@sha1:${SHA_GOOD}`, at: "2026-11-21T08:00:00.000Z" });
    expect(o.source).toMatchObject({
      kind: "GitRepository",
      name: "fleet",
      health: "ready",
      url: "/clusters/prod-eu-1/gitrepository/flux-system/fleet",
    });
    expect(o.historical).toBeNull();
  });

  it("shows dependencies with their health", async () => {
    const o = (await getObject({ cluster: "prod-eu-1", kind: "Kustomization", namespace: "flux-system", name: "apps" }, now))!;
    expect(o.dependsOn).toEqual([
      {
        kind: "Kustomization",
        namespace: "flux-system",
        name: "infra",
        url: "/clusters/prod-eu-1/kustomization/flux-system/infra",
        health: "failing",
      },
    ]);
  });

  it("has Helm history, inventory, events, audit and a merged timeline", async () => {
    const o = (await getObject(
      { cluster: "prod-eu-1", kind: "HelmRelease", namespace: "monitoring", name: "kube-prometheus-stack" },
      now,
    ))!;
    expect(o.helm?.history.map((h) => h.chartVersion)).toEqual(["79.1.0", "78.0.0"]);
    expect(o.inventory).toMatchObject({
      total: 3,
      byKind: [
        { kind: "Deployment.apps", count: 2 },
        { kind: "Service", count: 1 },
      ],
    });
    expect(o.timeline.map((t) => `${t.type}:${t.type === "transition" ? t.health : t.reason}`)).toEqual([
      "transition:ready",
      "webhook:UpgradeSucceeded",
      "transition:failing",
    ]);
    expect(o.events[0]).toMatchObject({ reason: "UpgradeFailed", type: "Warning" });
    expect(o.auditEntries.map((a) => a.actor)).toEqual(["alice"]);
  });

  it("answers from history for deleted objects and unreachable clusters", async () => {
    const del = (await getObject({ cluster: "prod-eu-1", kind: "Kustomization", namespace: "flux-system", name: "old-app" }, now))!;
    expect(del.historical).toEqual({ reason: "deleted", asOf: "2026-11-20T00:00:00.000Z" });
    const prisma = db.prisma();
    const dark = await prisma.cluster.findUniqueOrThrow({ where: { name: "dark-1" } });
    await makeObject(prisma, dark.id, { name: "apps", ...failing("boom") });
    const o = (await getObject({ cluster: "dark-1", kind: "Kustomization", namespace: "flux-system", name: "apps" }, now))!;
    expect(o.object.health).toBe("unknown");
    expect(o.object.storedHealth).toBe("failing");
    expect(o.historical).toEqual({ reason: "cluster-unreachable", asOf: "2026-11-21T08:00:00.000Z" });
    expect(await getObject({ cluster: "prod-eu-1", kind: "Kustomization", namespace: "flux-system", name: "nope" }, now)).toBeNull();
  });
});

describe("resolveGo", () => {
  it("resolves kube-state-metrics labels to the object", async () => {
    const r = await resolveGo(
      new URLSearchParams(
        "cluster=prod-eu-1&customresource_kind=HelmRelease&exported_namespace=monitoring&namespace=flux-monitoring&name=kube-prometheus-stack",
      ),
    );
    expect(r.decision).toEqual({ type: "redirect", url: "/clusters/prod-eu-1/helmrelease/monitoring/kube-prometheus-stack" });
  });
  it("accepts a cluster label in another case", async () => {
    expect((await resolveGo({ cluster: "PROD-EU-1", kind: "ks", name: "infra" })).decision).toEqual({
      type: "redirect",
      url: "/clusters/prod-eu-1/kustomization/flux-system/infra",
    });
  });
  it("offers a choice across clusters and the nearest matches for a typo", async () => {
    const choose = await resolveGo({ kind: "Kustomization", name: "infra" });
    expect(choose.decision.type).toBe("choose");
    const typo = await resolveGo({ cluster: "prod-eu-1", kind: "hr", name: "kube-prometheus" });
    expect(typo.decision.type).toBe("not-found");
    if (typo.decision.type === "not-found") expect(typo.decision.nearest[0].name).toBe("kube-prometheus-stack");
  });
});
