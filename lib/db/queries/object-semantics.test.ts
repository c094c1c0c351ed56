// Pages and JSON as the objects really are: new and unclaimed objects, static and drifted ones, deployed
// versus attempted chart versions, the source chain, last good revision from the status, Events with their
// revision, a deleted object's Events. Real PostgreSQL, migrated from the SQL files.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../../testing/db";
import { parseFailureFilters } from "../../fleet/filters";
import { UNCLAIMED_AFTER_SECONDS } from "../../fleet/status";
import { getCluster } from "./clusters";
import { listFailures } from "./failures";
import { getFleet } from "./fleet";
import { getObject } from "./objects";
import { failing, makeCluster, makeObject } from "./test-factories";

const db = useTestDatabase();
const now = new Date("2026-11-21T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
const KPS_UPGRADE_FAILED =
  "Helm upgrade failed for release monitoring/kube-prometheus-stack with chart kube-prometheus-stack@79.5.0: context deadline exceeded";
const DRIFT =
  "Cluster state of release ingress-nginx/ingress-nginx.v7 has drifted from the desired state:\nDeployment/ingress-nginx/ingress-nginx-controller changed (0 additions, 1 changes, 0 removals)";
const INDEX_FAILED =
  "failed to fetch Helm repository index: failed to cache index to temporary file: failed to fetch https://prometheus-community.github.io/helm-charts/index.yaml : 429 Too Many Requests";

beforeAll(async () => {
  const prisma = db.prisma();
  const c = await makeCluster(prisma, { name: "sem-1", env: "prod" });
  const hr = { kind: "HelmRelease", apiVersion: "helm.toolkit.fluxcd.io/v2" };
  await makeObject(prisma, c.id, {
    ...hr,
    namespace: "kube-system",
    name: "nth-waiting",
    health: "new",
    readyStatus: null,
    readyReason: null,
    readyMessage: null,
    observedGeneration: -1,
    creationTimestamp: ago(90),
  });
  await makeObject(prisma, c.id, {
    ...hr,
    namespace: "kube-system",
    name: "nth-unclaimed",
    health: "new",
    readyStatus: null,
    readyReason: null,
    readyMessage: null,
    observedGeneration: -1,
    creationTimestamp: ago(25 * 60),
  });
  await makeObject(prisma, c.id, {
    ...hr,
    namespace: "ingress-nginx",
    name: "ingress-nginx",
    healthDetail: "drifted",
    readyReason: "UpgradeSucceeded",
    conditions: [
      {
        type: "Ready",
        status: "True",
        reason: "UpgradeSucceeded",
        message: "Helm upgrade succeeded",
        lastTransitionTime: "2026-11-01T00:00:00Z",
      },
      { type: "Drifted", status: "True", reason: "DriftDetected", message: DRIFT, lastTransitionTime: "2026-11-21T11:20:00Z" },
    ],
    deployedChartVersion: "4.13.3",
    appliedRevision: "4.13.3",
    chartVersion: "4.13.3",
  });
  await makeObject(prisma, c.id, {
    kind: "HelmRepository",
    apiVersion: "source.toolkit.fluxcd.io/v1",
    name: "podinfo-oci",
    healthDetail: "static",
    readyStatus: null,
    readyReason: null,
    readyMessage: null,
    url: "oci://ghcr.io/stefanprodan/charts",
  });
  // The stall: rollbacks deployed the old chart, the last attempt failed.
  await makeObject(prisma, c.id, {
    ...hr,
    namespace: "monitoring",
    name: "kube-prometheus-stack",
    health: "stalled",
    readyStatus: "False",
    readyReason: "RollbackSucceeded",
    readyMessage:
      "Helm rollback to previous release monitoring/kube-prometheus-stack.v11 with chart kube-prometheus-stack@77.14.0 succeeded",
    stalledReason: "RetriesExceeded",
    conditions: [
      { type: "Stalled", status: "True", reason: "RetriesExceeded", message: "Failed to upgrade after 3 attempt(s)" },
      { type: "Ready", status: "False", reason: "RollbackSucceeded", message: "Helm rollback … succeeded" },
      { type: "Released", status: "False", reason: "UpgradeFailed", message: KPS_UPGRADE_FAILED },
      { type: "Remediated", status: "True", reason: "RollbackSucceeded", message: "Helm rollback … succeeded" },
    ],
    chartName: "kube-prometheus-stack",
    chartVersion: "79.5.0",
    attemptedRevision: "79.5.0",
    appliedRevision: "77.14.0",
    deployedChartVersion: "77.14.0",
    firstFailedAt: new Date("2026-11-21T11:01:40Z"),
    history: [
      { version: 12, status: "failed", chartName: "kube-prometheus-stack", chartVersion: "79.5.0", lastDeployed: "2026-11-21T11:04:40Z" },
      {
        version: 11,
        status: "deployed",
        chartName: "kube-prometheus-stack",
        chartVersion: "77.14.0",
        lastDeployed: "2026-11-21T11:02:55Z",
      },
      { version: 10, status: "failed", chartName: "kube-prometheus-stack", chartVersion: "79.5.0" },
      { version: 9, status: "superseded", chartName: "kube-prometheus-stack", chartVersion: "77.14.0" },
    ],
    sourceKind: "HelmRepository",
    sourceNamespace: "flux-system",
    sourceName: "prometheus-community",
    helmChartNamespace: "flux-system",
    helmChartName: "monitoring-kube-prometheus-stack",
  });
  // A ready release whose repository cannot fetch its index: the chain says so.
  await makeObject(prisma, c.id, {
    ...hr,
    namespace: "monitoring",
    name: "loki",
    readyReason: "UpgradeSucceeded",
    conditions: [{ type: "Ready", status: "True", reason: "UpgradeSucceeded", message: "ok", lastTransitionTime: "2026-11-20T08:00:00Z" }],
    deployedChartVersion: "6.1.0",
    appliedRevision: "6.1.0",
    sourceKind: "HelmRepository",
    sourceNamespace: "flux-system",
    sourceName: "prometheus-community",
    helmChartNamespace: "flux-system",
    helmChartName: "monitoring-loki",
  });
  await makeObject(prisma, c.id, {
    kind: "HelmChart",
    apiVersion: "source.toolkit.fluxcd.io/v1",
    name: "monitoring-loki",
    sourceKind: "HelmRepository",
    sourceNamespace: "flux-system",
    sourceName: "prometheus-community",
  });
  await makeObject(prisma, c.id, {
    kind: "HelmRepository",
    apiVersion: "source.toolkit.fluxcd.io/v1",
    name: "prometheus-community",
    ...failing(INDEX_FAILED, "Failed"),
  });
  // First seen failing: no good revision observed by us; the status history has one.
  const ks = await makeObject(prisma, c.id, {
    name: "infra-controllers",
    ...failing("kustomize build failed: accumulating resources", "BuildFailed", "2026-11-21T11:13:00Z"),
    attemptedRevision: "main@sha1:bad",
    appliedRevision: "main@sha1:good",
    conditions: [{ type: "Ready", status: "False", reason: "BuildFailed", message: "x", lastTransitionTime: "2026-11-21T11:13:00Z" }],
    history: [
      {
        lastReconciledStatus: "ReconciliationSucceeded",
        lastReconciled: "2026-11-21T11:10:00Z",
        metadata: { revision: "main@sha1:good" },
      },
    ],
  });
  await prisma.fluxObjectTransition.createMany({
    data: [
      {
        objectId: ks.id,
        clusterId: c.id,
        at: new Date("2026-11-21T11:00:00Z"),
        change: "first-seen",
        fields: ["first-seen"],
        health: "ready",
        attemptedRevision: "main@sha1:good",
        appliedRevision: "main@sha1:good",
      },
      {
        objectId: ks.id,
        clusterId: c.id,
        at: new Date("2026-11-21T11:13:00Z"),
        change: "changed",
        fields: ["health", "revision"],
        health: "failing",
        previousHealth: "ready",
        attemptedRevision: "main@sha1:bad",
        appliedRevision: "main@sha1:good",
      },
    ],
  });
  // Deleted: its page answers from history, with the Events its controller wrote while finalising it.
  const gone = await makeObject(prisma, c.id, {
    ...hr,
    namespace: "kube-system",
    name: "aws-node-termination-handler",
    deletedAt: new Date("2026-11-21T11:50:00Z"),
    deployedChartVersion: "0.27.2",
    sourceKind: "HelmRepository",
    sourceNamespace: "flux-system",
    sourceName: "prometheus-community",
  });
  await prisma.kubeEvent.createMany({
    data: [
      {
        clusterId: c.id,
        objectId: gone.id,
        uid: "e-uninstall",
        involvedApiVersion: "helm.toolkit.fluxcd.io/v2",
        involvedKind: "HelmRelease",
        involvedNamespace: "kube-system",
        involvedName: "aws-node-termination-handler",
        type: "Normal",
        reason: "UninstallSucceeded",
        message:
          "Helm uninstall succeeded for release kube-system/aws-node-termination-handler.v1 with chart aws-node-termination-handler@0.27.2",
        firstTimestamp: new Date("2026-11-21T11:49:58Z"),
        lastTimestamp: new Date("2026-11-21T11:49:58Z"),
        reportingController: "helm-controller",
        revision: "0.27.2",
      },
    ],
  });
});

describe("health as the controllers leave objects", () => {
  it("counts new and unclaimed apart; unclaimed makes the cluster fail; drift is counted on its own", async () => {
    const fleet = await getFleet(undefined, now);
    const c = fleet.clusters.find((x) => x.name === "sem-1")!;
    expect(c.counts.helmrelease).toMatchObject({ new: 1, unclaimed: 1, stalled: 1 });
    expect(c.counts.helmrepository).toMatchObject({ ready: 1, failing: 1 });
    expect(c.health).toBe("failing");
    expect(c.drifted).toBe(1);
    expect(fleet.summary.drifted).toBe(1);
    // Progressing is not where new objects hide.
    expect(c.totals.progressing).toBe(0);
  });

  it("lists unclaimed objects on /failures, drift only when asked for and never among failures", async () => {
    const all = await listFailures(parseFailureFilters({}), now);
    const unclaimed = all.groups.find((g) => g.problem === "unclaimed")!;
    expect(unclaimed).toMatchObject({ kind: "HelmRelease", reason: "NotReconciled", objectCount: 1, longestFailingSeconds: 25 * 60 });
    expect(unclaimed.members[0].name).toBe("nth-unclaimed");
    expect(unclaimed.message).toBe("Not picked up by its controller: no status written since it was created");
    expect(all.groups.some((g) => g.problem === "drifted")).toBe(false);
    const drift = await listFailures(parseFailureFilters({ problem: "drifted" }), now);
    expect(drift.groups.map((g) => [g.problem, g.reason, g.message])).toEqual([["drifted", "DriftDetected", DRIFT]]);
    expect(drift.totals).toMatchObject({ objects: 1, clusters: 1 });
    const onlyUnclaimed = await listFailures(parseFailureFilters({ problem: "unclaimed" }), now);
    expect(onlyUnclaimed.groups.map((g) => g.problem)).toEqual(["unclaimed"]);
    // The stalled release after rollbacks: the cause is Released's upgrade failure, not the rollback.
    const stall = all.groups.find((g) => g.members.some((m) => m.name === "kube-prometheus-stack"))!;
    expect(stall).toMatchObject({ problem: "stalled", reason: "RetriesExceeded", message: KPS_UPGRADE_FAILED });
  });

  it("the threshold is the one of the status rules", async () => {
    const later = new Date(now.getTime() + (UNCLAIMED_AFTER_SECONDS - 90 + 1) * 1000);
    const c = (await getFleet(undefined, later)).clusters.find((x) => x.name === "sem-1")!;
    expect(c.counts.helmrelease).toMatchObject({ new: 0, unclaimed: 2 });
  });
});

describe("the cluster's object list", () => {
  it("shows drift and static beside the health, the wait of new objects, and deployed · failed versions", async () => {
    const c = (await getCluster("sem-1", now))!;
    const obj = (name: string) => c.objects.find((o) => o.name === name)!;
    expect(obj("ingress-nginx")).toMatchObject({ health: "ready", healthDetail: "drifted", driftMessage: DRIFT, revision: "4.13.3" });
    expect(obj("podinfo-oci")).toMatchObject({ health: "ready", healthDetail: "static" });
    expect(obj("nth-unclaimed")).toMatchObject({ health: "unclaimed", waitingForSeconds: 25 * 60 });
    expect(obj("nth-waiting")).toMatchObject({ health: "new", waitingForSeconds: 90 });
    expect(obj("kube-prometheus-stack")).toMatchObject({
      revision: "77.14.0",
      helm: { deployed: "77.14.0", attempt: { version: "79.5.0", outcome: "failed" } },
    });
    // First-seen entries are not transitions: the cluster's recent changes leave them out.
    expect(c.transitions.map((t) => t.change)).toEqual(["changed"]);
    expect(c.transitions[0].revision).toBe("main@sha1:bad");
  });
});

describe("the object page", () => {
  it("says deployed is not attempted", async () => {
    const d = (await getObject({ cluster: "sem-1", kind: "HelmRelease", namespace: "monitoring", name: "kube-prometheus-stack" }, now))!;
    expect(d.helm).toMatchObject({
      deployedChartVersion: "77.14.0",
      versions: { deployed: "77.14.0", attempt: { version: "79.5.0", outcome: "failed" } },
    });
    expect(d.object.readySince).toBeNull();
  });

  it("shows the source chain with each link's health, and a ready consumer of a failing source", async () => {
    const d = (await getObject({ cluster: "sem-1", kind: "HelmRelease", namespace: "monitoring", name: "loki" }, now))!;
    expect(d.chain.map((l) => [l.kind, `${l.namespace}/${l.name}`, l.health])).toEqual([
      ["HelmChart", "flux-system/monitoring-loki", "ready"],
      ["HelmRepository", "flux-system/prometheus-community", "failing"],
    ]);
    expect(d.chainTrouble).toMatchObject({ kind: "HelmRepository", name: "prometheus-community", message: INDEX_FAILED });
    expect(d.object.readySince).toBe("2026-11-20T08:00:00.000Z");
    // The stall's chart was collected away: the chain goes on from the release's own repository.
    const stall = (await getObject(
      { cluster: "sem-1", kind: "HelmRelease", namespace: "monitoring", name: "kube-prometheus-stack" },
      now,
    ))!;
    expect(stall.chain.map((l) => [l.kind, l.health])).toEqual([
      ["HelmChart", "missing"],
      ["HelmRepository", "failing"],
    ]);
    expect(stall.chainTrouble).toBeNull(); // not ready itself: its own failure is the news
  });

  it("takes the last good revision from the status when none was observed, and the failure's revision is the attempted one", async () => {
    const d = (await getObject({ cluster: "sem-1", kind: "Kustomization", namespace: "flux-system", name: "infra-controllers" }, now))!;
    expect(d.revisions.lastGood).toMatchObject({ revision: "main@sha1:good", at: "2026-11-21T11:10:00Z", from: "status" });
    expect(d.object.failingForSeconds).toBe(47 * 60);
    const transitions = d.timeline.filter((t) => t.type === "transition");
    expect(transitions.map((t) => [t.type === "transition" && t.change, t.revision])).toEqual([
      ["changed", "main@sha1:bad"],
      ["first-seen", "main@sha1:good"],
    ]);
  });

  it("describes drift, static and unclaimed objects", async () => {
    const drift = (await getObject({ cluster: "sem-1", kind: "HelmRelease", namespace: "ingress-nginx", name: "ingress-nginx" }, now))!;
    expect(drift.object).toMatchObject({ health: "ready", healthDetail: "drifted", drift: { reason: "DriftDetected", message: DRIFT } });
    const oci = (await getObject({ cluster: "sem-1", kind: "HelmRepository", namespace: "flux-system", name: "podinfo-oci" }, now))!;
    expect(oci.object).toMatchObject({ health: "ready", healthDetail: "static", drift: null });
    const waiting = (await getObject({ cluster: "sem-1", kind: "HelmRelease", namespace: "kube-system", name: "nth-unclaimed" }, now))!;
    expect(waiting.object).toMatchObject({ health: "unclaimed", waitingForSeconds: 1500, creationTimestamp: "2026-11-21T11:35:00.000Z" });
  });

  it("answers for a deleted object with the Events kept after it was gone, and their revision", async () => {
    const d = (await getObject(
      { cluster: "sem-1", kind: "HelmRelease", namespace: "kube-system", name: "aws-node-termination-handler" },
      now,
    ))!;
    expect(d.historical).toMatchObject({ reason: "deleted" });
    expect(d.events).toMatchObject([{ reason: "UninstallSucceeded", type: "Normal", revision: "0.27.2" }]);
    // Its chart went with it: nothing to warn about on the page of an object that is gone.
    expect(d.chainTrouble).toBeNull();
  });
});
