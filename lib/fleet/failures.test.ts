import { describe, expect, it } from "vitest";
import { failureTotals, findRootCause, groupFailures, sortFailureGroups, waitsOn, type ProblemObjectInput } from "./failures";

const now = new Date("2026-11-21T12:00:00Z");

let n = 0;
function obj(over: Partial<ProblemObjectInput> = {}): ProblemObjectInput {
  n++;
  return {
    cluster: "c1",
    kind: "Kustomization",
    namespace: "flux-system",
    name: `obj-${n}`,
    health: "failing",
    storedHealth: "failing",
    readyReason: "BuildFailed",
    readyMessage: "kustomize build failed: boom",
    firstFailedAt: "2026-11-21T10:00:00Z",
    dependsOn: [],
    source: null,
    ...over,
  };
}

const buildFailed = (cluster: string, sha: string, tmp: number, firstFailedAt: string) =>
  obj({
    cluster,
    name: "apps",
    readyMessage: `kustomize build failed: accumulating resources from '/tmp/kustomization-${tmp}/apps' at main@sha1:${sha.repeat(40).slice(0, 40)}: json: unknown field "replica"`,
    firstFailedAt,
  });

describe("groupFailures", () => {
  it("groups the same error across clusters with different revisions and temp folders", () => {
    const groups = groupFailures(
      [
        buildFailed("prod-1", "a", 111, "2026-11-21T09:00:00Z"),
        buildFailed("prod-2", "b", 222, "2026-11-21T08:48:00Z"),
        buildFailed("prod-3", "c", 3333, "2026-11-21T11:00:00Z"),
        obj({
          cluster: "prod-1",
          name: "infra",
          readyReason: "HealthCheckFailed",
          readyMessage: "health check failed after 5m0s: timeout",
        }),
      ],
      now,
    );
    expect(groups).toHaveLength(2);
    const [build] = groups;
    expect(build).toMatchObject({
      kind: "Kustomization",
      reason: "BuildFailed",
      clusterCount: 3,
      objectCount: 3,
      firstFailedAt: "2026-11-21T08:48:00Z",
    });
    expect(build.longestFailingSeconds).toBe(3 * 3600 + 12 * 60);
    expect(build.members[0]).toMatchObject({ cluster: "prod-2", url: "/clusters/prod-2/kustomization/flux-system/apps" });
    expect(build.pattern).toContain("<revision>");
  });

  it("keeps different kinds, reasons and healths apart", () => {
    const groups = groupFailures(
      [
        obj({ readyMessage: "x" }),
        obj({ kind: "HelmRelease", readyMessage: "x" }),
        obj({ readyReason: "ReconciliationFailed", readyMessage: "x" }),
        obj({ health: "stalled", storedHealth: "stalled", stalledReason: "RetriesExceeded", readyMessage: "x" }),
      ],
      now,
    );
    expect(groups).toHaveLength(4);
  });

  it("names the failure a remediation left behind, not the rollback that succeeded", () => {
    const remediated = (cluster: string, release: number) =>
      obj({
        cluster,
        kind: "HelmRelease",
        namespace: "monitoring",
        name: "kube-prometheus-stack",
        readyReason: "RollbackSucceeded",
        readyMessage: `Helm rollback to previous release monitoring/kube-prometheus-stack.v${release} with chart kube-prometheus-stack@58.1.0 succeeded`,
        releasedReason: "UpgradeFailed",
        releasedMessage: `Helm upgrade failed for release monitoring/kube-prometheus-stack with chart kube-prometheus-stack@58.2.0: context deadline exceeded`,
      });
    const groups = groupFailures([remediated("c1", 3), remediated("c2", 5)], now);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ reason: "UpgradeFailed", clusterCount: 2 });
    expect(groups[0].message).toMatch(/^Helm upgrade failed .*context deadline exceeded$/);
    // Without a Released condition (an older helm-controller), Ready's own words stay.
    const [plain] = groupFailures([obj({ kind: "HelmRelease", readyReason: "RollbackSucceeded", readyMessage: "rolled back" })], now);
    expect(plain).toMatchObject({ reason: "RollbackSucceeded", message: "rolled back" });
    // Another failure keeps Ready's reason even when Released is False too.
    const [install] = groupFailures(
      [
        obj({
          kind: "HelmRelease",
          readyReason: "InstallFailed",
          readyMessage: "install failed",
          releasedMessage: "install failed (Released)",
        }),
      ],
      now,
    );
    expect(install).toMatchObject({ reason: "InstallFailed", message: "install failed" });
  });

  it("ignores healthy, progressing and suspended objects", () => {
    expect(
      groupFailures(
        [
          obj({ health: "ready", storedHealth: "ready" }),
          obj({ health: "progressing", storedHealth: "progressing" }),
          obj({ health: "suspended", storedHealth: "suspended" }),
        ],
        now,
      ),
    ).toEqual([]);
  });

  it("groups stale objects together whatever their last message", () => {
    const groups = groupFailures(
      [
        obj({
          health: "stale",
          storedHealth: "ready",
          readyReason: "ReconciliationSucceeded",
          readyMessage: "Applied revision: main@sha1:1",
        }),
        obj({ cluster: "c2", health: "stale", storedHealth: "ready", readyMessage: "other" }),
      ],
      now,
    );
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ problem: "stale", reason: "Stale", clusterCount: 2 });
    expect(groups[0].members[0].failingForSeconds).toBeNull();
  });

  it("counts objects of unreachable clusters by their last known state", () => {
    const groups = groupFailures(
      [obj({ health: "unknown", storedHealth: "failing" }), obj({ health: "unknown", storedHealth: "ready" })],
      now,
    );
    expect(groups).toHaveLength(1);
    expect(groups[0].members[0]).toMatchObject({ health: "unknown", problem: "failing" });
  });

  it("adds unreachable clusters as their own groups by error", () => {
    const groups = groupFailures([], now, [
      {
        cluster: "a",
        lastError: "dial tcp 10.0.0.1:443: i/o timeout",
        lastErrorKind: "timeout",
        lastErrorAt: "2026-11-21T11:00:00Z",
        lastSuccessAt: null,
      },
      {
        cluster: "b",
        lastError: "dial tcp 10.0.0.2:443: i/o timeout",
        lastErrorKind: "timeout",
        lastErrorAt: "2026-11-21T11:30:00Z",
        lastSuccessAt: null,
      },
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ kind: "Cluster", problem: "unreachable", clusterCount: 2 });
    expect(groups[0].members.map((m) => m.url)).toEqual(["/clusters/a", "/clusters/b"]);
    // Never reached: in trouble since the last error at the latest; a cluster that worked before: since then.
    expect(groups[0].firstFailedAt).toBe("2026-11-21T11:00:00Z");
    const since = groupFailures([], now, [
      { cluster: "c", lastError: "x", lastErrorKind: "auth", lastErrorAt: "2026-11-21T11:59:00Z", lastSuccessAt: "2026-11-21T09:00:00Z" },
    ]);
    expect(since[0].members[0].failingForSeconds).toBe(3 * 3600);
  });
});

