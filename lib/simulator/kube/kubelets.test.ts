// The kubelets' periodic Node status reports: one MODIFIED event per node per period, moving only heartbeats.
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../contract";
import type { ChurnCluster } from "./churn";
import { applyKubeletReport, firstReportAt, KubeletReports, NODE_STATUS_REPORT_MS } from "./kubelets";
import type { ManagedFieldsEntry } from "./managed-fields";
import { ClusterStore, type StoreEvent } from "./store";

const T0 = Date.parse("2026-11-23T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

function node(name: string, silent = false): KubeObject {
  const at = iso(T0 - 3_600_000);
  const condition = (type: string, status: string, reason: string) => ({
    type,
    status: silent ? "Unknown" : status,
    reason: silent ? "NodeStatusUnknown" : reason,
    message: silent ? "Kubelet stopped posting node status." : `${reason}`,
    lastHeartbeatTime: at,
    lastTransitionTime: at,
  });
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, labels: { "kubernetes.io/hostname": name } },
    spec: { providerID: `aws:///us-east-1a/i-${name}` },
    status: {
      conditions: [condition("MemoryPressure", "False", "KubeletHasSufficientMemory"), condition("Ready", "True", "KubeletReady")],
      nodeInfo: { kubeletVersion: "v1.33.4-eks-1" },
    },
  };
}

function fleetOf(nodes: KubeObject[]) {
  const store = new ClusterStore("spoke-1", undefined, 100);
  store.sync(nodes, T0);
  let reachable = true;
  const cluster: ChurnCluster = { name: "spoke-1", store, reachable: () => reachable, load: () => undefined };
  let now = T0;
  const kubelets = new KubeletReports([cluster], 7, () => now);
  const events: StoreEvent[] = [];
  store.subscribe((event) => events.push(event));
  const type = store.registry.lookup("", "v1", "nodes")!;
  return {
    store,
    type,
    kubelets,
    events,
    advance: (ms: number) => {
      now += ms;
      return kubelets.step();
    },
    setReachable: (on: boolean) => (reachable = on),
  };
}

const heartbeats = (object: KubeObject) =>
  (object.status as { conditions: { lastHeartbeatTime: string }[] }).conditions.map((c) => c.lastHeartbeatTime);

describe("applyKubeletReport", () => {
  it("moves every condition's heartbeat to the report, never back, and leaves everything else", () => {
    const before = node("a");
    const status = applyKubeletReport(before, iso(T0))!;
    expect(heartbeats({ ...before, status })).toEqual([iso(T0), iso(T0)]);
    const { conditions: _a, ...rest } = status;
    const { conditions: _b, ...restBefore } = before.status as Record<string, unknown>;
    expect(rest).toEqual(restBefore);
    expect(heartbeats({ ...before, status: applyKubeletReport({ ...before, status }, iso(T0 - 60_000)) })).toEqual([iso(T0), iso(T0)]);
  });

  it("leaves a node whose kubelet stopped posting as the node-lifecycle controller left it", () => {
    const silent = node("gone", true);
    expect(applyKubeletReport(silent, iso(T0))).toBe(silent.status);
  });

  it("spreads first reports over the period, the same in every run", () => {
    const offsets = ["a", "b", "c", "d"].map((n) => firstReportAt(T0, 7, "spoke-1", n) - T0);
    for (const offset of offsets) {
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(NODE_STATUS_REPORT_MS);
    }
    expect(new Set(offsets).size).toBe(4);
    expect(firstReportAt(T0, 7, "spoke-1", "a")).toBe(T0 + offsets[0]);
  });
});

describe("KubeletReports", () => {
  it("reports each node once a period: one MODIFIED event that moves its heartbeats and the kubelet's status entry", () => {
    const fleet = fleetOf([node("a"), node("b")]);
    fleet.kubelets.setEnabled(true);
    expect(fleet.advance(NODE_STATUS_REPORT_MS)).toBe(2);
    expect(fleet.events.map((e) => [e.type, e.version.name]).sort()).toEqual([
      ["MODIFIED", "a"],
      ["MODIFIED", "b"],
    ]);
    const a = fleet.store.get(fleet.type, undefined, "a").object;
    const due = firstReportAt(T0, 7, "spoke-1", "a");
    expect(heartbeats(a)).toEqual([iso(due), iso(due)]);
    const report = (a.metadata.managedFields as ManagedFieldsEntry[]).find((e) => e.subresource === "status")!;
    expect(report).toMatchObject({ manager: "kubelet", time: iso(due) });
    expect(fleet.advance(NODE_STATUS_REPORT_MS / 2)).toBeLessThanOrEqual(2);
    expect(fleet.advance(NODE_STATUS_REPORT_MS / 2)).toBeGreaterThanOrEqual(0);
    expect(fleet.events.length).toBe(4);
    expect(fleet.kubelets.state()).toEqual({ enabled: true, reports: 4 });
  });

  it("sends nothing for a silent kubelet, an unreachable cluster, a node gone, or while off", () => {
    const fleet = fleetOf([node("silent", true), node("a")]);
    fleet.kubelets.setEnabled(true);
    fleet.setReachable(false);
    expect(fleet.advance(NODE_STATUS_REPORT_MS)).toBe(0);
    fleet.setReachable(true);
    expect(fleet.advance(NODE_STATUS_REPORT_MS)).toBe(1);
    expect(fleet.events.map((e) => e.version.name)).toEqual(["a"]);
    fleet.store.sync([node("silent", true)], T0);
    const events = fleet.events.length;
    expect(fleet.advance(NODE_STATUS_REPORT_MS)).toBe(0);
    expect(fleet.events.length).toBe(events);
    fleet.kubelets.setEnabled(false);
    fleet.store.sync([node("silent", true), node("b")], T0);
    expect(fleet.advance(NODE_STATUS_REPORT_MS)).toBe(0);
  });

  it("schedules nodes that join later (a node group's new nodes) within a period", () => {
    const fleet = fleetOf([node("a")]);
    fleet.kubelets.setEnabled(true);
    fleet.advance(NODE_STATUS_REPORT_MS);
    fleet.store.sync([node("a"), node("new")], T0);
    fleet.advance(NODE_STATUS_REPORT_MS);
    fleet.advance(NODE_STATUS_REPORT_MS);
    expect(fleet.events.some((e) => e.type === "MODIFIED" && e.version.name === "new")).toBe(true);
  });
});
