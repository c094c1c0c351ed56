// Discovery in watch mode, in one collector process running cycle after cycle against the fleet simulator
// over real HTTPS: a new cluster in the hub is found the next cycle; an unchanged discovery writes nothing,
// so a cluster another replica marked gone stays so until the rewrite interval brings it back.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CoreV1Api } from "@kubernetes/client-node";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_OPTIONS } from "../db/client";
import { fromParts, loadHubConfig } from "../kube/kubeconfig";
import { logger } from "../logger";
import { startSimulator, type RunningSimulator } from "../simulator/index";
import { createTestFleet } from "../simulator/kube/testing";
import { testCollectorSettings } from "../testing/collector-once";
import { useTestDatabase } from "../testing/db";
import { Collector, type CollectorSettings } from "./collector";

const db = useTestDatabase();
let sim: RunningSimulator;
let outDir: string;
let pool: pg.Pool;
const collectors: Collector[] = [];

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "discovery-reuse-"));
  sim = await startSimulator({ outDir, model: createTestFleet({ spokes: 2 }), aws: false, speed: 0 });
  pool = new pg.Pool({ connectionString: db.url(), max: 8, options: SESSION_OPTIONS });
});

afterAll(async () => {
  await Promise.all(collectors.map((c) => c.close()));
  await pool?.end();
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

function collector(over: Partial<CollectorSettings> = {}): Collector {
  const c = new Collector(pool, testCollectorSettings(sim.hubKubeconfigPath, over), logger.child({ component: "collector" }));
  collectors.push(c);
  return c;
}

const lifecycle = async (name: string) =>
  (await pool.query<{ lifecycle: string }>(`SELECT lifecycle FROM cluster WHERE name = $1`, [name])).rows[0]?.lifecycle;

describe("discovery in watch mode", () => {
  it("finds a new cluster the next cycle, writes nothing while unchanged, and rewrites at its interval", async () => {
    const c = collector({ discoveryRewriteSeconds: 3600 });
    for (let i = 0; i < 3; i++) await c.runCycle();
    expect(await lifecycle("spoke-2")).toBe("active");

    // Another replica (or a person) marked it gone: an unchanged discovery does not write it back...
    await pool.query(`UPDATE cluster SET lifecycle = 'gone', "goneAt" = now() WHERE name = 'spoke-2'`);
    await c.runCycle();
    expect(await lifecycle("spoke-2")).toBe("gone");

    // ...but a change in the hub is seen at once and written: a labelled kubeconfig Secret for a new cluster.
    // Its own endpoint (nothing answers there; finding it is what this test is about), not merged with another.
    const kubeconfig = fromParts({ name: "labelled-one", server: "https://127.0.0.1:9", token: "unused" }).exportConfig();
    const hub = loadHubConfig({ kubeconfigPath: sim.hubKubeconfigPath }).makeApiClient(CoreV1Api);
    await hub.createNamespacedSecret({
      namespace: "crossplane-system",
      body: {
        metadata: {
          name: "labelled-one",
          labels: { "crows-nest.io/cluster-kubeconfig": "true" },
          annotations: { "crows-nest.io/cluster-name": "labelled-one" },
        },
        data: { value: Buffer.from(kubeconfig).toString("base64") },
      },
    });
    const deadline = Date.now() + 15_000;
    while ((await lifecycle("labelled-one")) !== "active") {
      if (Date.now() > deadline) throw new Error("the labelled cluster was not discovered");
      await c.runCycle();
    }
    // That write was a whole discovery's: the cluster marked gone is back too.
    expect(await lifecycle("spoke-2")).toBe("active");

    // With the rewrite interval passed, an unchanged discovery is written again.
    const quick = collector({ discoveryRewriteSeconds: 0 });
    for (let i = 0; i < 3; i++) await quick.runCycle();
    await pool.query(`UPDATE cluster SET lifecycle = 'gone', "goneAt" = now() WHERE name = 'spoke-2'`);
    await quick.runCycle();
    expect(await lifecycle("spoke-2")).toBe("active");
  });
});