describe("root causes", () => {
  const infra = (cluster: string) =>
    obj({
      cluster,
      name: "infra",
      readyReason: "HealthCheckFailed",
      readyMessage: "health check failed after 5m0s: timeout waiting for: [Deployment/infra/ingress status: 'InProgress']",
    });
  const apps = (cluster: string) =>
    obj({
      cluster,
      name: "apps",
      readyReason: "DependencyNotReady",
      readyMessage: "dependency 'flux-system/infra' is not ready",
      dependsOn: [{ name: "infra" }],
    });
  const tenants = (cluster: string) =>
    obj({ cluster, name: "tenants", readyReason: "DependencyNotReady", readyMessage: "dependency 'flux-system/apps' is not ready" });

  it("reads what a failure waits on", () => {
    expect(waitsOn(apps("c1"))).toEqual({ cluster: "c1", kind: "Kustomization", namespace: "flux-system", name: "infra" });
    expect(
      waitsOn(
        obj({
          kind: "HelmRelease",
          readyReason: "SourceNotReady",
          readyMessage: "HelmChart 'flux-system/apps-podinfo' is not ready: failed",
        }),
      ),
    ).toEqual({
      cluster: "c1",
      kind: "HelmChart",
      namespace: "flux-system",
      name: "apps-podinfo",
    });
    expect(
      waitsOn(
        obj({
          readyReason: "ArtifactFailed",
          readyMessage: "Source artifact not found, retrying in 30s",
          source: { kind: "GitRepository", namespace: "flux-system", name: "fleet" },
        }),
      ),
    ).toMatchObject({ kind: "GitRepository", name: "fleet" });
    expect(
      waitsOn(obj({ readyReason: "DependencyNotReady", readyMessage: "", dependsOn: [{ name: "base", namespace: "infra" }] })),
    ).toMatchObject({ namespace: "infra", name: "base" });
    expect(waitsOn(infra("c1"))).toBeNull();
  });

  it("follows the chain to its end", () => {
    const all = [infra("c1"), apps("c1"), tenants("c1")];
    const byKey = new Map(all.map((o) => [`${o.cluster}\u0000${o.kind.toLowerCase()}\u0000${o.namespace}\u0000${o.name}`, o]));
    expect(findRootCause(all[2], byKey)?.name).toBe("infra");
    expect(findRootCause(all[0], byKey)).toBeNull();
  });

  it("does not blame a dependency that is ready again, and survives cycles", () => {
    const ready = obj({ name: "infra", health: "ready", storedHealth: "ready" });
    const a = obj({ name: "a", readyReason: "DependencyNotReady", readyMessage: "dependency 'flux-system/b' is not ready" });
    const b = obj({ name: "b", readyReason: "DependencyNotReady", readyMessage: "dependency 'flux-system/a' is not ready" });
    const list = [ready, apps("c1"), a, b];
    const byKey = new Map(list.map((o) => [`${o.cluster}\u0000${o.kind.toLowerCase()}\u0000${o.namespace}\u0000${o.name}`, o]));
    expect(findRootCause(list[1], byKey)).toBeNull();
    expect(findRootCause(a, byKey)?.name).toBe("b");
  });

  it("nests followers under their root cause group, root causes first", () => {
    const groups = groupFailures(
      [
        apps("c1"),
        apps("c2"),
        tenants("c1"),
        infra("c1"),
        infra("c2"),
        obj({ cluster: "c9", name: "lonely", readyReason: "PruneFailed", readyMessage: "prune failed" }),
      ],
      now,
    );
    expect(groups.map((g) => g.reason)).toEqual(["HealthCheckFailed", "PruneFailed"]);
    const [root] = groups;
    expect(root.followers.map((f) => f.members[0].name).sort()).toEqual(["apps", "tenants"]);
    const follower = root.followers.find((f) => f.members[0].name === "apps")!;
    expect(follower.causedBy).toEqual([root.id]);
    expect(follower.members[0].rootCause).toMatchObject({ name: "infra", url: "/clusters/c1/kustomization/flux-system/infra" });
    expect(failureTotals(groups)).toEqual({ groups: 4, objects: 6, clusters: 3 });
  });

  it("keeps a dependency failure top-level when its dependency is not in trouble", () => {
    const groups = groupFailures([apps("c1")], now);
    expect(groups).toHaveLength(1);
    expect(groups[0].members[0].rootCause).toBeNull();
  });
});

