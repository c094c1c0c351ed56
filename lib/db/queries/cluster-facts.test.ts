// Cluster facts against the real embedded PostgreSQL: what the collector writes (Crossplane facts where the
// EKS API does not answer, nodes, the cluster a hub object applies to, provisioning verdicts) and what the
// pages read back (a cluster being created, failed Crossplane resources on /failures with what waits on
// them, NotReady nodes with their Events, "managed from", /go by ARN and for a cluster never reached).
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../../testing/db";
import { parseFailureFilters, parseFleetFilters } from "../../fleet/filters";
import { upsertProvisioners } from "../writes/clusters";
import { recordEksError, writeCrossplaneFacts, writeEksSnapshot } from "../writes/eks";
import { writeObjectTargets } from "../writes/flux-objects";
import { upsertNodes } from "../writes/nodes";
import type { DiscoveredProvisioner } from "../types";
import type { NodeRecord } from "../../kube/types";
import { getCluster } from "./clusters";
import { listFailures } from "./failures";
import { getFleet } from "./fleet";
import { resolveGo } from "./go";
import { getObject } from "./objects";
import { failing, makeCluster, makeObject } from "./test-factories";

const db = useTestDatabase();
const now = new Date("2026-11-23T10:00:00Z");
const at = new Date("2026-11-23T09:59:00Z");
const CREATE_FAILED =
  "create failed: async create failed: failed to create the resource: [{0 creating EKS Cluster (staging-euw1-analytics): operation error EKS: CreateCluster, https response error StatusCode: 400, RequestID: 0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b, InvalidParameterException: Subnets specified must be in at least two different AZs  []}]";
const ACCESS_DENIED =
  "AccessDeniedException: User: arn:aws:sts::123456789012:assumed-role/crows-nest-collector/s is not authorized to perform: eks:DescribeCluster on resource: arn:aws:eks:us-east-1:345678901234:cluster/staging-use1-002";

function makeProvisioner(over: Partial<DiscoveredProvisioner> = {}): DiscoveredProvisioner {
  return {
    apiVersion: "eks.aws.crossplane.io/v1beta1",
    kind: "Cluster",
    namespace: "",
    name: "x",
    ready: "True",
    readyReason: "Available",
    synced: "True",
    syncedReason: "ReconcileSuccess",
    conditions: [],
    secretNamespace: "flux-system",
    secretName: "x-eks-connection",
    eksName: "x",
    region: "us-east-1",
    createdAt: "2026-11-23T09:54:00Z",
    desiredVersion: "1.35",
    eksArn: null,
    version: null,
    platformVersion: null,
    eksStatus: null,
    supportType: null,
    secret: "empty",
    verdict: { state: "creating", reason: "Creating", message: null, since: "2026-11-23T09:54:08Z" },
    ...over,
  };
}

function makeNode(name: string, over: Partial<NodeRecord> = {}): NodeRecord {
  return {
    name,
    nodeGroup: "system",
    kubeletVersion: "v1.34.2-eks-1a2b3c4",
    readyStatus: "True",
    readyReason: "KubeletReady",
    readyMessage: "kubelet is posting ready status",
    readySince: "2026-11-20T08:00:00.000Z",
    capacityType: "ON_DEMAND",
    instanceType: "m6i.large",
    ...over,
  };
}

let ids: Record<string, number> = {};

