// Argo CD fleets end to end: the collector (its own process, as `collector --once`) discovers spokes through
// the hub's Argo CD cluster secrets, reaches them the way each secret says (awsAuthConfig through STS
// AssumeRole, a bearer token), reports the exec plugin it will not run, and merges the secrets of Flux
// spokes with their other ways in.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPool } from "../db/client";
import { getCluster } from "../db/queries/clusters";
import { getAddonMatrix } from "../db/queries/addons";
import { listFailures } from "../db/queries/failures";
import { parseFailureFilters } from "../fleet/filters";
import { startSimulator, type RunningSimulator } from "../simulator/index";
import { createFleetModel, type SimFleet } from "../simulator/fleet/index";
import { collectOnce } from "../testing/collector-once";
import { useTestDatabase } from "../testing/db";

const db = useTestDatabase();
let sim: RunningSimulator;
let fleet: SimFleet;
let outDir: string;

beforeAll(async () => {
  outDir = mkdtempSync(path.join(os.tmpdir(), "crows-nest-argocd-test-"));
  fleet = createFleetModel({ clusters: 10, objects: 8, seed: 5, argocdSpokes: 3 });
  sim = await startSimulator({ outDir, model: fleet, speed: 0 });
  await collectOnce({ awsEnv: sim.awsEnv, hubKubeconfigPath: sim.hubKubeconfigPath, databaseUrl: db.url(), home: outDir });
}, 120_000);

