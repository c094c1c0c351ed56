// Starts the whole fleet simulator: per-cluster HTTPS Kubernetes API servers fed by the fleet model,
// the EKS/STS endpoints, a control API, and the kubeconfig / aws.env files clients need.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startAwsServers, verifyEksToken, type AwsServers } from "./aws/index";
import type { FleetModel } from "./contract";
import { createFleetModel } from "./fleet/index";
import { createSimClock, type SimClock } from "./clock";
import { loadOrCreateClusterCas } from "./tls";
import { startControlServer, type ControlTarget } from "./kube/control";
import type { FaultSpec } from "./kube/faults";
import type { ChurnState } from "./kube/churn";
import { kubeconfigYaml } from "./kube/kubeconfig";
import { FleetRuntime } from "./kube/runtime";
import { startChartMirror, type ChartMirror } from "./charts";

export type { FaultSpec } from "./kube/faults";
export { parseFaultArgument } from "./kube/faults";

export interface StartSimulatorOptions {
  /** Where kubeconfigs, aws.env, CAs, tokens and ports are kept (reused on restart). */
  outDir: string;
  /** Total clusters including the hub. */
  clusters?: number;
  /** Flux objects per spoke (roughly). */
  objects?: number;
  /** Flux objects of particular spokes by name, instead of `objects` (one big cluster). */
  objectsBySpoke?: Record<string, number>;
  /** Spokes only Argo CD on the hub knows, beyond `clusters` (default 0; see docs/simulator-scenarios.md). */
  argocdSpokes?: number;
  seed?: number;
  speed?: number;
  faults?: Record<string, FaultSpec>;
  ports?: { control?: number };
  /** A ready-made model instead of the built-in fleet (tests). */
  model?: FleetModel;
  /** Start the EKS/STS endpoints (default: true when the AWS side is available). */
  aws?: boolean;
  tickMs?: number;
  reactionDelayMs?: number;
  bookmarkIntervalMs?: number;
  compactionIntervalMs?: number;
  /** Object changes per real second spread over the fleet (see docs/simulator.md, "Churn"); default 0. */
  churn?: number;
  /** Routine reconciles: every healthy Kustomization and HelmRelease reconciles on its interval (see docs/simulator.md); default off. */
  reconciles?: boolean;
  /** Milliseconds between a kubelet's Node status reports, which run with the routine reconciles (default 5 minutes). */
  kubeletReportIntervalMs?: number;
  /** Changes each resource's watch cache keeps before old resourceVersions become too old (default 1000). */
  watchCacheSize?: number;
  /** Real milliseconds between background writes (Lease renewals) that move each cluster's revision (default 10 s, 0 = none). */
  backgroundWriteIntervalMs?: number;
}

export interface SimulatedClusterInfo {
  name: string;
  role: "hub" | "spoke";
  endpoint: string;
  /** base64 PEM CA, as in kubeconfig certificate-authority-data. */
  caData: string;
}

export interface RunningSimulator {
  hubName: string;
  hubKubeconfigPath: string;
  /** Every cluster, admin token, one context per cluster. */
  fleetKubeconfigPath: string;
  /** The hub with the read-only token. */
  readOnlyKubeconfigPath: string;
  awsEnvPath: string | undefined;
  awsEnv: Record<string, string>;
  controlUrl: string;
  tokens: { admin: string; readOnly: string };
  clusters: SimulatedClusterInfo[];
  /** Helm repositories / OCI registry answering for the fleet's chart sources. */
  chartMirror: ChartMirror;
  /** Everything a collector needs to poll this fleet: aws.env plus UPSTREAM_MIRRORS, KUBECONFIG, HUB_NAME. */
  collectorEnv: Record<string, string>;
  clock: SimClock;
  model: FleetModel;
  runtime: FleetRuntime;
  /** Resolves when every cluster has been loaded from the model (they also load on first request). */
  warmedUp: Promise<void>;
  /** Moves simulated time forward and re-syncs right away. */
  advance(ms: number): Promise<void>;
  setFault(cluster: string, spec: FaultSpec): Promise<void>;
  /** Changes per second from now on (0 stops the churn). */
  setChurn(rate: number): void;
  /** The churn's rate, totals per cluster and the changes after `since`. */
  churn(since?: number, limit?: number): ChurnState;
  /** Drops the cluster's connections and restarts its watch caches (older resourceVersions become too old). */
  restartApiServer(cluster: string): void;
  stop(): Promise<void>;
}

