// Where a machine's CPU went during a phase of the bench (Linux /proc): the whole machine's busy and stolen
// time, and the CPU of a process with all its descendants (PostgreSQL's postmaster and its backends). A
// 2-core machine that is busy the whole cold start cannot start faster however the collector is written;
// these figures say whether it was.
import { createHash } from "node:crypto";
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

/**
 * A /proc stat line's fields after the command name's closing parenthesis (the name may hold ") "), as
 * numbers: [state, ppid, …, utime at 11, stime at 12, cutime at 13, cstime at 14, …].
 */
function statFields(stat: string): number[] {
  return stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
}

/** /proc/<pid>/stat: parent, own and reaped CPU. */
export function parseProcessCpu(pidStat: string): ProcessCpu | null {
  const fields = statFields(pidStat);
  const [ppid, utime, stime, cutime, cstime] = [fields[1], fields[11], fields[12], fields[13], fields[14]];
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

/** A thread's name and user and system seconds, from /proc/<pid>/task/<tid>/stat (null: not a stat line). */
export function parseThreadCpu(taskStat: string): { name: string; user: number; system: number } | null {
  const open = taskStat.indexOf("(");
  const close = taskStat.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const [utime, stime] = statFields(taskStat).slice(11, 13);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return { name: taskStat.slice(open + 1, close), user: utime / TICKS, system: stime / TICKS };
}

/**
 * A process's CPU so far, user and system apart, for its main thread and for the others by name: where a
 * Node.js process's time goes (JavaScript on the main thread; V8's workers that collect garbage and libuv's
 * pool beside it). Empty when /proc cannot be read.
 */
export function threadCpu(pid: number | "self" = "self"): Map<string, { user: number; system: number }> {
  const out = new Map<string, { user: number; system: number }>();
  const mainTid = String(pid === "self" ? process.pid : pid);
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const t = parseThreadCpu(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8"));
        if (!t) continue;
        // Node.js's helper threads carry the process's name: the main thread (JavaScript) is told apart by its id.
        const name = tid === mainTid ? "main thread" : `other ${t.name} threads`;
        const sum = out.get(name) ?? { user: 0, system: 0 };
        sum.user += t.user;
        sum.system += t.system;
        out.set(name, sum);
      } catch {
        // ended between the listing and the read
      }
    }
  } catch {
    // not Linux, or the process is gone
  }
  return out;
}

/** Seconds per thread name between two threadCpu readings, busiest first, as "name user+system" (nothing: unreadable). */
export function describeThreadCpu(
  a: ReadonlyMap<string, { user: number; system: number }>,
  b: ReadonlyMap<string, { user: number; system: number }>,
  seconds: number,
): string {
  const rows = [...b]
    .map(([name, t]) => {
      const before = a.get(name) ?? { user: 0, system: 0 };
      return { name, user: t.user - before.user, system: t.system - before.system };
    })
    .filter((r) => r.user + r.system > 0)
    .sort((x, y) => y.user + y.system - (x.user + x.system));
  const cores = (s: number) => (s / seconds).toFixed(4);
  return rows.map((r) => `${r.name} ${cores(r.user)} user + ${cores(r.system)} system`).join(", ") || "not readable";
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

/**
 * CPU milliseconds a fixed piece of work takes (JSON and hashing, as a collector spends its time), best of
 * five. Within one run it compares the machine with itself at different moments: a slower reading is a
 * busier host or a lower clock, which makes every process of a phase cost more CPU, not just ours.
 */
export function speedProbeMs(): number {
  const doc = JSON.stringify(
    Array.from({ length: 2000 }, (_, i) => ({
      name: `object-${i}`,
      conditions: [{ type: "Ready", status: "True", message: `Applied revision: main@sha1:${i.toString(16).padStart(40, "0")}` }],
    })),
  );
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < 30; i++)
      createHash("sha256")
        .update(JSON.stringify(JSON.parse(doc)))
        .digest("hex");
    const cpu = process.cpuUsage(cpu0);
    best = Math.min(best, (cpu.user + cpu.system) / 1000);
  }
  return Math.round(best * 10) / 10;
}
