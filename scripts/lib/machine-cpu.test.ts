import { describe, expect, it } from "vitest";
import {
  cpuBetween,
  describeMachine,
  describeThreadCpu,
  machineBetween,
  parseMachineCpu,
  parseProcessCpu,
  parseThreadCpu,
  speedProbeMs,
  threadCpu,
  treeCpuSeconds,
  type ProcessCpu,
} from "./machine-cpu";
import { processCpuSeconds } from "./processes";

describe("machine CPU", () => {
  it("reads busy and stolen time and the cores from /proc/stat", () => {
    const stat = [
      "cpu  1000 50 300 9000 20 5 15 40 0 0",
      "cpu0 500 25 150 4500 10 3 7 20 0 0",
      "cpu1 500 25 150 4500 10 2 8 20 0 0",
      "intr 12345",
    ].join("\n");
    expect(parseMachineCpu(stat)).toEqual({ cores: 2, busy: 13.7, steal: 0.4 });
    expect(parseMachineCpu("garbage")).toBeNull();
  });

  it("reads a process's own and reaped CPU, whatever its command name holds", () => {
    // Field 2 is the command in parentheses, which may itself hold ") " and spaces.
    const stat = "4242 (postgres: a) b) S 4200 4242 4242 0 -1 4194560 100 0 0 0 250 50 30 20 20 0 1 0 123 456 789";
    expect(parseProcessCpu(stat)).toEqual({ ppid: 4200, own: 3, reaped: 0.5 });
  });

  it("sums a process with its living descendants and what they reaped, each ended process once", () => {
    const p = (ppid: number, own: number, reaped = 0): ProcessCpu => ({ ppid, own, reaped });
    const processes = new Map([
      [1, p(0, 100)],
      [10, p(1, 2, 7)], // the postmaster: ended backends' 7 s are in its reaped time
      [11, p(10, 3)],
      [12, p(10, 4)],
      [13, p(12, 1)],
      [20, p(1, 50)], // not ours
    ]);
    expect(treeCpuSeconds(10, processes)).toBe(2 + 7 + 3 + 4 + 1);
    expect(treeCpuSeconds(99, processes)).toBeNull();
  });

  it("reads a process's CPU, and says it cannot rather than answer 0", () => {
    expect(processCpuSeconds(process.pid)).toBeGreaterThan(0);
    expect(processCpuSeconds(2 ** 22 + 1)).toBeNull();
    expect(processCpuSeconds(undefined)).toBeNull();
    expect(cpuBetween(1.5, 4)).toBe(2.5);
    expect(cpuBetween(null, 4)).toBeNull();
    expect(cpuBetween(1.5, null)).toBeNull();
  });

  it("shares a phase's core-seconds between the collector, the simulator, PostgreSQL and the rest", () => {
    const before = { machine: { cores: 2, busy: 100, steal: 1 }, simulator: 10, postgres: 20 };
    const after = { machine: { cores: 2, busy: 190.04, steal: 1.5 }, simulator: 35.06, postgres: 40 };
    const shares = machineBetween(before, after, 50, 40.02)!;
    expect(shares).toEqual({ coreSeconds: 100, busy: 90, collector: 40, simulator: 25.1, postgres: 20, steal: 0.5 });
    expect(describeMachine(shares, 2, 50)).toBe(
      "2 cores × 50.0 s = 100 core-seconds, 90 busy (90%): the collector 40, the simulator 25.1, PostgreSQL 20, " +
        "anything else 4.9; 0.5 stolen by the hypervisor",
    );
  });

  it("leaves a share it could not read unknown, and the rest with it", () => {
    const before = { machine: { cores: 2, busy: 100, steal: 0 }, simulator: null, postgres: 20 };
    const after = { machine: { cores: 2, busy: 150, steal: 0 }, simulator: 30, postgres: 40 };
    const shares = machineBetween(before, after, 30, 20)!;
    expect(shares.simulator).toBeNull();
    expect(describeMachine(shares, 2, 30)).toContain("the simulator –, PostgreSQL 20, anything else –;");
    expect(machineBetween({ ...before, machine: null }, after, 30, 20)).toBeNull();
  });

  it("reads each thread's user and system time, and sums threads of one name", () => {
    const stat = "77 (V8 DefaultWorke) S 1 77 77 0 -1 0 0 0 0 0 120 30 0 0 20 0 9 0 1 2 3";
    expect(parseThreadCpu(stat)).toEqual({ name: "V8 DefaultWorke", user: 1.2, system: 0.3 });
    expect(parseThreadCpu("garbage")).toBeNull();
    const own = threadCpu();
    expect(own.get("main thread")!.user).toBeGreaterThan(0);
    expect(threadCpu(2 ** 22 + 1).size).toBe(0);
    const before = new Map([["node", { user: 1, system: 0.5 }]]);
    const after = new Map([
      ["node", { user: 3, system: 1.5 }],
      ["V8 DefaultWorke", { user: 0.5, system: 0 }],
      ["libuv-worker", { user: 0, system: 0 }],
    ]);
    expect(describeThreadCpu(before, after, 10)).toBe("node 0.2000 user + 0.1000 system, V8 DefaultWorke 0.0500 user + 0.0000 system");
    expect(describeThreadCpu(new Map(), new Map(), 10)).toBe("not readable");
  });

  it("times its fixed piece of work in CPU milliseconds, the same work each time", () => {
    const a = speedProbeMs();
    const b = speedProbeMs();
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    // Best of five on one machine a moment apart: the same order of magnitude, whatever the machine.
    expect(Math.max(a, b) / Math.min(a, b)).toBeLessThan(10);
  });
});
