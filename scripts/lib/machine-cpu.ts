// Where a machine's CPU went during a phase of the bench (Linux /proc): the whole machine's busy and stolen
// time, and the CPU of a process with all its descendants (PostgreSQL's postmaster and its backends). A
// 2-core machine that is busy the whole cold start cannot start faster however the collector is written;
// these figures say whether it was.
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux this runs on). */
const TICKS = 100;

export interface MachineCpu {
  cores: number;
  /** Seconds summed over cores: user, nice, system, irq, softirq. */
  busy: number;
  /** Seconds the hypervisor ran something else while this machine wanted its cores. */
  steal: number;
}

/** The first line of /proc/stat ("cpu  user nice system idle iowait irq softirq steal …"), with the core count. */
export function parseMachineCpu(procStat: string): MachineCpu | null {
  const lines = procStat.split("\n");
  const total = lines[0]
    ?.match(/^cpu\s+(.*)$/)?.[1]
    .trim()
    .split(/\s+/)
    .map(Number);
  if (!total || total.length < 8 || total.some((n) => !Number.isFinite(n))) return null;
  const [user, nice, system, , , irq, softirq, steal] = total;
  const cores = lines.filter((l) => /^cpu\d+\s/.test(l)).length;
  return { cores, busy: (user + nice + system + irq + softirq) / TICKS, steal: steal / TICKS };
}

export interface ProcessCpu {
  ppid: number;
  /** Its own user + system seconds. */
  own: number;
  /** User + system seconds of the children it has waited for (ended ones). */
  reaped: number;
}

/** /proc/<pid>/stat: the fields after the command name's closing parenthesis. */
export function parseProcessCpu(pidStat: string): ProcessCpu | null {
  const rest = pidStat.slice(pidStat.lastIndexOf(")") + 2).split(" ");
  const [ppid, utime, stime, cutime, cstime] = [rest[1], rest[11], rest[12], rest[13], rest[14]].map(Number);
  if ([ppid, utime, stime, cutime, cstime].some((n) => !Number.isFinite(n))) return null;
  return { ppid, own: (utime + stime) / TICKS, reaped: (cutime + cstime) / TICKS };
}

/**
 * CPU seconds of a process and every descendant, living or ended: each living one's own time plus what it
 * reaped (an ended process counts once, in the parent that waited for it). Null when the process is gone.
 */
export function treeCpuSeconds(pid: number, processes: Map<number, ProcessCpu>): number | null {
  if (!processes.has(pid)) return null;
  const children = new Map<number, number[]>();
  for (const [child, p] of processes) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(child);
    else children.set(p.ppid, [child]);
  }
  let seconds = 0;
  const pending = [pid];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const p = processes.get(next)!;
    seconds += p.own + p.reaped;
    pending.push(...(children.get(next) ?? []));
  }
  return seconds;
}

/** Every process this machine shows in /proc now. */
export function readProcesses(): Map<number, ProcessCpu> {
  const out = new Map<number, ProcessCpu>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const p = parseProcessCpu(readFileSync(`/proc/${entry}/stat`, "utf8"));
      if (p) out.set(Number(entry), p);
    } catch {
      // ended between the listing and the read
    }
  }
  return out;
}

export function readMachineCpu(): MachineCpu | null {
  try {
    return parseMachineCpu(readFileSync("/proc/stat", "utf8"));
  } catch {
    return null;
  }
}

const tenths = (n: number) => Math.round(n * 10) / 10;

/** b − a, or null when either is unknown. */
export const cpuBetween = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : b - a);

/**
 * The whole machine over a phase, in core-seconds: what it had (cores × seconds), what was busy, and who used
 * it (null: not readable here); stolen by the hypervisor apart.
 */
export interface MachineShares {
  coreSeconds: number;
  busy: number;
  collector: number;
  simulator: number | null;
  postgres: number | null;
  steal: number;
}

/** The machine's CPU so far, and its users' (null: not readable): the simulator's process tree, PostgreSQL's. */
export function machineShares(simulatorPid: number | null, postmasterPid: number | null) {
  const processes = readProcesses();
  return {
    machine: readMachineCpu(),
    simulator: simulatorPid ? treeCpuSeconds(simulatorPid, processes) : null,
    postgres: postmasterPid ? treeCpuSeconds(postmasterPid, processes) : null,
  };
}

/** Who used the machine between two readings `seconds` apart, while the collector used `collectorCpuSeconds`. */
export function machineBetween(
  s0: ReturnType<typeof machineShares>,
  s1: ReturnType<typeof machineShares>,
  seconds: number,
  collectorCpuSeconds: number,
): MachineShares | null {
  if (!s0.machine || !s1.machine) return null;
  const delta = (a: number | null, b: number | null) => {
    const d = cpuBetween(a, b);
    return d === null ? null : tenths(d);
  };
  return {
    coreSeconds: tenths(s1.machine.cores * seconds),
    busy: tenths(s1.machine.busy - s0.machine.busy),
    collector: tenths(collectorCpuSeconds),
    simulator: delta(s0.simulator, s1.simulator),
    postgres: delta(s0.postgres, s1.postgres),
    steal: tenths(s1.machine.steal - s0.machine.steal),
  };
}

/** One line: the machine's core-seconds over the phase, how busy it was, and who used it ("–": not readable). */
export function describeMachine(c: MachineShares, cores: number, seconds: number): string {
  const other = c.simulator === null || c.postgres === null ? null : tenths(c.busy - c.collector - c.simulator - c.postgres);
  return (
    `${cores} cores × ${seconds.toFixed(1)} s = ${c.coreSeconds} core-seconds, ` +
    `${c.busy} busy (${Math.round((100 * c.busy) / c.coreSeconds)}%): the collector ${c.collector}, the simulator ${c.simulator ?? "–"}, ` +
    `PostgreSQL ${c.postgres ?? "–"}, anything else ${other ?? "–"}; ${c.steal} stolen by the hypervisor`
  );
}