describe("sortFailureGroups", () => {
  it("sorts by clusters, newest and first failed", () => {
    const groups = groupFailures(
      [
        obj({ cluster: "a", readyMessage: "one", firstFailedAt: "2026-11-21T11:00:00Z" }),
        obj({ cluster: "a", readyMessage: "two", firstFailedAt: "2026-11-20T11:00:00Z" }),
        obj({ cluster: "b", readyMessage: "two", firstFailedAt: "2026-11-21T11:30:00Z" }),
      ],
      now,
    );
    expect(sortFailureGroups(groups, "clusters").map((g) => g.message)).toEqual(["two", "one"]);
    expect(sortFailureGroups(groups, "newest").map((g) => g.message)).toEqual(["one", "two"]);
    expect(sortFailureGroups(groups, "first-failed").map((g) => g.firstFailedAt)).toEqual(["2026-11-20T11:00:00Z", "2026-11-21T11:00:00Z"]);
  });
});

describe("filtered grouping", () => {
  it("still finds root causes among objects the filter leaves out", () => {
    const infra = obj({ cluster: "c1", name: "infra", readyReason: "HealthCheckFailed", readyMessage: "health check failed" });
    const apps = obj({
      cluster: "c1",
      kind: "Kustomization",
      name: "apps",
      readyReason: "DependencyNotReady",
      readyMessage: "dependency 'flux-system/infra' is not ready",
    });
    const groups = groupFailures([infra, apps], now, [], (o) => o.name === "apps");
    expect(groups).toHaveLength(1);
    expect(groups[0].members[0].rootCause?.name).toBe("infra");
  });
});