beforeAll(async () => {
  const prisma = db.prisma();
  const pool = db.pool();
  const hub = await makeCluster(prisma, { name: "hub", role: "hub", lastSuccessAt: at });
  const creating = await makeCluster(prisma, {
    name: "dev-use1-sandbox",
    provisioning: "creating",
    desiredVersion: "1.35",
    lastSuccessAt: null,
    lastAttemptAt: null,
  });
  const failed = await makeCluster(prisma, {
    name: "staging-euw1-analytics",
    provisioning: "failed",
    desiredVersion: "1.35",
    lastSuccessAt: null,
  });
  const noEks = await makeCluster(prisma, {
    name: "staging-use1-002",
    region: "us-east-1",
    kubernetesVersion: "v1.34.2-eks-1a2b3c4",
    // Discovery writes what its Crossplane Cluster asks for.
    desiredVersion: "1.35",
    lastSuccessAt: at,
    accessPaths: [{ via: "crossplane-secret", secretNamespace: "flux-system", secretName: "staging-use1-002-kubeconfig" }],
  });
  const spoke0 = await makeCluster(prisma, {
    name: "prod-use1-001",
    eksArn: "arn:aws:eks:us-east-1:210987654321:cluster/prod-use1-001",
    eksName: "prod-use1-001",
    region: "us-east-1",
    lastSuccessAt: at,
  });
  const never = await makeCluster(prisma, {
    name: "prod-usw2-005",
    lastSuccessAt: null,
    firstSeenAt: new Date("2026-11-23T09:00:00Z"),
    lastErrorAt: at,
    lastError: "401 Unauthorized",
    lastErrorKind: "auth",
  });
  ids = { hub: hub.id, creating: creating.id, failed: failed.id, noEks: noEks.id, spoke0: spoke0.id, never: never.id };

  // What the collector writes.
  await upsertProvisioners(
    pool,
    new Map([
      [creating.id, [makeProvisioner({ name: "dev-use1-sandbox", eksStatus: "CREATING", version: "1.35" })]],
      [
        failed.id,
        [
          makeProvisioner({
            apiVersion: "eks.aws.upbound.io/v1beta2",
            name: "staging-euw1-analytics",
            verdict: { state: "failed", reason: "ReconcileError", message: CREATE_FAILED, since: "2026-11-23T09:22:09Z" },
          }),
        ],
      ],
    ]),
  );
  await recordEksError(pool, noEks.id, at, ACCESS_DENIED);
  await writeCrossplaneFacts(pool, noEks.id, at, {
    facts: {
      eksArn: "arn:aws:eks:us-east-1:345678901234:cluster/staging-use1-002",
      version: "1.34",
      platformVersion: "eks.12",
      eksStatus: "ACTIVE",
      supportType: null,
      desiredVersion: "1.35",
    },
    nodeGroups: [
      {
        apiVersion: "eks.aws.upbound.io/v1beta2",
        kind: "NodeGroup",
        resourceName: "staging-use1-002-system",
        name: "system",
        clusterName: "staging-use1-002",
        clusterRef: "staging-use1-002",
        version: "1.34",
        releaseVersion: "1.34.2-20261110",
        status: "ACTIVE",
        capacityType: "ON_DEMAND",
        amiType: "AL2023_x86_64_STANDARD",
        instanceTypes: ["m6i.large"],
        desiredSize: 2,
        minSize: 2,
        maxSize: 4,
        ready: "True",
        readyReason: "Available",
        synced: "True",
        syncedReason: "ReconcileSuccess",
      },
    ],
  });
  await upsertNodes(pool, noEks.id, at, [
    makeNode("ip-10-41-0-1.ec2.internal"),
    makeNode("ip-10-41-1-2.ec2.internal", {
      readyStatus: "Unknown",
      readyReason: "NodeStatusUnknown",
      readyMessage: "Kubelet stopped posting node status.",
      readySince: "2026-11-23T09:56:00.000Z",
    }),
    makeNode("ip-10-41-2-3.ec2.internal", { nodeGroup: null, instanceType: "c7g.large" }),
  ]);
  // Events are kept by the collector's own policy; this test only reads them back.
  await pool.query(
    `INSERT INTO kube_event ("clusterId", uid, "involvedKind", "involvedNamespace", "involvedName", type, reason, message, count,
            "firstTimestamp", "lastTimestamp", "reportingController")
     VALUES ($1, 'e1', 'Node', '', 'ip-10-41-1-2.ec2.internal', 'Normal', 'NodeNotReady',
             'Node ip-10-41-1-2.ec2.internal status is now: NodeNotReady', 1, $3, $3, 'node-controller'),
            ($2, 'e2', 'Cluster', '', 'staging-euw1-analytics', 'Warning', 'CannotCreateExternalResource',
             'async create failed: boom', 7, $4, $3, 'managed/eks.aws.upbound.io/v1beta2, kind=cluster')`,
    [noEks.id, hub.id, new Date("2026-11-23T09:56:00Z"), new Date("2026-11-23T09:22:09Z")],
  );

  // Hub objects that apply to spokes through spec.kubeConfig.
  await makeObject(prisma, hub.id, {
    kind: "HelmRelease",
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    name: "monitoring-agent-prod-use1-001",
    spec: { kubeConfig: { secretRef: { name: "prod-use1-001-eks-connection", key: "kubeconfig" } } },
  });
  await makeObject(prisma, hub.id, {
    name: "bootstrap-staging-euw1-analytics",
    spec: { kubeConfig: { secretRef: { name: "staging-euw1-analytics-eks-connection", key: "kubeconfig" } } },
    ...failing(
      "KubeConfig secret 'flux-system/staging-euw1-analytics-eks-connection' does not contain a 'kubeconfig' key with a kubeconfig",
      "ReconciliationFailed",
      "2026-11-23T09:23:00Z",
    ),
  });
  await makeObject(prisma, hub.id, {
    name: "bootstrap-dev-use1-sandbox",
    spec: { kubeConfig: { secretRef: { name: "dev-use1-sandbox-eks-connection", key: "kubeconfig" } } },
    ...failing(
      "KubeConfig secret 'flux-system/dev-use1-sandbox-eks-connection' does not contain a 'kubeconfig' key",
      "ReconciliationFailed",
    ),
  });
  await writeObjectTargets(pool, hub.id, [
    { kind: "HelmRelease", namespace: "flux-system", name: "monitoring-agent-prod-use1-001", targetClusterId: spoke0.id },
    { kind: "Kustomization", namespace: "flux-system", name: "bootstrap-staging-euw1-analytics", targetClusterId: failed.id },
    { kind: "Kustomization", namespace: "flux-system", name: "bootstrap-dev-use1-sandbox", targetClusterId: creating.id },
  ]);
});

