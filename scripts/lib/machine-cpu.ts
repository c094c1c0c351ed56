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
