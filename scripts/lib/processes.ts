// Child processes for the start scripts: spawn with a prefix on their output, wait for readiness,
// stop them all on Ctrl-C / SIGTERM.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseProcessCpu } from "./machine-cpu";

export interface Child {
  name: string;
  process: ChildProcess;
  exited: Promise<number>;
  /** The last lines it printed, shown when it dies unexpectedly even if its output was hidden. */
  lastLines: () => string[];
}

export function startChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, opts: { quiet?: boolean } = {}): Child {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const recent: string[] = [];
  const forward = (stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream) => {
    if (!stream) return;
    let buffer = "";
    stream.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) recent.push(line);
      if (recent.length > 20) recent.splice(0, recent.length - 20);
      if (opts.quiet) return;
      for (const line of lines) if (line.trim()) out.write(`[${name}] ${line}\n`);
    });
  };
  forward(child.stdout, process.stdout);
  forward(child.stderr, process.stderr);
  const exited = new Promise<number>((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1))));
  return { name, process: child, exited, lastLines: () => [...recent] };
}

export async function stopChild(child: Child, timeoutMs = 10_000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill("SIGTERM");
  const timer = setTimeout(() => child.process.kill("SIGKILL"), timeoutMs);
  await child.exited;
  clearTimeout(timer);
}

/** Polls `url` until it answers 2xx, the child dies, or the timeout passes. */
export async function waitForHttp(url: string, timeoutMs: number, child?: Child): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let died = false;
  void child?.exited.then(() => (died = true));
  while (Date.now() < deadline) {
    if (died) {
      const last =
        child
          ?.lastLines()
          .slice(-5)
          .map((l) => `\n  ${l}`)
          .join("") ?? "";
      throw new Error(`${child?.name} exited before ${url} answered${last ? `; its last output:${last}` : ""}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${Math.round(timeoutMs / 1000)} s`);
}

/** Runs `cleanup` once on SIGINT/SIGTERM, then exits. */
export function onShutdown(cleanup: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping…\n`);
    cleanup()
      .catch((err) => process.stderr.write(`error while stopping: ${String(err)}\n`))
      .finally(() => process.exit(0));
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
}

export const nextBin = "node_modules/next/dist/bin/next";

/**
 * The fleet simulator in its own process with simulated time stopped (a benchmark's fleet): resolves with
 * the child and its ready line, rejects when it exits first.
 */
export function startBenchSimulator(
  options: { outDir: string; clusters: number; objects: number },
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; readyLine: string }> {
  const args = ["--import", "tsx", "lib/simulator/main.ts", "--out", options.outDir, "--clusters", String(options.clusters)];
  const child = spawn(process.execPath, [...args, "--objects", String(options.objects), "--speed", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const readyLine = out.split("\n").find((line) => line.startsWith("simulator ready"));
      if (readyLine) resolve({ child, readyLine });
    });
    child.once("exit", (code) => reject(new Error(`simulator exited (${code}): ${stderr.split("\n").slice(-5).join(" ")}`)));
  });
}

/** user+system CPU seconds of a process so far (Linux /proc); null when it cannot be read (never a 0 that looks measured). */
export function processCpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const p = parseProcessCpu(readFileSync(`/proc/${pid}/stat`, "utf8"));
    return p ? p.own : null;
  } catch {
    return null;
  }
}