describe("what the collector writes", () => {
  it("the EKS API wins over Crossplane while it answers; Crossplane fills in again once it refuses", async () => {
    const pool = db.pool();
    const read = async () =>
      (
        await pool.query<{ eksVersion: string; eksFactsSource: string; eksError: string | null }>(
          `SELECT "eksVersion", "eksFactsSource", "eksError" FROM cluster WHERE id = $1`,
          [ids.noEks],
        )
      ).rows[0];
    expect(await read()).toEqual({ eksVersion: "1.34", eksFactsSource: "crossplane", eksError: ACCESS_DENIED });
    await writeEksSnapshot(pool, ids.noEks, at, {
      cluster: {
        name: "staging-use1-002",
        arn: null,
        region: "us-east-1",
        accountId: null,
        endpoint: null,
        caData: null,
        version: "1.35",
        platformVersion: "eks.3",
        status: "ACTIVE",
        supportType: "STANDARD",
        health: [],
        tags: {},
      },
      nodeGroups: null,
      addons: null,
      insights: null,
    });
    expect(await read()).toEqual({ eksVersion: "1.35", eksFactsSource: "eks-api", eksError: null });
    const facts = {
      eksArn: null,
      version: "1.34",
      platformVersion: "eks.12",
      eksStatus: "ACTIVE",
      supportType: null,
      desiredVersion: null,
    };
    expect(await writeCrossplaneFacts(pool, ids.noEks, at, { facts, nodeGroups: [] })).toBe(0);
    expect((await read()).eksVersion).toBe("1.35");
    // Access lost: Crossplane speaks again (and the change is history).
    await recordEksError(pool, ids.noEks, at, ACCESS_DENIED);
    expect(await writeCrossplaneFacts(pool, ids.noEks, at, { facts, nodeGroups: [] })).toBeGreaterThan(0);
    expect(await read()).toEqual({ eksVersion: "1.34", eksFactsSource: "crossplane", eksError: ACCESS_DENIED });
    const changes = await pool.query(
      `SELECT component, "fromVersion", "toVersion" FROM cluster_version_change WHERE "clusterId" = $1 ORDER BY id`,
      [ids.noEks],
    );
    expect(changes.rows).toEqual([
      { component: "eks", fromVersion: "1.34", toVersion: "1.35" },
      { component: "eks-platform", fromVersion: "eks.12", toVersion: "eks.3" },
      { component: "eks", fromVersion: "1.35", toVersion: "1.34" },
      { component: "eks-platform", fromVersion: "eks.3", toVersion: "eks.12" },
    ]);
  });

  it("nodes are written when something changed, and marked deleted when they leave", async () => {
    const pool = db.pool();
    const nodes = [makeNode("n-1"), makeNode("n-2")];
    const cluster = await makeCluster(db.prisma(), { name: "nodes-only" });
    expect(await upsertNodes(pool, cluster.id, at, nodes)).toBe(2);
    expect(await upsertNodes(pool, cluster.id, at, nodes)).toBe(0);
    expect(await upsertNodes(pool, cluster.id, at, [nodes[0]])).toBe(1);
    const { rows } = await pool.query(`SELECT name, "deletedAt" IS NOT NULL AS deleted FROM node WHERE "clusterId" = $1 ORDER BY name`, [
      cluster.id,
    ]);
    expect(rows).toEqual([
      { name: "n-1", deleted: false },
      { name: "n-2", deleted: true },
    ]);
  });

  it("an object's target is written once and cleared when it no longer has one", async () => {
    const pool = db.pool();
    const target = { kind: "HelmRelease", namespace: "flux-system", name: "monitoring-agent-prod-use1-001", targetClusterId: ids.spoke0 };
    const all = [
      target,
      { kind: "Kustomization", namespace: "flux-system", name: "bootstrap-staging-euw1-analytics", targetClusterId: ids.failed },
      { kind: "Kustomization", namespace: "flux-system", name: "bootstrap-dev-use1-sandbox", targetClusterId: ids.creating },
    ];
    expect(await writeObjectTargets(pool, ids.hub, all)).toBe(0);
    expect(await writeObjectTargets(pool, ids.hub, all.slice(1))).toBe(1);
    expect(await writeObjectTargets(pool, ids.hub, all)).toBe(1);
  });
});

