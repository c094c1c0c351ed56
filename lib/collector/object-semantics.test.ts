// The collector against the fleet simulator (real HTTPS, child processes as `collector --once`), for the
// shapes real controllers write: static and new objects, drift, a release removed during the run whose
// Events remain, Node and Crossplane Events, revision annotations, and timelines without noise.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCluster } from "../db/queries/clusters";
import { getFleet } from "../db/queries/fleet";
import { getObject } from "../db/queries/objects";
import { startSimulator, type RunningSimulator } from "../simulator/index";
import { createFleetModel, type SimFleet } from "../simulator/fleet/index";
import { SEMANTICS } from "../simulator/fleet/object-semantics";
import { collectOnce as runCollectorOnce } from "../testing/collector-once";
import { useTestDatabase } from "../testing/db";

const run = promisify(execFile);
const db = useTestDatabase();
const SECOND = 1000;

let sim: RunningSimulator;
let fleet: SimFleet;
let outDir: string;
const spoke = (index: number) => fleet.spokes[index].name;

/** Runs `collector --once` as its own process against this file's simulator and database. */
const collectOnce = (extraEnv: Record<string, string> = {}) =>
  runCollectorOnce(
    { awsEnv: sim.awsEnv, hubKubeconfigPath: sim.hubKubeconfigPath, databaseUrl: db.url(), home: outDir },
    { LOG_LEVEL: "warn", ...extraEnv },
  );

