// End to end against the fleet simulator over real HTTPS (Kubernetes API servers, STS and EKS): the
// collector runs as `npm run collector -- --once` would, in child processes, against this file's database.
// What it stored is compared with what kubectl reads from the same simulated clusters.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { CHANGE_CHANNEL, NUDGE_CHANNEL } from "../db/channels";
import { getCluster } from "../db/queries/clusters";
import { startSimulator, type RunningSimulator } from "../simulator/index";
import { createFleetModel, type SimFleet } from "../simulator/fleet/index";
import { collectorEnv, collectOnce as runCollectorOnce, testCollectorSettings } from "../testing/collector-once";
import { useTestDatabase } from "../testing/db";
import { collectorPool } from "../db/client";
import { logger } from "../logger";
import { Collector } from "./collector";

const run = promisify(execFile);
const db = useTestDatabase();
const MINUTE = 60_000;
const KINDS =
  "kustomizations.kustomize.toolkit.fluxcd.io,helmreleases.helm.toolkit.fluxcd.io,gitrepositories.source.toolkit.fluxcd.io,ocirepositories.source.toolkit.fluxcd.io,helmrepositories.source.toolkit.fluxcd.io,helmcharts.source.toolkit.fluxcd.io";

let sim: RunningSimulator;
let fleet: SimFleet;
let outDir: string;

interface Served {
  kind: string;
  metadata: { namespace: string; name: string };
  status?: {
    conditions?: Array<{ type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }>;
    lastAppliedRevision?: string;
    artifact?: { revision?: string };
  };
}

/** What kubectl sees in one cluster (admin token, independent of the collector's credentials). */
async function kubectlObjects(cluster: string): Promise<Served[]> {
  const { stdout } = await run(
    "kubectl",
    ["--kubeconfig", sim.fleetKubeconfigPath, "--context", cluster, "--request-timeout=20s", "get", KINDS, "-A", "-o", "json"],
    {
      maxBuffer: 64 * 1024 * 1024,
      env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: outDir, KUBECACHEDIR: path.join(outDir, "kube-cache") },
    },
  );
  return (JSON.parse(stdout) as { items: Served[] }).items;
}

/** How many objects of these kinds kubectl sees in one cluster. */
async function kubectlCount(cluster: string, kinds: string): Promise<number> {
  const { stdout } = await run(
    "kubectl",
    ["--kubeconfig", sim.fleetKubeconfigPath, "--context", cluster, "--request-timeout=20s", "get", kinds, "-A", "-o", "name"],
    { env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: outDir, KUBECACHEDIR: path.join(outDir, "kube-cache") } },
  );
  return stdout.split("\n").filter(Boolean).length;
}

/** Runs `collector --once` as its own process against this file's simulator and database. */
const collectOnce = (extraEnv: Record<string, string> = {}) =>
  runCollectorOnce({ awsEnv: sim.awsEnv, hubKubeconfigPath: sim.hubKubeconfigPath, databaseUrl: db.url(), home: outDir }, extraEnv);

/** A long-running collector (not --once); resolves its log lines so far on demand. */
function startCollector(extraEnv: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "lib/collector/main.ts"], {
    cwd: process.cwd(),
    env: collectorEnv({ awsEnv: sim.awsEnv, hubKubeconfigPath: sim.hubKubeconfigPath, databaseUrl: db.url(), home: outDir }, extraEnv),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const logs = () =>
    out
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, exited, logs };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, attempts = 300): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => (await db.pool().query(sql, params)).rows as T[];

beforeAll(async () => {
  outDir = mkdtempSync(path.join(os.tmpdir(), "crows-nest-collector-test-"));
  fleet = createFleetModel({ clusters: 12, objects: 24, seed: 11 });
  // Simulated time only moves when the test advances it, so "no change" really is no change.
  sim = await startSimulator({ outDir, model: fleet, speed: 0 });
}, 60_000);

