// Runs `collector --once` as its own process against a simulated fleet and a test database, as an operator
// would run it; resolves its summary line and its JSON log lines.
import { spawn } from "node:child_process";
import type { CollectorSettings } from "../collector/collector";
import { loadHubConfig } from "../kube/kubeconfig";

export interface CollectOnceTarget {
  /** The simulator's AWS settings, hub kubeconfig path and the test database URL. */
  awsEnv: Record<string, string>;
  hubKubeconfigPath: string;
  databaseUrl: string;
  /** HOME for the child (kubeconfig caches and the like stay out of the real one). */
  home: string;
}

/** The environment of a collector process under test: the simulator's AWS settings, its hub, the test database. */
export function collectorEnv(target: CollectOnceTarget, extraEnv: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: "test",
    PATH: process.env.PATH ?? "",
    HOME: target.home,
    ...target.awsEnv,
    DATABASE_URL: target.databaseUrl,
    KUBECONFIG: target.hubKubeconfigPath,
    COLLECTOR_METRICS_PORT: "0",
    COLLECTOR_CONCURRENCY: "8",
    COLLECTOR_REQUEST_TIMEOUT_MS: "4000",
    LOG_LEVEL: "debug",
    ...extraEnv,
  };
}

/** How the collector starts: from its sources through tsx (as `npm run collector`), or a compiled bundle. */
const FROM_SOURCES = ["--import", "tsx", "lib/collector/main.ts"];

export function collectOnce(
  target: CollectOnceTarget,
  extraEnv: Record<string, string> = {},
  entry: string[] = FROM_SOURCES,
): Promise<{ summary: Record<string, unknown>; logs: Array<Record<string, unknown>> }> {
  const child = spawn(process.execPath, [...entry, "--once"], {
    cwd: process.cwd(),
    env: collectorEnv(target, extraEnv),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => {
      const lines = out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const summary = lines.find((l) => !("level" in l));
      if (code !== 0 || !summary) reject(new Error(`collector exited ${code}: ${err.slice(-2000)} ${out.slice(-2000)}`));
      else resolve({ summary, logs: lines.filter((l) => "level" in l) });
    });
  });
}

/** An in-process collector's settings against a simulated hub: no EKS, a minute's cycle; `over` changes the rest. */
export function testCollectorSettings(hubKubeconfigPath: string, over: Partial<CollectorSettings> = {}): CollectorSettings {
  return {
    hubConfig: loadHubConfig({ kubeconfigPath: hubKubeconfigPath }),
    hubName: "hub",
    secretLabel: "crows-nest.io/cluster-kubeconfig",
    intervalSeconds: 60,
    concurrency: 4,
    requestTimeoutMs: 5_000,
    eksRegions: [],
    eksAssumeRoles: [],
    eksIntervalSeconds: 300,
    retentionDays: 30,
    mode: "watch",
    ...over,
  };
}