/** Creates an object in a simulated cluster as its controller would (kubectl create with the admin token). */
async function create(cluster: string, object: Record<string, unknown>): Promise<void> {
  const file = path.join(outDir, `create-${Date.now()}-${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(object));
  await run("kubectl", ["--kubeconfig", sim.fleetKubeconfigPath, "--context", cluster, "create", "--validate=false", "-f", file], {
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: outDir, KUBECACHEDIR: path.join(outDir, "kube-cache") },
  });
}

const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await db.pool().query(sql, params)).rows as T[];

const objectRow = async (cluster: string, kind: string, namespace: string, name: string) =>
  (
    await q<Record<string, unknown>>(
      `SELECT o.* FROM flux_object o JOIN cluster c ON c.id = o."clusterId" WHERE c.name = $1 AND o.kind = $2 AND o.namespace = $3 AND o.name = $4`,
      [cluster, kind, namespace, name],
    )
  )[0];

const transitionsOf = (cluster: string, kind: string, namespace: string, name: string) =>
  q<{ change: string; fields: string[]; health: string; previousHealth: string | null; healthDetail: string | null; at: Date }>(
    `SELECT t.change, t.fields, t.health, t."previousHealth", t."healthDetail", t.at FROM flux_object_transition t
       JOIN flux_object o ON o.id = t."objectId" JOIN cluster c ON c.id = o."clusterId"
      WHERE c.name = $1 AND o.kind = $2 AND o.namespace = $3 AND o.name = $4 ORDER BY t.at, t.id`,
    [cluster, kind, namespace, name],
  );

const eventsOf = (cluster: string, kind: string, name: string) =>
  q<{ reason: string; type: string; revision: string | null; objectId: string | null; involvedApiVersion: string | null; count: number }>(
    `SELECT e.reason, e.type, e.revision, e."objectId"::text AS "objectId", e."involvedApiVersion", e.count FROM kube_event e
       JOIN cluster c ON c.id = e."clusterId" WHERE c.name = $1 AND e."involvedKind" = $2 AND e."involvedName" = $3 ORDER BY e."lastTimestamp"`,
    [cluster, kind, name],
  );

const nodeEvent = (name: string, uid: string, reason: string, type = "Normal", component = "node-controller") => ({
  apiVersion: "v1",
  kind: "Event",
  metadata: { name: `${name}.${uid}`, namespace: "default" },
  involvedObject: { apiVersion: "v1", kind: "Node", name, uid: `uid-${name}` },
  reason,
  message: `Node ${name} status is now: ${reason}`,
  source: { component },
  firstTimestamp: new Date(sim.clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z"),
  lastTimestamp: new Date(sim.clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z"),
  count: 1,
  type,
  reportingComponent: component,
  reportingInstance: "",
});

beforeAll(async () => {
  outDir = mkdtempSync(path.join(os.tmpdir(), "crows-nest-semantics-test-"));
  fleet = createFleetModel({ clusters: 12, objects: 30, seed: 7 });
  sim = await startSimulator({ outDir, model: fleet, speed: 0 });
  // Node Events as node-controller writes them (type Normal, namespace default) and kubelet start-up chatter.
  await create(spoke(0), nodeEvent("ip-10-0-1-23.eu-west-1.compute.internal", "a1", "NodeNotReady"));
  await create(spoke(0), nodeEvent("ip-10-0-1-23.eu-west-1.compute.internal", "a2", "NodeHasSufficientMemory", "Normal", "kubelet"));
}, 60_000);

afterAll(async () => {
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

describe("collector: objects as the controllers leave them", () => {
  it("on the first poll: first seen once, static OCI repositories, new objects, drift and its Warning, Node Events", async () => {
    await collectOnce();
    // Every object of a cluster is recorded once, as first seen, and nothing else.
    const reference = spoke(0);
    const [{ objects, seen, other }] = await q<{ objects: number; seen: number; other: number }>(
      `SELECT (SELECT count(*)::int FROM flux_object o JOIN cluster c ON c.id = o."clusterId" WHERE c.name = $1) AS objects,
              count(*) FILTER (WHERE t.change = 'first-seen')::int AS seen, count(*) FILTER (WHERE t.change <> 'first-seen')::int AS other
         FROM flux_object_transition t JOIN cluster c ON c.id = t."clusterId" WHERE c.name = $1`,
      [reference],
    );
    expect(objects).toBeGreaterThan(20);
    expect({ seen, other }).toEqual({ seen: objects, other: 0 });

    for (const index of SEMANTICS.staticOci.filter((i) => i !== 4)) {
      expect(await objectRow(spoke(index), "HelmRepository", "flux-system", "podinfo-oci"), spoke(index)).toMatchObject({
        health: "ready",
        healthDetail: "static",
        readyStatus: null,
      });
    }
    const unclaimed = await objectRow(spoke(SEMANTICS.unclaimed.spoke), "HelmRelease", "kube-system", "aws-node-termination-handler");
    expect(unclaimed).toMatchObject({ health: "new", observedGeneration: -1, helmChartName: null });
    expect((unclaimed.creationTimestamp as Date).getTime()).toBe(Math.floor((fleet.epoch + SEMANTICS.unclaimed.createdAt) / 1000) * 1000);
    // Read now: the wait is past the threshold, so it is a problem, not "progressing".
    const fleetView = await getFleet(undefined, new Date(sim.clock.now()));
    const c6 = fleetView.clusters.find((c) => c.name === spoke(SEMANTICS.unclaimed.spoke))!;
    expect(c6.counts.helmrelease.unclaimed).toBe(1);
    expect(c6.counts.helmrelease.progressing).toBe(0);
    expect(c6.health).toBe("failing");

    const drifted = await objectRow(spoke(3), "HelmRelease", "ingress-nginx", "ingress-nginx");
    expect(drifted).toMatchObject({ health: "ready", healthDetail: "drifted" });
    // A Warning of a ready object is kept; it carries no revision (helm-controller writes none on DriftDetected).
    expect(await eventsOf(spoke(3), "HelmRelease", "ingress-nginx")).toMatchObject([
      { reason: "DriftDetected", type: "Warning", revision: null, count: 2 },
    ]);
    expect(fleetView.clusters.find((c) => c.name === spoke(3))!.drifted).toBe(1);

    // The build failure's Warning keeps its revision annotation; the failing index's Warning its own.
    const chain = fleet.facts.dependencyChain!;
    const [buildFailed] = await eventsOf(chain.cluster, "Kustomization", "infra-controllers");
    expect(buildFailed.revision).toMatch(/^main@sha1:[0-9a-f]{40}$/);
    expect(buildFailed.involvedApiVersion).toBe("kustomize.toolkit.fluxcd.io/v1");
    expect(await eventsOf(spoke(5), "HelmRepository", "prometheus-community")).toMatchObject([{ reason: "Failed", type: "Warning" }]);

    // Node Events: NodeNotReady (type Normal) kept, the kubelet's chatter left out.
    expect((await eventsOf(reference, "Node", "ip-10-0-1-23.eu-west-1.compute.internal")).map((e) => e.reason)).toEqual(["NodeNotReady"]);
  }, 120_000);

  it("keeps the Events of Crossplane resources that provision spokes, on the hub, by group, kind and name", async () => {
    const [p] = await q<{ apiVersion: string; kind: string; namespace: string; name: string }>(
      `SELECT "apiVersion", kind, namespace, name FROM provisioning_resource WHERE kind = 'Cluster' AND "apiVersion" LIKE 'eks.aws.upbound.io/%' LIMIT 1`,
    );
    expect(p).toBeDefined();
    const at = new Date(sim.clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
    const crossplaneEvent = (uid: string, apiVersion: string) => ({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: `${p.name}.${uid}`, namespace: "default" },
      involvedObject: { apiVersion, kind: p.kind, name: p.name },
      reason: "CannotCreateExternalResource",
      message: "create failed: InvalidParameterException: Subnets specified must be in at least two different AZs",
      source: { component: "managed/eks.aws.upbound.io/v1beta2, kind=cluster" },
      firstTimestamp: at,
      lastTimestamp: at,
      count: 4,
      type: "Warning",
    });
    await create(sim.hubName, crossplaneEvent("c1", p.apiVersion));
    // Same kind and name in another group: not a resource that provisions a spoke.
    await create(sim.hubName, crossplaneEvent("c2", "cluster.x-k8s.io/v1beta1"));
    await collectOnce();
    expect(await eventsOf(sim.hubName, "Cluster", p.name)).toMatchObject([
      { reason: "CannotCreateExternalResource", type: "Warning", count: 4, involvedApiVersion: p.apiVersion, objectId: null },
    ]);
  }, 120_000);

  it("keeps a removed release's Events on its page, and records the deletion once", async () => {
    await sim.advance(SEMANTICS.removed.at + 10 * SECOND - (sim.clock.now() - fleet.epoch));
    await collectOnce();
    const cluster = spoke(SEMANTICS.removed.spoke);
    const row = await objectRow(cluster, "HelmRelease", "kube-system", "aws-node-termination-handler");
    expect(row.deletedAt).not.toBeNull();
    expect((await objectRow(cluster, "HelmChart", "flux-system", "kube-system-aws-node-termination-handler")).deletedAt).not.toBeNull();
    // Normal Events of an object that was ready: kept because it is gone, tied to its stored row.
    const events = await eventsOf(cluster, "HelmRelease", "aws-node-termination-handler");
    expect(events.map((e) => [e.reason, e.type, e.revision])).toEqual([
      ["UninstallSucceeded", "Normal", "0.27.2"],
      ["HelmChartDeleted", "Normal", null],
    ]);
    expect(events.every((e) => e.objectId === String(row.id))).toBe(true);
    const page = (await getObject({ cluster, kind: "HelmRelease", namespace: "kube-system", name: "aws-node-termination-handler" }))!;
    expect(page.historical).toMatchObject({ reason: "deleted" });
    expect(page.events.map((e) => e.reason)).toEqual(["HelmChartDeleted", "UninstallSucceeded"]);
    expect((await transitionsOf(cluster, "HelmRelease", "kube-system", "aws-node-termination-handler")).map((t) => t.change)).toEqual([
      "first-seen",
      "deleted",
    ]);
  }, 120_000);

  it("records a new object's life from creation, drift found, deployed versus failed, and no retry noise", async () => {
    const a = SEMANTICS.added;
    const cluster = spoke(a.spoke);
    const to = async (rel: number) => {
      await sim.advance(rel - (sim.clock.now() - fleet.epoch));
      await collectOnce();
    };
    await to(a.createdAt + 10 * SECOND);
    expect(await objectRow(cluster, "HelmRelease", "kube-system", "aws-node-termination-handler")).toMatchObject({ health: "new" });
    await to(a.createdAt + 30 * SECOND);
    expect(await objectRow(cluster, "HelmRelease", "kube-system", "aws-node-termination-handler")).toMatchObject({
      health: "progressing",
      observedGeneration: -1,
      helmChartName: "kube-system-aws-node-termination-handler",
    });
    await to(a.createdAt + 60 * SECOND);
    const installed = await objectRow(cluster, "HelmRelease", "kube-system", "aws-node-termination-handler");
    expect(installed).toMatchObject({ health: "ready", deployedChartVersion: "0.27.2" });
    const life = await transitionsOf(cluster, "HelmRelease", "kube-system", "aws-node-termination-handler");
    expect(life.map((t) => [t.change, t.previousHealth, t.health])).toEqual([
      ["created", null, "new"],
      ["changed", "new", "progressing"],
      ["changed", "progressing", "ready"],
    ]);
    // (The entry's time is the creation time the object states unless that lies after the poll, as simulated
    // time here does: changes.test.ts covers the rule.)
    expect(await eventsOf(cluster, "HelmRelease", "aws-node-termination-handler")).toMatchObject([]);

    // Spoke 8 drifted at 7 min: one entry, health unchanged.
    const drift = await transitionsOf(spoke(8), "HelmRelease", "ingress-nginx", "ingress-nginx");
    expect(drift.map((t) => [t.change, t.fields, t.previousHealth, t.health, t.healthDetail])).toEqual([
      ["first-seen", ["first-seen"], null, "ready", null],
      ["changed", ["drift"], "ready", "ready", "drifted"],
    ]);

    // The stall: deployed (the rollback of the old chart) is not attempted.
    const stall = fleet.facts.helmUpgradeStall!;
    const c = (await getCluster(stall.cluster))!;
    expect(c.objects.find((o) => o.name === stall.name)).toMatchObject({
      health: "stalled",
      revision: "77.14.0",
      helm: { deployed: "77.14.0", attempt: { version: "79.5.0", outcome: "failed" } },
    });
    const [row] = await q<{ deployedChartVersion: string; chartVersion: string }>(
      `SELECT o."deployedChartVersion", o."chartVersion" FROM flux_object o JOIN cluster c ON c.id = o."clusterId"
        WHERE c.name = $1 AND o.kind = 'HelmRelease' AND o.name = $2`,
      [stall.cluster, stall.name],
    );
    expect(row).toEqual({ deployedChartVersion: "77.14.0", chartVersion: "79.5.0" });

    // The dependency chain's root retried every 2 minutes with a new /tmp/kustomization-<N>: still one entry.
    const chain = fleet.facts.dependencyChain!;
    expect((await transitionsOf(chain.cluster, "Kustomization", "flux-system", "infra-controllers")).map((t) => t.change)).toEqual([
      "first-seen",
    ]);
    // Nowhere a healthy object with only a reworded message.
    const noise = await q(
      `SELECT * FROM flux_object_transition WHERE change = 'changed' AND health = 'ready' AND "previousHealth" = 'ready'
          AND fields <@ ARRAY['message', 'reason']::text[]`,
    );
    expect(noise).toEqual([]);
  }, 240_000);
});

describe("request budget", () => {
  it("reads Events with one LIST per Flux controller a cluster runs, Nodes with the facts, and the provisioners' kinds on the hub", async () => {
    const logs = await collectOnce({ LOG_LEVEL: "debug" }).then((r) => r.logs);
    const perCluster = new Map(
      logs
        .filter((l) => l.event === "poll-requests")
        .map((l) => [l.cluster as string, { requests: l.requests as number, lists: l.eventLists as number }]),
    );
    const kinds = (await q<{ kind: string }>(`SELECT DISTINCT kind FROM provisioning_resource`)).length;
    for (const s of fleet.spokes.filter((x) => perCluster.has(x.name))) {
      // kustomize-, helm- and source-controller, plus Nodes (facts are due in a fresh process).
      expect(perCluster.get(s.name)!.lists, s.name).toBe(4);
    }
    expect(perCluster.get(sim.hubName)!.lists).toBe(4 + kinds);
    const spokes = fleet.spokes.map((x) => perCluster.get(x.name)?.requests).filter((n): n is number => n != null);
    console.log(
      `requests per spoke poll (facts due): min ${Math.min(...spokes)}, max ${Math.max(...spokes)}; hub ${perCluster.get(sim.hubName)!.requests}`,
    );
  }, 120_000);
});