describe("Crossplane problems and the clusters they provision", () => {
  const createFailed = {
    cluster: "staging-euw1-analytics",
    kind: "Cluster",
    namespace: "",
    name: "staging-euw1-analytics",
    reason: "ReconcileError",
    message:
      "create failed: async create failed: failed to create the resource: [{0 creating EKS Cluster (staging-euw1-analytics): operation error EKS: CreateCluster, https response error StatusCode: 400, RequestID: 7b1d0c2e-1f3a-4c5b-9d8e-0a1b2c3d4e5f, InvalidParameterException: Subnets specified must be in at least two different AZs  []}]",
    since: "2026-11-21T11:22:00Z",
    createFailed: true,
  };
  // A hub Kustomization deploying into the cluster through its (empty) connection secret.
  const bootstrap = (cluster: string) =>
    obj({
      cluster: "hub",
      name: `bootstrap-${cluster}`,
      readyReason: "ReconciliationFailed",
      readyMessage: `failed to get kubeconfig: secret 'flux-system/${cluster}-eks-connection' has no 'kubeconfig' key`,
      appliesTo: cluster,
    });

  it("a resource that failed to create is a problem of its own kind, and what applies to its cluster follows it", () => {
    const groups = groupFailures([bootstrap("staging-euw1-analytics")], now, [], () => true, { crossplane: [createFailed] });
    expect(groups).toHaveLength(1);
    const [g] = groups;
    expect(g).toMatchObject({ kind: "Cluster", problem: "create-failed", reason: "ReconcileError", clusterCount: 1 });
    expect(g.members[0]).toMatchObject({ url: "/clusters/staging-euw1-analytics#provisioning", failingForSeconds: 38 * 60 });
    expect(g.pattern).not.toContain("7b1d0c2e");
    expect(g.followers).toHaveLength(1);
    expect(g.followers[0].members[0].rootCause).toMatchObject({ kind: "Cluster", name: "staging-euw1-analytics", health: "failing" });
  });

  it("a cluster still being created is the root cause of what waits for its secret, without being a failure", () => {
    const groups = groupFailures([bootstrap("dev-use1-sandbox")], now, [], () => true, {
      provisioning: new Map([["dev-use1-sandbox", "creating"]]),
    });
    expect(groups.map((g) => g.problem)).toEqual(["failing"]);
    expect(groups[0].members[0].rootCause).toEqual({
      cluster: "dev-use1-sandbox",
      kind: "Cluster",
      namespace: "",
      name: "dev-use1-sandbox",
      url: "/clusters/dev-use1-sandbox",
      health: "progressing",
    });
  });

  it("a failing resource of a cluster that exists is a Crossplane error, not a failed creation; filtered out it still explains", () => {
    const auth = { ...createFailed, cluster: "prod-usw2-005", kind: "ClusterAuth", name: "prod-usw2-005", createFailed: false };
    const groups = groupFailures([bootstrap("prod-usw2-005")], now, [], () => true, { crossplane: [auth] });
    expect(groups[0].problem).toBe("crossplane");
    const filtered = groupFailures([bootstrap("prod-usw2-005")], now, [], () => true, {
      crossplane: [auth],
      includeCrossplane: () => false,
    });
    expect(filtered.map((g) => g.problem)).toEqual(["failing"]);
    expect(filtered[0].members[0].rootCause).toMatchObject({ kind: "ClusterAuth", name: "prod-usw2-005" });
  });
});

describe("objects no controller picked up, and drift", () => {
  it("groups unclaimed objects across clusters as one problem, waiting since their creation", () => {
    const unclaimed = (cluster: string, created: string) =>
      obj({
        cluster,
        kind: "HelmRelease",
        namespace: "kube-system",
        name: "aws-node-termination-handler",
        health: "unclaimed",
        storedHealth: "new",
        readyReason: null,
        readyMessage: null,
        firstFailedAt: null,
        createdAt: created,
      });
    const groups = groupFailures([unclaimed("c1", "2026-11-21T11:35:00Z"), unclaimed("c2", "2026-11-21T11:00:00Z")], now);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      problem: "unclaimed",
      reason: "NotReconciled",
      clusterCount: 2,
      firstFailedAt: "2026-11-21T11:00:00Z",
      longestFailingSeconds: 3600,
    });
    expect(groups[0].message).toBe("Not picked up by its controller: no status written since it was created");
    // A new object still within the threshold is no problem at all.
    expect(groupFailures([obj({ health: "new", storedHealth: "new", createdAt: "2026-11-21T11:59:00Z" })], now)).toEqual([]);
  });

  it("lists drifted ready objects as their own kind of group, with the drift message, never as failing", () => {
    const drifted = (cluster: string, release: number) =>
      obj({
        cluster,
        kind: "HelmRelease",
        namespace: "ingress-nginx",
        name: "ingress-nginx",
        health: "ready",
        storedHealth: "ready",
        healthDetail: "drifted",
        readyReason: "UpgradeSucceeded",
        driftMessage: `Cluster state of release ingress-nginx/ingress-nginx.v${release} has drifted from the desired state:\nDeployment/ingress-nginx/ingress-nginx-controller changed (0 additions, 1 changes, 0 removals)`,
      });
    const groups = groupFailures([drifted("c1", 4), drifted("c2", 7), obj({ health: "ready", storedHealth: "ready" })], now);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      problem: "drifted",
      reason: "DriftDetected",
      clusterCount: 2,
      firstFailedAt: null,
      longestFailingSeconds: null,
    });
    expect(groups[0].message).toContain("has drifted from the desired state");
  });
});