afterAll(async () => {
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

const argo = () => fleet.facts.argocd!;

describe("discovery through Argo CD cluster secrets", () => {
  it("reaches a spoke only its awsAuthConfig secret leads to, with an EKS token minted after assuming the secret's role", async () => {
    const spoke = argo().argoOnly.find((s) => s.auth === "aws")!;
    const spec = fleet.argoSpokes.find((s) => s.name === spoke.name)!;
    const c = await getCluster(spoke.name);
    expect(c).toMatchObject({ env: spec.env, team: spec.team, region: spec.region, accountId: spec.accountId, lastError: null });
    expect(c!.lastSuccessAt).not.toBeNull();
    expect(c!.access.eksArn).toBe(`arn:aws:eks:${spec.region}:${spec.accountId}:cluster/${spoke.name}`);
    expect(c!.access.paths).toEqual([
      expect.objectContaining({
        via: "argocd-secret",
        secretNamespace: "argocd",
        secretName: spoke.name,
        roleArn: `arn:aws:iam::${spec.accountId}:role/${spoke.name}-argocd-spoke`,
        argocd: expect.objectContaining({ name: spoke.name, problem: null }),
      }),
    ]);
    expect(c!.labels).toMatchObject({ environment: spec.env, enable_cert_manager: "true" });
  });

  it("reaches a bearer-token spoke, and reports the exec plugin it never runs as the cluster's error", async () => {
    const bearer = await getCluster(argo().argoOnly.find((s) => s.auth === "bearer")!.name);
    expect(bearer).toMatchObject({ lastError: null });
    expect(bearer!.lastSuccessAt).not.toBeNull();
    const exec = await getCluster(argo().argoOnly.find((s) => s.auth === "exec")!.name);
    expect(exec!.lastSuccessAt).toBeNull();
    expect(exec!.lastError).toContain('exec plugin "tsh"');
    expect(exec!.access.paths[0].argocd?.problem).toContain("never runs exec plugins");
  });

  it("merges the secrets of Flux spokes and of the hub with their other ways in: no cluster twice", async () => {
    const { rows } = await getPool().query<{ name: string; vias: string[] }>(
      `SELECT name, ARRAY(SELECT jsonb_array_elements("accessPaths")->>'via') AS vias FROM cluster ORDER BY name`,
    );
    // Every simulated cluster once, plus the one Crossplane fails to create (known from its resource only).
    expect(rows.map((r) => r.name)).toEqual([...fleet.clusters.map((c) => c.name), fleet.facts.provisioning.failing].sort());
    const throughArgo = rows.filter((r) => r.vias.includes("argocd-secret")).map((r) => r.name);
    expect(throughArgo).toEqual(["hub", ...argo().fluxSpokes, ...argo().argoOnly.map((s) => s.name)].sort());
    expect(rows.find((r) => r.name === "hub")!.vias.slice(0, 2)).toEqual(["hub", "argocd-secret"]);
  });
});

describe("collecting Applications and ApplicationSets", () => {
  const rows = async (kind: string) =>
    (
      await getPool().query<{
        name: string;
        health: string;
        readyReason: string | null;
        target: string | null;
        details: Record<string, unknown> | null;
      }>(
        `SELECT o.name, o.health, o."readyReason", t.name AS target, o.details
           FROM flux_object o JOIN cluster c ON c.id = o."clusterId" LEFT JOIN cluster t ON t.id = o."targetClusterId"
          WHERE c.name = 'hub' AND o.kind = $1 AND o."deletedAt" IS NULL ORDER BY o.name`,
        [kind],
      )
    ).rows;

  it("stores every Application the hub serves, each applying to its destination cluster, with Argo CD's health mapped", async () => {
    const apps = await rows("Application");
    const served = fleet.objectsAt("hub", fleet.epoch, sim.runtime).filter((o) => o.kind === "Application");
    expect(apps.map((a) => a.name)).toEqual(served.map((o) => o.metadata.name).sort());
    const degraded = argo().degradedAddon.applications[0];
    expect(apps.find((a) => a.name === degraded)).toMatchObject({ health: "failing", readyReason: "Degraded" });
    expect(apps.find((a) => a.name === argo().outOfSyncManual)).toMatchObject({ health: "ready", readyReason: "OutOfSync", target: null });
    for (const name of argo().comparisonError)
      expect(apps.find((a) => a.name === name)).toMatchObject({ health: "failing", readyReason: "ComparisonError" });
    // Every Application aimed at a spoke names it; the ones aimed at the hub apply where they live.
    const spoke = argo().argoOnly[0].name;
    expect(apps.find((a) => a.name === `workload-${spoke}`)?.target).toBe(spoke);
    const untargeted = apps
      .filter((a) => a.target === null)
      .map((a) => a.details?.destination as { name: string | null; server: string | null });
    expect(untargeted.length).toBeGreaterThan(0);
    for (const d of untargeted) expect(d.name === "hub" || d.server === "https://kubernetes.default.svc").toBe(true);
  });

  it("stores ApplicationSets with how many Applications each generates", async () => {
    const sets = await rows("ApplicationSet");
    const addon = sets.find((s) => s.name === argo().degradedAddon.applicationSet);
    expect(addon?.details?.generated).toBeGreaterThan(0);
    expect(sets.find((s) => s.name === argo().syncError.applicationSet)?.details?.generated).toBe(argo().syncError.applications.length);
  });
});

describe("Argo CD failures", () => {
  it("groups an add-on Degraded in several clusters into one failure group counting those clusters", async () => {
    const { groups } = await listFailures(parseFailureFilters({ kind: "application" }));
    const addon = argo().degradedAddon.applications;
    const group = groups.find((g) => g.members.some((m) => m.name === addon[0]))!;
    expect(group).toMatchObject({ kind: "Application", reason: "Degraded", objectCount: addon.length, clusterCount: addon.length });
    expect(group.members.map((m) => m.name).sort()).toEqual([...addon].sort());
    // OutOfSync without automated sync is not a failure.
    expect(groups.flatMap((g) => g.members).some((m) => m.name === argo().outOfSyncManual)).toBe(false);
  });
});

describe("Argo CD Applications with a Helm source in the add-on matrix", () => {
  it("shows the chart each add-on Application deployed in its destination cluster's column", async () => {
    const matrix = await getAddonMatrix();
    const row = matrix.rows.find((r) => r.kind === "helm" && r.label === "aws-load-balancer-controller")!;
    expect(row).toBeDefined();
    const prod = argo().degradedAddon.applications.map((a) => a.replace(/^addon-/, "").replace(/-aws-load-balancer-controller$/, ""));
    for (const cluster of prod) expect(row.cells[cluster]?.applied, cluster).toBe(argo().degradedAddon.chartVersion);
    expect(row.cells.hub?.applied ?? null).toBeNull();
  });
});