describe("what the pages read", () => {
  it("a cluster being created: provisioning, its desired version, its Crossplane resource with Events, not unreachable", async () => {
    const c = (await getCluster("dev-use1-sandbox", now))!;
    expect(c.reachability).toBe("provisioning");
    expect(c.provisioning).toEqual({ state: "creating", desiredVersion: "1.35", since: "2026-11-23T09:54:00.000Z" });
    expect(c.versionKnowledge).toMatchObject({ version: "1.35", source: "desired", current: false });
    expect(c.access.provisioners[0]).toMatchObject({
      state: "creating",
      secretState: "empty",
      eksStatus: "CREATING",
      desiredVersion: "1.35",
    });
    const failed = (await getCluster("staging-euw1-analytics", now))!;
    expect(failed.provisioning?.state).toBe("failed");
    expect(failed.access.provisioners[0]).toMatchObject({ state: "failed", stateReason: "ReconcileError", stateMessage: CREATE_FAILED });
    expect(failed.access.provisioners[0].events).toEqual([
      expect.objectContaining({ type: "Warning", reason: "CannotCreateExternalResource", count: 7 }),
    ]);
  });

  it("Crossplane-sourced facts: version, node groups with their nodes, NotReady nodes with their Events", async () => {
    const c = (await getCluster("staging-use1-002", now))!;
    expect(c.versions).toMatchObject({ eks: "1.34", platform: "eks.12", eksSource: "crossplane", eksError: { message: ACCESS_DENIED } });
    expect(c.versionKnowledge).toMatchObject({
      version: "1.34",
      source: "observed",
      from: "crossplane",
      eksAccess: false,
      upgradeInProgress: true,
      desiredVersion: "1.35",
    });
    expect(c.access).toMatchObject({ eksArn: "arn:aws:eks:us-east-1:345678901234:cluster/staging-use1-002", eksArnSource: "kubeconfig" });
    expect(c.nodeGroups).toEqual([
      expect.objectContaining({ name: "system", source: "crossplane", desiredSize: 2, minSize: 2, maxSize: 4, nodes: 2, notReadyNodes: 1 }),
    ]);
    expect(c.nodes.total).toBe(3);
    expect(c.nodes.outsideNodeGroups).toBe(1);
    expect(c.nodes.notReady).toEqual([
      {
        name: "ip-10-41-1-2.ec2.internal",
        nodeGroup: "system",
        kubeletVersion: "v1.34.2-eks-1a2b3c4",
        readyStatus: "Unknown",
        readyReason: "NodeStatusUnknown",
        readyMessage: "Kubelet stopped posting node status.",
        since: "2026-11-23T09:56:00.000Z",
        events: [expect.objectContaining({ type: "Normal", reason: "NodeNotReady", reportingController: "node-controller" })],
      },
    ]);
  });

  it("the fleet counts NotReady nodes and clusters being created apart from unreachable ones", async () => {
    const fleet = await getFleet(parseFleetFilters({}), now);
    expect(fleet.summary).toMatchObject({ provisioning: 2, notReadyNodes: 1, unreachable: 1 });
    const byName = new Map(fleet.clusters.map((c) => [c.name, c]));
    expect(byName.get("dev-use1-sandbox")).toMatchObject({ health: "provisioning", provisioning: "creating" });
    expect(byName.get("staging-use1-002")).toMatchObject({ notReadyNodes: 1, versionKnowledge: { from: "crossplane" } });
    expect(byName.get("prod-usw2-005")!.versionKnowledge.why).toBe("never reached: 401 Unauthorized; no EKS API access");
    const onlyProvisioning = await getFleet(parseFleetFilters({ health: "provisioning" }), now);
    expect(onlyProvisioning.clusters.map((c) => c.name).sort()).toEqual(["dev-use1-sandbox", "staging-euw1-analytics"]);
  });

  it("/failures: the failed create is a problem of its own, the hub object waiting on it nested, the creating cluster no failure", async () => {
    const f = await listFailures(parseFailureFilters({}), now);
    const created = f.groups.find((g) => g.problem === "create-failed")!;
    expect(created).toMatchObject({ kind: "Cluster", reason: "ReconcileError", clusterCount: 1 });
    expect(created.members[0]).toMatchObject({ cluster: "staging-euw1-analytics", url: "/clusters/staging-euw1-analytics#provisioning" });
    expect(created.followers.map((g) => g.members[0].name)).toEqual(["bootstrap-staging-euw1-analytics"]);
    const unreachable = f.groups.filter((g) => g.problem === "unreachable").flatMap((g) => g.members.map((m) => m.cluster));
    expect(unreachable).toEqual(["prod-usw2-005"]);
    const sandbox = f.groups.flatMap((g) => g.members).find((m) => m.name === "bootstrap-dev-use1-sandbox")!;
    expect(sandbox.rootCause).toMatchObject({ kind: "Cluster", name: "dev-use1-sandbox", health: "progressing" });
    const onlyKustomizations = await listFailures(parseFailureFilters({ kind: "kustomization" }), now);
    expect(onlyKustomizations.groups.some((g) => g.problem === "create-failed")).toBe(false);
  });

  it("'applies to' on the hub object, 'managed from' on the spoke", async () => {
    const o = (await getObject(
      { cluster: "hub", kind: "HelmRelease", namespace: "flux-system", name: "monitoring-agent-prod-use1-001" },
      now,
    ))!;
    expect(o.appliesTo).toEqual({
      cluster: "prod-use1-001",
      url: "/clusters/prod-use1-001",
      secret: "flux-system/prod-use1-001-eks-connection",
    });
    const spoke = (await getCluster("prod-use1-001", now))!;
    expect(spoke.managedFrom).toEqual([
      expect.objectContaining({ cluster: "hub", kind: "HelmRelease", name: "monitoring-agent-prod-use1-001", health: "ready" }),
    ]);
  });

  it("/go: an EKS cluster ARN as the cluster label, and a cluster never reached says why", async () => {
    const byArn = await resolveGo({ cluster: "arn:aws:eks:us-east-1:210987654321:cluster/prod-use1-001" });
    expect(byArn.decision).toEqual({ type: "redirect", url: "/clusters/prod-use1-001" });
    const never = await resolveGo({ cluster: "prod-usw2-005", kind: "Kustomization", namespace: "flux-system", name: "apps" });
    expect(never.decision).toMatchObject({
      type: "not-found",
      problem: "Cluster prod-usw2-005 was never reached: 401 Unauthorized since 2026-11-23T09:00:00.000Z. Its objects are not known yet.",
    });
    const creating = await resolveGo({ cluster: "dev-use1-sandbox", kind: "ks", name: "flux-system" });
    expect(creating.decision).toMatchObject({
      problem: expect.stringContaining("is still being created by Crossplane since 2026-11-23T09:54:00.000Z"),
    });
  });
});
