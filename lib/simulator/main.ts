// npm run sim -- --out DIR [--clusters N] [--objects M] [--spoke-objects NAME=M]... [--seed S] [--speed X]
//                [--fault NAME=SPEC]... [--control-port P] [--argocd-spokes K] [--churn R] [--reconciles]
// Starts the fleet simulator, prints one ready line, runs until SIGINT/SIGTERM.
import { parseArgs } from "node:util";
import { type FaultSpec, parseFaultArgument, startSimulator } from "./index";

const USAGE = `usage: npm run sim -- --out DIR [--clusters N] [--objects M] [--spoke-objects NAME=M]... [--seed S]
                      [--speed X] [--fault NAME=SPEC]... [--control-port P] [--argocd-spokes K] [--churn R] [--reconciles]
  --clusters N    clusters including the hub (default 12)
  --objects M     Flux objects per spoke (default 40)
  --spoke-objects NAME=M  Flux objects of one spoke instead (e.g. staging-use1-002=1300: one big cluster)
  --argocd-spokes K  extra spokes only Argo CD's cluster secrets lead to (default 0)
  --seed S        fleet seed (default 1)
  --speed X       simulated seconds per real second (default 1)
  --churn R       object changes per second spread over the fleet, each one a history row (default 0)
  --reconciles    routine reconciles: every healthy Kustomization and HelmRelease reconciles on its interval
                  and writes its status as it goes, as Flux's controllers do (none is a history row)
  --fault NAME=SPEC, SPEC like latency:200,5xx:0.1,429:0.05,retryAfter:2,reset:0.02,truncate:0.1,unreachable,
                  cut:30 (cut requests open longer), nowatch (405; nowatch:empty ends watches at once;
                  nowatch:403 forbids watch), http1only`;

function positiveNumber(value: string | undefined, name: string, fallback: number, integer = true): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || (integer && !Number.isInteger(number))) {
    throw new Error(`--${name} must be a ${integer ? "non-negative integer" : "non-negative number"}, got "${value}"`);
  }
  return number;
}

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      clusters: { type: "string" },
      objects: { type: "string" },
      "spoke-objects": { type: "string", multiple: true },
      seed: { type: "string" },
      speed: { type: "string" },
      fault: { type: "string", multiple: true },
      "control-port": { type: "string" },
      "argocd-spokes": { type: "string" },
      churn: { type: "string" },
      reconciles: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help || !values.out) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const faults: Record<string, FaultSpec> = {};
  for (const argument of values.fault ?? []) {
    const { cluster, spec } = parseFaultArgument(argument);
    faults[cluster] = { ...faults[cluster], ...spec };
  }
  const objectsBySpoke: Record<string, number> = {};
  for (const argument of values["spoke-objects"] ?? []) {
    const [name, count] = argument.split("=");
    if (!name || count === undefined) throw new Error(`--spoke-objects wants NAME=M, got "${argument}"`);
    objectsBySpoke[name] = positiveNumber(count, "spoke-objects", 0);
  }
  const clusters = positiveNumber(values.clusters, "clusters", 12);
  if (clusters < 1) throw new Error("--clusters must be at least 1 (the hub)");

  const started = Date.now();
  const simulator = await startSimulator({
    outDir: values.out,
    clusters,
    objects: positiveNumber(values.objects, "objects", 40),
    objectsBySpoke,
    argocdSpokes: positiveNumber(values["argocd-spokes"], "argocd-spokes", 0),
    seed: positiveNumber(values.seed, "seed", 1),
    speed: positiveNumber(values.speed, "speed", 1, false),
    churn: positiveNumber(values.churn, "churn", 0, false),
    reconciles: values.reconciles ?? false,
    faults,
    ports: { control: values["control-port"] ? positiveNumber(values["control-port"], "control-port", 0) : undefined },
  });
  const hub = simulator.clusters.find((cluster) => cluster.name === simulator.hubName)!;
  const spokes = simulator.clusters.length - 1;
  console.log(
    `simulator ready: hub ${hub.endpoint}, ${spokes} spokes, control ${simulator.controlUrl}, kubeconfig ${simulator.hubKubeconfigPath}` +
      `${simulator.awsEnvPath ? `, aws env ${simulator.awsEnvPath}` : ""} (started in ${Date.now() - started} ms)`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await simulator.stop();
    console.log(`simulator stopped (${signal})`);
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  console.error(`simulator failed: ${(error as Error).message}`);
  process.exit(1);
});
