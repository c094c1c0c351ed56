// Runs scripts/watch-floor.ts (bare Node.js holding the fleet's watches, see there) as a process of its own,
// with the collector's Node.js flags, and returns its figures.
import { spawn } from "node:child_process";
import { COLLECTOR_NODE_FLAGS } from "../../lib/collector/heap";

export interface WatchFloor {
  clusters: number;
  failedClusters: number;
  watchesPerCluster: number;
  /** Watch streams open (answered 200, not ended) when the window started and when it ended. */
  openWatchesAtStart: number;
  openWatchesAtEnd: number;
  /** Watch requests answered other than 200, by status. */
  refusedWatches: Record<string, number>;
  /** How long every watch had been open when the window started (0: the window started before all were open). */
  warmSecondsBeforeWindow?: number;
  idleSeconds: number;
  floorCpuCores: number;
  framesPerMinute: number;
  microsecondsPerFrame: number | null;
  /** The floor process's CPU by thread, user and system apart (describeThreadCpu). */
  threads?: string;
}

/**
 * Starts the floor process now; its window of `idleSeconds` starts at `windowAt` (epoch ms; leave the minute
 * its watches take to open, and a little more) or, without it, after the script's warm-up.
 */
export async function measureWatchFloor(kubeconfig: string, idleSeconds: number, windowAt?: number): Promise<WatchFloor> {
  const args = [
    ...COLLECTOR_NODE_FLAGS,
    "--import",
    "tsx",
    "scripts/watch-floor.ts",
    "--kubeconfig",
    kubeconfig,
    "--idle-seconds",
    String(idleSeconds),
  ];
  if (windowAt !== undefined) args.push("--window-at", String(Math.round(windowAt)));
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number>((resolve) => child.once("exit", (c) => resolve(c ?? 1)));
  const line = out.trim().split("\n").pop() ?? "";
  if (code !== 0 || !line.startsWith("{")) throw new Error(`the watch floor process failed (exit ${code}): ${out.slice(-300)}`);
  return JSON.parse(line) as WatchFloor;
}

/** One line for the bench's output. */
export function describeFloor(floor: WatchFloor, ratio: number | null): string {
  return (
    `bare Node.js holding the same ${floor.watchesPerCluster} watches on ${floor.clusters} clusters` +
    `${floor.failedClusters ? ` (${floor.failedClusters} could not be watched)` : ""} (TLS + HTTP/2, frames counted and dropped; ` +
    `${floor.openWatchesAtStart} streams open at the window's start` +
    `${floor.warmSecondsBeforeWindow === undefined ? "" : ` (all of them for ${floor.warmSecondsBeforeWindow.toFixed(0)} s)`}, ${floor.openWatchesAtEnd} at its end` +
    `${Object.keys(floor.refusedWatches).length ? `, refused: ${JSON.stringify(floor.refusedWatches)}` : ""}): ` +
    `${floor.floorCpuCores.toFixed(4)} cores over ${floor.idleSeconds.toFixed(0)} s, ${floor.framesPerMinute} frames a minute` +
    `${floor.microsecondsPerFrame === null ? "" : `, ${floor.microsecondsPerFrame.toFixed(0)} µs each`}` +
    (ratio === null ? "" : `; idle watching costs ${ratio.toFixed(1)}× that`) +
    (floor.threads ? `\n  floor by thread (cores): ${floor.threads}` : "")
  );
}
