// Scale check for the simulator: npx tsx lib/simulator/scale.mts [--clusters 1000] [--objects 150] [--out DIR] [--startup-only]
// Prints start-up time, memory, the cost of a full re-sync tick and of listing every Kustomization on
// every cluster over HTTPS. Figures only; nothing here asserts a time.
import { request } from "node:https";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startSimulator } from "./index";

const { values } = parseArgs({
  options: {
    clusters: { type: "string" },
    objects: { type: "string" },
    out: { type: "string" },
    speed: { type: "string" },
    "startup-only": { type: "boolean" },
  },
});
const clusters = Number(values.clusters ?? 1000);
const objects = Number(values.objects ?? 150);
const outDir = values.out ?? mkdtempSync(join(tmpdir(), "sim-scale-"));
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

function get(endpoint: string, caData: string, token: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, endpoint),
      { ca: Buffer.from(caData, "base64"), headers: { Authorization: `Bearer ${token}` } },
      (res) => {
        let size = 0;
        res.on("data", (chunk: Buffer) => (size += chunk.length));
        res.on("end", () => (res.statusCode === 200 ? resolve(size) : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const started = performance.now();
const sim = await startSimulator({ outDir, clusters, objects, seed: 1, speed: Number(values.speed ?? 1) });
const startup = performance.now() - started;
console.log(`serving (hub loaded, spokes load on demand) after ${Math.round(startup)} ms; rss ${mb(process.memoryUsage().rss)}`);
await sim.warmedUp;
const loaded = performance.now() - started;
const totalObjects = [...sim.runtime.clusters.values()].reduce((sum, handle) => sum + handle.store.counts().objects, 0);
global.gc?.();
const memory = process.memoryUsage();
console.log(`clusters=${clusters} objects/spoke=${objects} stored objects=${totalObjects}`);
console.log(`every cluster loaded after ${Math.round(loaded)} ms; rss ${mb(memory.rss)}, heap used ${mb(memory.heapUsed)}`);

if (values["startup-only"]) {
  await sim.stop();
  process.exit(0);
}

const tickStart = performance.now();
await sim.advance(60 * 60 * 1000);
console.log(`advance 1h of simulated time (re-sync of changed clusters): ${Math.round(performance.now() - tickStart)} ms`);

const listStart = performance.now();
let bytes = 0;
const targets = sim.clusters.filter((cluster) => sim.runtime.handle(cluster.name).server.isReachable);
for (let i = 0; i < targets.length; i += 50) {
  const sizes = await Promise.all(
    targets
      .slice(i, i + 50)
      .map((cluster) =>
        get(cluster.endpoint, cluster.caData, sim.tokens.admin, "/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations?limit=500"),
      ),
  );
  bytes += sizes.reduce((sum, size) => sum + size, 0);
}
const listMs = performance.now() - listStart;
console.log(
  `list Kustomizations on ${targets.length} clusters (new TLS connection each): ${Math.round(listMs)} ms, ${mb(bytes)} transferred`,
);
console.log(`rss after lists ${mb(process.memoryUsage().rss)}`);

await sim.stop();
if (!values.out) rmSync(outDir, { recursive: true, force: true });