function readJsonFile<T>(path: string): T | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : undefined;
}

function loadOrCreateTokens(outDir: string): { admin: string; readOnly: string } {
  const path = join(outDir, "tokens.json");
  const stored = readJsonFile<{ admin: string; readOnly: string }>(path);
  if (stored?.admin && stored.readOnly) return stored;
  const tokens = { admin: `sim-admin.${randomBytes(24).toString("hex")}`, readOnly: `sim-viewer.${randomBytes(24).toString("hex")}` };
  writeFileSync(path, JSON.stringify(tokens, null, 2), { mode: 0o600 });
  return tokens;
}

export async function startSimulator(options: StartSimulatorOptions): Promise<RunningSimulator> {
  const outDir = resolve(options.outDir);
  mkdirSync(outDir, { recursive: true });
  const seed = options.seed ?? 1;

  const clock = createSimClock({ speed: options.speed ?? 1 });
  // The scenario timeline starts when the simulated clock does.
  const model =
    options.model ??
    createFleetModel({
      clusters: options.clusters ?? 12,
      objects: options.objects ?? 40,
      objectsBySpoke: options.objectsBySpoke,
      seed,
      epoch: clock.now(),
      argocdSpokes: options.argocdSpokes,
    });
  const withAws = options.aws !== false && model.clusters.some((cluster) => cluster.eks);
  const cas = loadOrCreateClusterCas(
    outDir,
    model.clusters.map((cluster) => cluster.name),
  );
  const tokens = loadOrCreateTokens(outDir);
  const portsPath = join(outDir, "ports.json");
  const storedPorts = readJsonFile<{ clusters?: Record<string, number>; control?: number }>(portsPath) ?? {};

  const runtime = new FleetRuntime({
    model,
    clock,
    cas,
    tokens,
    verifyEksToken: withAws ? verifyEksToken : undefined,
    ports: storedPorts.clusters,
    faults: options.faults,
    tickMs: options.tickMs,
    reactionDelayMs: options.reactionDelayMs,
    bookmarkIntervalMs: options.bookmarkIntervalMs,
    compactionIntervalMs: options.compactionIntervalMs,
    churn: options.churn,
    reconciles: options.reconciles,
    kubeletReportIntervalMs: options.kubeletReportIntervalMs,
    watchCacheSize: options.watchCacheSize,
    backgroundWriteIntervalMs: options.backgroundWriteIntervalMs,
  });
  for (const name of Object.keys(options.faults ?? {})) runtime.handle(name); // unknown names fail early
  await runtime.listen();

  let awsServers: AwsServers | undefined;
  let chartMirror: ChartMirror | undefined;
  try {
    chartMirror = await startChartMirror();
    if (withAws) {
      awsServers = await startAwsServers({ model, runtime, clock, outDir });
      runtime.stsEndpoint = awsServers.stsEndpoint;
    }
    runtime.start();
  } catch (error) {
    await chartMirror?.stop();
    await runtime.stop();
    throw error;
  }

  const advance = async (ms: number) => {
    clock.advance(ms);
    await runtime.tick();
  };
  const controlTarget: ControlTarget = {
    state: () => ({ simTime: new Date(clock.now()).toISOString(), speed: clock.speed, clusters: runtime.state() }),
    advance,
    setSpeed: (speed) => clock.setSpeed(speed),
    setFault: (cluster, spec) => runtime.setFaults(cluster, spec),
    clearFault: (cluster) => runtime.setFaults(cluster, {}),
    compact: (cluster) => {
      if (cluster) runtime.handle(cluster).store.compact();
      else for (const handle of runtime.clusters.values()) handle.store.compact();
    },
    restart: (cluster) => runtime.restartApiServer(cluster),
    churn: (since, limit) => runtime.churn.state(since, limit),
    setChurn: (rate) => runtime.churn.setRate(rate),
    churnObject: (cluster, kind, namespace, name) => runtime.churn.changeObject(cluster, kind, namespace, name),
    reconciles: () => ({ ...runtime.reconciles.state(), kubeletReports: runtime.kubelets.state().reports }),
    setReconciles: (on) => runtime.setRoutine(on),
  };
  const control = await startControlServer(controlTarget, options.ports?.control ?? storedPorts.control ?? 0).catch(() =>
    startControlServer(controlTarget, 0),
  );

  const clusters: SimulatedClusterInfo[] = model.clusters.map((cluster) => ({
    name: cluster.name,
    role: cluster.role,
    endpoint: runtime.endpointOf(cluster.name),
    caData: runtime.caDataOf(cluster.name),
  }));
  const hub = clusters.find((cluster) => cluster.role === "hub") ?? clusters[0];
  const hubKubeconfigPath = join(outDir, "hub.kubeconfig");
  const fleetKubeconfigPath = join(outDir, "fleet.kubeconfig");
  const readOnlyKubeconfigPath = join(outDir, "hub-readonly.kubeconfig");
  writeFileSync(hubKubeconfigPath, kubeconfigYaml([hub], tokens.admin, "admin", hub.name), { mode: 0o600 });
  writeFileSync(readOnlyKubeconfigPath, kubeconfigYaml([hub], tokens.readOnly, "viewer", hub.name), { mode: 0o600 });
  writeFileSync(fleetKubeconfigPath, kubeconfigYaml(clusters, tokens.admin, "admin", hub.name), { mode: 0o600 });
  writeFileSync(
    portsPath,
    JSON.stringify({
      clusters: Object.fromEntries(clusters.map((c) => [c.name, Number(new URL(c.endpoint).port)])),
      control: Number(new URL(control.url).port),
    }),
  );

  let awsEnvPath: string | undefined;
  const awsEnv = awsServers?.env ?? {};
  if (awsServers) {
    awsEnvPath = join(outDir, "aws.env");
    writeFileSync(
      awsEnvPath,
      Object.entries(awsEnv)
        .map(([key, value]) => `${key}=${value}`)
        .join("\n") + "\n",
      { mode: 0o600 },
    );
  }

  return {
    hubName: hub.name,
    hubKubeconfigPath,
    fleetKubeconfigPath,
    readOnlyKubeconfigPath,
    awsEnvPath,
    awsEnv,
    chartMirror: chartMirror!,
    collectorEnv: {
      ...awsEnv,
      KUBECONFIG: hubKubeconfigPath,
      HUB_NAME: hub.name,
      UPSTREAM_MIRRORS: chartMirror!.setting,
    },
    controlUrl: control.url,
    tokens,
    clusters,
    clock,
    model,
    runtime,
    warmedUp: runtime.warmedUp,
    advance,
    setFault: (cluster, spec) => runtime.setFaults(cluster, spec),
    setChurn: (rate) => runtime.churn.setRate(rate),
    churn: (since = 0, limit = 10_000) => runtime.churn.state(since, limit),
    restartApiServer: (cluster) => runtime.restartApiServer(cluster),
    async stop() {
      const closed = new Promise<void>((resolveClose) => control.server.close(() => resolveClose()));
      control.server.closeAllConnections();
      await closed;
      await runtime.stop();
      await awsServers?.stop();
      await chartMirror?.stop();
    },
  };
}
