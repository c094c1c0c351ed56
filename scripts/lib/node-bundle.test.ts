// The compiled collector (what the image and the Helm chart run) against the fleet simulator: bundled as
// `npm run build` bundles it, then one `--once` cycle against this file's database, as collector.test.ts
// runs it from the sources.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../lib/simulator/index";
import { createFleetModel } from "../../lib/simulator/fleet/index";
import { collectOnce } from "../../lib/testing/collector-once";
import { useTestDatabase } from "../../lib/testing/db";
import { bundleForNode } from "./node-bundle";

const db = useTestDatabase();
let sim: RunningSimulator;
let outDir: string;
/** Inside the repository (the bundle finds its packages in node_modules), apart from dist/. */
const bundleDir = path.join("node_modules", ".cache", `crows-nest-bundle-test-${process.pid}`);

beforeAll(async () => {
  outDir = mkdtempSync(path.join(os.tmpdir(), "crows-nest-bundle-test-"));
  sim = await startSimulator({ outDir, model: createFleetModel({ clusters: 4, objects: 12, seed: 5 }), speed: 0 });
}, 60_000);

afterAll(async () => {
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

describe("the compiled collector", () => {
  it("refuses a bundle outside the repository (it could not import its packages)", async () => {
    await expect(bundleForNode("lib/collector/main.ts", path.join(outDir, "collector.mjs"))).rejects.toThrow(/outside/);
  });

  it("runs a full cycle against the simulator and stores exactly what the sources store", async () => {
    const bundle = path.join(bundleDir, "collector.mjs");
    await bundleForNode("lib/collector/main.ts", bundle);
    const target = { awsEnv: sim.awsEnv, hubKubeconfigPath: sim.hubKubeconfigPath, databaseUrl: db.url(), home: outDir };
    // What is stored, without the times: per cluster, and per object.
    const stored = async () => ({
      clusters: (
        await db
          .pool()
          .query(
            `SELECT name, role, lifecycle, provisioning, "objectCount", "lastErrorKind", "lastSuccessAt" IS NOT NULL AS read, "kubernetesVersion" FROM cluster ORDER BY name`,
          )
      ).rows,
      objects: (
        await db
          .pool()
          .query(
            `SELECT c.name AS cluster, o.kind, o.namespace, o.name, o.health, o."readyReason" FROM flux_object o JOIN cluster c ON c.id = o."clusterId" ORDER BY 1, 2, 3, 4`,
          )
      ).rows,
    });

    const fromSources = await collectOnce(target);
    const sources = await stored();
    await db.truncate();
    const fromBundle = await collectOnce(target, {}, [bundle]);
    const compiled = await stored();

    expect(sources.clusters.filter((c) => c.read).length).toBeGreaterThan(2);
    expect(sources.objects.length).toBeGreaterThan(20);
    expect(compiled).toEqual(sources);
    expect(fromBundle.summary.clusters).toBe(fromSources.summary.clusters);
  });
});