afterAll(async () => {
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

describe("collector against the fleet simulator", () => {
  it("fills Postgres with every cluster and object the simulator serves, and records the expired token as such", async () => {
    const { summary } = await collectOnce();
    const clusters = await q<{
      name: string;
      role: string;
      lifecycle: string;
      lastErrorKind: string | null;
      lastError: string | null;
      lastSuccessAt: Date | null;
      objectCount: number;
      provisioning: string | null;
    }>(
      `SELECT name, role, lifecycle, "lastErrorKind", "lastError", "lastSuccessAt", "objectCount", provisioning FROM cluster ORDER BY name`,
    );
    expect(summary.clusters).toBe(clusters.length);
    // Where the cycle's CPU went, part by part (the bench prints it for an idle fleet); polling is the bulk.
    const cpuMs = summary.cpuMs as Record<string, number>;
    expect(Object.keys(cpuMs)).toEqual(["discovery", "leases", "clusters", "jobs", "finish"]);
    expect(Object.values(cpuMs).every((ms) => Number.isInteger(ms) && ms >= 0)).toBe(true);
    expect(cpuMs.clusters).toBeGreaterThan(cpuMs.finish);
    const running = sim.clusters.map((c) => c.name);
    expect(clusters.map((c) => c.name)).toEqual(expect.arrayContaining(running));
    expect(clusters.every((c) => c.lifecycle === "active")).toBe(true);
    // Spokes Crossplane is still creating (or failed to create) have nothing to reach yet: stored as
    // provisioning with their Crossplane resources, never polled, so no error either.
    const { creating, creatingUpjet, failing } = fleet.facts.provisioning;
    expect(
      clusters
        .filter((c) => c.provisioning)
        .map((c) => `${c.name}:${c.provisioning}`)
        .sort(),
    ).toEqual([`${creating}:creating`, `${failing}:failed`, `${creatingUpjet}:creating`].sort());
    for (const extra of clusters.filter((c) => c.provisioning)) {
      const provisioners = await q<{ state: string | null }>(
        `SELECT p.state FROM provisioning_resource p JOIN cluster c ON c.id = p."clusterId" WHERE c.name = $1`,
        [extra.name],
      );
      expect(provisioners.length, extra.name).toBeGreaterThan(0);
      expect(extra.lastSuccessAt).toBeNull();
      expect(extra.lastError, extra.name).toBeNull();
    }
    expect(clusters.filter((c) => c.role === "hub").map((c) => c.name)).toEqual([sim.hubName]);

    const expired = fleet.facts.expiredToken!.cluster;
    for (const cluster of sim.clusters.filter((c) => !clusters.find((r) => r.name === c.name)?.provisioning)) {
      const stored = await q<{
        kind: string;
        namespace: string;
        name: string;
        readyStatus: string | null;
        readyReason: string | null;
        readyMessage: string | null;
        appliedRevision: string | null;
      }>(
        `SELECT o.kind, o.namespace, o.name, o."readyStatus", o."readyReason", o."readyMessage", o."appliedRevision"
           FROM flux_object o JOIN cluster c ON c.id = o."clusterId"
          WHERE c.name = $1 AND o."deletedAt" IS NULL AND o.kind NOT IN ('Application', 'ApplicationSet')`,
        [cluster.name],
      );
      const row = clusters.find((c) => c.name === cluster.name)!;
      if (cluster.name === expired) {
        expect(row.lastErrorKind).toBe("auth");
        expect(row.lastSuccessAt).toBeNull();
        expect(stored).toHaveLength(0);
        continue;
      }
      expect(row.lastSuccessAt, cluster.name).not.toBeNull();
      const served = await kubectlObjects(cluster.name);
      expect(stored.length, cluster.name).toBe(served.length);
      // The hub's Argo CD objects are counted too (compared with what the hub serves in argocd.test.ts).
      const argo = cluster.role === "hub" ? await kubectlCount(cluster.name, "applications.argoproj.io,applicationsets.argoproj.io") : 0;
      expect(row.objectCount).toBe(served.length + argo);
      // A sample of fields, object by object.
      for (const s of served.filter((_, i) => i % 5 === 0)) {
        const r = stored.find((o) => o.kind === s.kind && o.namespace === s.metadata.namespace && o.name === s.metadata.name);
        expect(r, `${cluster.name} ${s.kind}/${s.metadata.namespace}/${s.metadata.name}`).toBeDefined();
        const ready = s.status?.conditions?.find((c) => c.type === "Ready");
        expect(r!.readyStatus).toBe(ready?.status ?? null);
        expect(r!.readyReason).toBe(ready?.reason ?? null);
        expect(r!.readyMessage).toBe(ready?.message ?? null);
        if (s.kind === "Kustomization") expect(r!.appliedRevision).toBe(s.status?.lastAppliedRevision ?? null);
        if (s.kind === "GitRepository") expect(r!.appliedRevision).toBe(s.status?.artifact?.revision ?? null);
      }
    }
    // The counts the fleet overview reads are the live objects per kind and health, kept on the cluster row.
    const mismatched = await q<{ name: string }>(`
      SELECT c.name FROM cluster c
       WHERE c."lastSuccessAt" IS NOT NULL AND c."healthCounts" IS DISTINCT FROM (
         SELECT coalesce(jsonb_object_agg(kind, per_health), '{}'::jsonb) FROM (
           SELECT kind, jsonb_object_agg(health, n) AS per_health FROM (
             SELECT kind, health, count(*)::int AS n FROM flux_object WHERE "clusterId" = c.id AND "deletedAt" IS NULL GROUP BY 1, 2
           ) per GROUP BY kind) k)`);
    expect(mismatched).toEqual([]);
    // Every reachable cluster tells its Flux version (FluxReport or the flux-system namespace label).
    const versions = await q<{ name: string; fluxVersion: string | null }>(
      `SELECT name, "fluxVersion" FROM cluster WHERE "lastSuccessAt" IS NOT NULL`,
    );
    for (const v of versions) expect(v.fluxVersion, v.name).toMatch(/^v2\.\d+\.\d+$/);
    // The cluster-info variables the Kustomizations substitute from; never values from the Secret they also name.
    const reference = fleet.facts.reference ?? sim.clusters.find((c) => c.role === "spoke" && c.name !== expired)!.name;
    const [subs] = await q<{ substitutions: Record<string, Record<string, string>> }>(`SELECT substitutions FROM cluster WHERE name = $1`, [
      reference,
    ]);
    expect(subs.substitutions["ConfigMap flux-system/cluster-info"]).toMatchObject({ cluster_name: reference });
    expect(JSON.stringify(subs.substitutions)).not.toMatch(/datadog|grafana_admin_password|hooks\.slack\.com/);
    // The Crossplane resources that provision spokes, with their conditions.
    const provisioners = await q<{ kind: string; ready: string | null; synced: string | null }>(
      `SELECT kind, ready, synced FROM provisioning_resource`,
    );
    expect(new Set(provisioners.map((p) => p.kind))).toEqual(new Set(["Cluster", "ClusterAuth", "EKSCluster"]));
  }, 180_000);

  it("keeps EKS facts from Crossplane where the EKS API refuses, nodes with their Ready state, and where hub objects apply", async () => {
    // The spoke whose account the collector may not call EKS in: facts from its Upbound Cluster and NodeGroups.
    const spoke = fleet.facts.noEksAccess!.cluster;
    const spec = fleet.spokeSpec(spoke)!;
    const [row] = await q<{
      eksVersion: string | null;
      platformVersion: string | null;
      eksArn: string | null;
      eksFactsSource: string | null;
      eksError: string | null;
      lastSuccessAt: Date | null;
    }>(`SELECT "eksVersion", "platformVersion", "eksArn", "eksFactsSource", "eksError", "lastSuccessAt" FROM cluster WHERE name = $1`, [
      spoke,
    ]);
    expect(row).toMatchObject({
      eksVersion: spec.version,
      platformVersion: expect.stringMatching(/^eks\.\d+$/),
      eksArn: `arn:aws:eks:${spec.region}:${spec.accountId}:cluster/${spoke}`,
      eksFactsSource: "crossplane",
    });
    expect(row.eksError).toMatch(
      /^AccessDeniedException: User: arn:aws:sts::\d{12}:assumed-role\/.* is not authorized to perform: eks:DescribeCluster/,
    );
    expect(row.lastSuccessAt).not.toBeNull(); // reached through its ClusterAuth kubeconfig all the same
    const groups = await q<{ name: string; source: string; version: string | null; desiredSize: number | null }>(
      `SELECT g.name, g.source, g.version, g."desiredSize" FROM node_group g JOIN cluster c ON c.id = g."clusterId" WHERE c.name = $1 ORDER BY g.name`,
      [spoke],
    );
    expect(groups.map((g) => `${g.name}:${g.source}:${g.version}`)).toEqual([
      `system:crossplane:${spec.version}`,
      `workers:crossplane:${spec.version}`,
    ]);
    // Everywhere else the EKS API answers, and wins.
    const reference = fleet.facts.reference!;
    const [ref] = await q<{ eksFactsSource: string | null }>(`SELECT "eksFactsSource" FROM cluster WHERE name = $1`, [reference]);
    expect(ref.eksFactsSource).toBe("eks-api");
    const sources = await q<{ source: string }>(
      `SELECT DISTINCT g.source FROM node_group g JOIN cluster c ON c.id = g."clusterId" WHERE c.name = $1`,
      [reference],
    );
    expect(sources.map((s) => s.source)).toEqual(["eks-api"]);

    // Nodes, with the one that stopped reporting.
    const notReady = await q<{ name: string; nodeGroup: string; readyStatus: string; readyReason: string; readySince: Date }>(
      `SELECT n.name, n."nodeGroup", n."readyStatus", n."readyReason", n."readySince" FROM node n JOIN cluster c ON c.id = n."clusterId"
        WHERE n."deletedAt" IS NULL AND n."readyStatus" IS DISTINCT FROM 'True'`,
    );
    expect(notReady).toEqual([expect.objectContaining({ nodeGroup: "system", readyStatus: "Unknown", readyReason: "NodeStatusUnknown" })]);
    const [{ cluster: nodeCluster }] = await q<{ cluster: string }>(
      `SELECT c.name AS cluster FROM node n JOIN cluster c ON c.id = n."clusterId" WHERE n.name = $1`,
      [notReady[0].name],
    );
    expect(nodeCluster).toBe(fleet.facts.notReadyNode!.cluster);
    // Their Events, kept where the cluster pages read them: the node's under its own cluster (involvedKind Node),
    // the Crossplane resources' under the hub, matched by kind and name for the cluster they provision.
    const nodePage = (await getCluster(nodeCluster))!;
    expect(nodePage.nodes.notReady[0].events).toEqual([
      expect.objectContaining({ reason: "NodeNotReady", type: "Normal", reportingController: "node-controller" }),
    ]);
    const { creating, failing } = fleet.facts.provisioning;
    const creatingPage = (await getCluster(creating))!;
    expect(creatingPage.access.provisioners.find((p) => p.kind === "Cluster")!.events.map((e) => e.reason)).toEqual([
      "CreatedExternalResource",
    ]);
    const failedPage = (await getCluster(failing))!;
    expect(failedPage.access.provisioners.find((p) => p.kind === "Cluster")!.events.map((e) => [e.type, e.reason])).toEqual([
      ["Warning", "CannotCreateExternalResource"],
      ["Normal", "CreatedExternalResource"],
    ]);
    const [{ n: misplaced }] = await q<{ n: string }>(
      `SELECT count(*) AS n FROM kube_event e JOIN cluster c ON c.id = e."clusterId"
        WHERE e."involvedKind" IN ('Cluster', 'ClusterAuth', 'EKSCluster') AND (c.role <> 'hub' OR e."involvedNamespace" <> '')`,
    );
    expect(Number(misplaced)).toBe(0);

    // The hub HelmRelease that deploys into spoke 0 through its connection secret.
    const { name, spoke: target } = fleet.facts.hubToSpoke!;
    const [applies] = await q<{ target: string | null }>(
      `SELECT t.name AS target FROM flux_object o JOIN cluster h ON h.id = o."clusterId" LEFT JOIN cluster t ON t.id = o."targetClusterId"
        WHERE h.role = 'hub' AND o.kind = 'HelmRelease' AND o.name = $1`,
      [name],
    );
    expect(applies.target).toBe(target);
    const [{ n: untargeted }] = await q<{ n: string }>(
      `SELECT count(*) AS n FROM flux_object o JOIN cluster h ON h.id = o."clusterId"
        WHERE h.role <> 'hub' AND o."targetClusterId" IS NOT NULL`,
    );
    expect(Number(untargeted)).toBe(0);
  }, 60_000);

  it("reaches an EKS-only spoke end to end through IRSA (web identity → STS → EKS API → presigned token)", async () => {
    const eksOnly = fleet.facts.eksOnly[0];
    expect(eksOnly).toBeDefined();
    const [row] = await q<{
      accessPaths: Array<{ via: string }>;
      eksArn: string | null;
      eksVersion: string | null;
      lastSuccessAt: Date | null;
      objectCount: number;
      region: string;
    }>(`SELECT "accessPaths", "eksArn", "eksVersion", "lastSuccessAt", "objectCount", region FROM cluster WHERE name = $1`, [eksOnly]);
    expect(row.accessPaths.map((p) => p.via)).toEqual(["eks"]);
    expect(row.eksArn).toMatch(new RegExp(`^arn:aws:eks:${row.region}:\\d{12}:cluster/${eksOnly}$`));
    expect(row.lastSuccessAt).not.toBeNull();
    expect(row.objectCount).toBe((await kubectlObjects(eksOnly)).length);
    expect(row.eksVersion).toMatch(/^1\.\d+$/);
    const [{ n }] = await q<{ n: string }>(
      `SELECT count(*) AS n FROM node_group ng JOIN cluster c ON c.id = ng."clusterId" WHERE c.name = $1`,
      [eksOnly],
    );
    expect(Number(n)).toBeGreaterThan(0);
  });

  it("adds no history and no object rows on a cycle where nothing changed", async () => {
    const before = await q<{ n: string; u: Date }>(`SELECT count(*) AS n, max("updatedAt") AS u FROM flux_object_transition, flux_object`);
    const [{ t0 }] = await q<{ t0: string }>(`SELECT count(*) AS t0 FROM flux_object_transition`);
    const { summary } = await collectOnce();
    const [{ t1 }] = await q<{ t1: string }>(`SELECT count(*) AS t1 FROM flux_object_transition`);
    expect(Number(t1)).toBe(Number(t0));
    expect(summary.historyRows).toBe(0);
    void before;
  }, 120_000);

  it("records scenario changes as transitions at the time the object says, and an unreachable spoke as refused", async () => {
    const [{ lastId }] = await q<{ lastId: string | null }>(`SELECT max(id)::text AS "lastId" FROM flux_object_transition`);
    await sim.advance(5 * MINUTE);
    // The web listens for what changed: the collector names the clusters it wrote (at most once a second).
    const listener = new pg.Client({ connectionString: db.url() });
    await listener.connect();
    const told: string[] = [];
    listener.on("notification", (m) => told.push(...(m.payload ?? "").split(",")));
    await listener.query(`LISTEN ${CHANGE_CHANNEL}`);
    await collectOnce();
    await new Promise((r) => setTimeout(r, 200));
    await listener.end();
    for (const cluster of [...fleet.facts.badCommit.clusters, fleet.facts.unreachable!.cluster]) expect(told).toContain(cluster);
    const unreachable = fleet.facts.unreachable!.cluster;
    const [down] = await q<{ lastErrorKind: string; lastErrorAt: Date; lastSuccessAt: Date }>(
      `SELECT "lastErrorKind", "lastErrorAt", "lastSuccessAt" FROM cluster WHERE name = $1`,
      [unreachable],
    );
    expect(down.lastErrorKind).toBe("refused");
    expect(down.lastErrorAt.getTime()).toBeGreaterThan(down.lastSuccessAt.getTime());
    // Its objects are kept (last known state), not deleted.
    const [{ kept }] = await q<{ kept: string }>(
      `SELECT count(*) AS kept FROM flux_object o JOIN cluster c ON c.id = o."clusterId" WHERE c.name = $1 AND o."deletedAt" IS NULL`,
      [unreachable],
    );
    expect(Number(kept)).toBeGreaterThan(0);

    const changes = await q<{
      cluster: string;
      kind: string;
      namespace: string;
      name: string;
      at: Date;
      fields: string[];
      health: string;
      previousHealth: string;
    }>(
      `SELECT c.name AS cluster, o.kind, o.namespace, o.name, t.at, t.fields, t.health, t."previousHealth"
         FROM flux_object_transition t JOIN flux_object o ON o.id = t."objectId" JOIN cluster c ON c.id = t."clusterId"
        WHERE t.id > $1 AND t.change = 'changed' AND o.kind NOT IN ('Application', 'ApplicationSet')`,
      [lastId ?? 0],
    );
    const flips = changes.filter((c) => c.fields.includes("status"));
    expect(flips.length).toBeGreaterThan(0);
    // The HelmRelease upgrade failed three times and stalled (the bad commit broke `apps` before t0: first seen failing).
    const stall = fleet.facts.helmUpgradeStall!;
    expect(
      flips.some((c) => c.cluster === stall.cluster && c.name === stall.name && c.previousHealth === "ready" && c.health === "stalled"),
    ).toBe(true);
    const byCluster = new Map<string, Served[]>();
    for (const flip of flips) {
      if (!byCluster.has(flip.cluster)) byCluster.set(flip.cluster, await kubectlObjects(flip.cluster));
      const served = byCluster
        .get(flip.cluster)!
        .find((s) => s.kind === flip.kind && s.metadata.namespace === flip.namespace && s.metadata.name === flip.name)!;
      const ready = served.status!.conditions!.find((c) => c.type === "Ready")!;
      expect(flip.at.toISOString(), `${flip.cluster} ${flip.kind}/${flip.name}`).toBe(new Date(ready.lastTransitionTime!).toISOString());
    }
    const [{ failing }] = await q<{ failing: string }>(
      `SELECT count(*) AS failing FROM flux_object WHERE health = 'failing' AND "firstFailedAt" IS NULL`,
    );
    expect(Number(failing)).toBe(0);
  }, 180_000);

  it("records injected faults as such while every other cluster is still collected", async () => {
    const victim = sim.clusters.find(
      (c) => c.role === "spoke" && c.name !== fleet.facts.unreachable!.cluster && c.name !== fleet.facts.expiredToken!.cluster,
    )!.name;
    await sim.setFault(victim, { errorRate: 1 });
    try {
      const started = new Date();
      await collectOnce();
      const rows = await q<{ name: string; lastErrorKind: string | null; lastErrorAt: Date | null; lastSuccessAt: Date | null }>(
        `SELECT name, "lastErrorKind", "lastErrorAt", "lastSuccessAt" FROM cluster`,
      );
      const hit = rows.find((r) => r.name === victim)!;
      expect(hit.lastErrorKind).toBe("http");
      expect(hit.lastErrorAt!.getTime()).toBeGreaterThanOrEqual(started.getTime());
      const healthy = rows.filter(
        (r) =>
          sim.clusters.some((c) => c.name === r.name) &&
          ![victim, fleet.facts.unreachable!.cluster, fleet.facts.expiredToken!.cluster].includes(r.name) &&
          !fleet.provisionedSpokes.some((p) => p.name === r.name),
      );
      expect(healthy.length).toBeGreaterThan(5);
      expect(healthy.every((r) => r.lastSuccessAt && r.lastSuccessAt.getTime() >= started.getTime())).toBe(true);
    } finally {
      await sim.setFault(victim, {});
    }
  }, 180_000);

  it("never lets two collector processes poll the same cluster at once", async () => {
    const [a, b] = await Promise.all([
      collectOnce({ COLLECTOR_REPLICA_ID: "replica-a" }),
      collectOnce({ COLLECTOR_REPLICA_ID: "replica-b" }),
    ]);
    const intervals = new Map<string, Array<{ replica: string; start: number; end: number }>>();
    for (const { logs } of [a, b]) {
      const open = new Map<string, number>();
      for (const l of logs) {
        const cluster = l.cluster as string | undefined;
        if (!cluster) continue;
        const t = Date.parse(l.time as string);
        if (l.event === "poll-start") open.set(cluster, t);
        if (l.event === "poll-end") {
          const list = intervals.get(cluster) ?? [];
          list.push({ replica: l.replica as string, start: open.get(cluster)!, end: t });
          intervals.set(cluster, list);
        }
      }
    }
    // Clusters still being created are not polled at all.
    const [{ n }] = await q<{ n: string }>(`SELECT count(*) AS n FROM cluster WHERE lifecycle = 'active' AND provisioning IS NULL`);
    expect(intervals.size).toBe(Number(n));
    for (const [cluster, list] of intervals) {
      for (const x of list) {
        for (const y of list) {
          if (x.replica === y.replica) continue;
          expect(x.end <= y.start || y.end <= x.start, `${cluster} polled by both replicas at once`).toBe(true);
        }
      }
    }
    expect(Number(a.summary.clusters) + Number(b.summary.clusters)).toBeGreaterThanOrEqual(Number(n));
  }, 180_000);

  it("re-polls a nudged cluster at once, serves /metrics, and on SIGTERM gives its leases back and exits", async () => {
    const metricsPort = 20000 + Math.floor(Math.random() * 20000);
    // A long interval: after the first cycle, only a nudge makes it poll again.
    const collector = startCollector({
      COLLECTOR_INTERVAL_SECONDS: "3600",
      // Re-polling on a nudge is poll mode's; a watched cluster needs no nudge (watch-mode.test.ts).
      COLLECTOR_MODE: "poll",
      COLLECTOR_METRICS_PORT: String(metricsPort),
      COLLECTOR_REPLICA_ID: "long-running",
    });
    try {
      await until("the first cycle", async () => collector.logs().some((l) => l.msg === "cycle finished"));
      const target = sim.clusters.find(
        (c) => c.role === "spoke" && c.name !== fleet.facts.unreachable!.cluster && c.name !== fleet.facts.expiredToken!.cluster,
      )!.name;
      const pollsBefore = collector.logs().filter((l) => l.cluster === target && l.event === "poll-start").length;
      const [{ id }] = await q<{ id: string }>(
        `INSERT INTO collector_nudge ("clusterName", kind, namespace, name, reason) VALUES ($1, 'Kustomization', 'flux-system', 'apps', 'webhook') RETURNING id::text AS id`,
        [target],
      );
      await db.pool().query(`SELECT pg_notify($1, $2)`, [NUDGE_CHANNEL, target]);
      const handled = await until("the nudge to be handled", async () => {
        const [row] = await q<{ handledAt: Date | null }>(`SELECT "handledAt" FROM collector_nudge WHERE id = $1`, [id]);
        return row.handledAt ?? undefined;
      });
      expect(handled).toBeInstanceOf(Date);
      expect(collector.logs().filter((l) => l.cluster === target && l.event === "poll-start").length).toBe(pollsBefore + 1);
      // Still only one cycle: the poll came from the nudge.
      expect(collector.logs().filter((l) => l.msg === "cycle finished")).toHaveLength(1);

      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      for (const name of [
        "crows_nest_collector_cycle_seconds",
        "crows_nest_clusters",
        "crows_nest_flux_objects",
        "crows_nest_collector_requests_total",
        "crows_nest_collector_errors_total",
        "crows_nest_collector_rows_written_total",
      ]) {
        expect(metrics).toContain(name);
      }
      expect(metrics).toMatch(/crows_nest_clusters\{reachability="reachable"\} \d+/);
      const [{ held }] = await q<{ held: string }>(
        `SELECT count(*) AS held FROM collector_lease WHERE holder = 'long-running' AND "clusterId" > 0`,
      );
      expect(Number(held)).toBeGreaterThan(0);

      collector.child.kill("SIGTERM");
      expect(await collector.exited).toBe(0);
      const [{ left }] = await q<{ left: string }>(`SELECT count(*) AS left FROM collector_lease WHERE holder = 'long-running'`);
      expect(Number(left)).toBe(0);
      // No credential in the logs.
      const text = JSON.stringify(collector.logs());
      expect(text).not.toMatch(/k8s-aws-v1\.|sim-admin\.|BEGIN CERTIFICATE|SecretAccessKey/);
    } finally {
      collector.child.kill("SIGKILL");
    }
  }, 180_000);

  it("polls a cluster Crossplane finished creating as any other spoke; the one it failed to create stays failed", async () => {
    const { creating, creatingUpjet, failing, availableAt } = fleet.facts.provisioning;
    const start = fleet.epoch;
    const target = start + Math.max(...Object.values(availableAt)) + MINUTE;
    await sim.advance(target - sim.clock.now());
    await collectOnce();
    const rows = await q<{
      name: string;
      provisioning: string | null;
      lastSuccessAt: Date | null;
      objectCount: number;
      eksVersion: string | null;
    }>(`SELECT name, provisioning, "lastSuccessAt", "objectCount", "eksVersion" FROM cluster WHERE name = ANY($1::text[]) ORDER BY name`, [
      [creating, creatingUpjet, failing],
    ]);
    const by = new Map(rows.map((r) => [r.name, r]));
    for (const name of [creating, creatingUpjet]) {
      expect(by.get(name), name).toMatchObject({ provisioning: null, eksVersion: "1.35" });
      expect(by.get(name)!.lastSuccessAt, name).not.toBeNull();
      expect(by.get(name)!.objectCount, name).toBe((await kubectlObjects(name)).length);
    }
    expect(by.get(failing)).toMatchObject({ provisioning: "failed", lastSuccessAt: null });
    const [failed] = await q<{ state: string; stateReason: string; stateMessage: string }>(
      `SELECT p.state, p."stateReason", p."stateMessage" FROM provisioning_resource p JOIN cluster c ON c.id = p."clusterId"
        WHERE c.name = $1 AND p.kind = 'Cluster'`,
      [failing],
    );
    expect(failed).toMatchObject({ state: "failed", stateReason: "AsyncCreateFailure" });
    expect(failed.stateMessage).toMatch(/^async create failed: .*InvalidParameterException/);
  }, 180_000);
});

describe("Collector.quiet (when the collector may nap: idle-reads.ts)", () => {
  it("is quiet only with no cycle, request or query in flight and no news for a second", async () => {
    const pool = collectorPool(db.url(), 2);
    const collector = new Collector(
      pool,
      testCollectorSettings(sim.hubKubeconfigPath, { concurrency: 2, requestTimeoutMs: 15_000, mode: "poll" }),
      // Its cycle's lines (the fleet's refused and expired clusters) are not this test's: silent.
      logger.child({ test: "quiet" }, { level: "silent" }),
    );
    try {
      expect(collector.quiet()).toBe(true);
      // A request in flight (a list, a facts read, a nudge's poll).
      const answered = collector.activity.begin();
      expect(collector.quiet()).toBe(false);
      answered();
      expect(collector.quiet()).toBe(true);
      // News: awake for a second.
      collector.activity.news();
      expect(collector.quiet()).toBe(false);
      expect(collector.quiet(Date.now() + 1_000)).toBe(true);
      // A query in flight.
      const query = pool.query("SELECT pg_sleep(0.2)");
      await new Promise((r) => setImmediate(r));
      expect(collector.quiet(Date.now() + 1_000)).toBe(false);
      await query;
      expect(collector.quiet(Date.now() + 1_000)).toBe(true);
      // A cycle running (discovery, leases, the clusters' polls).
      const cycle = collector.runCycle();
      expect(collector.quiet(Date.now() + 1_000)).toBe(false);
      await cycle;
      expect(collector.quiet(Date.now() + 1_000)).toBe(true);
    } finally {
      await collector.close();
      await pool.end();
    }
  }, 120_000);
});
