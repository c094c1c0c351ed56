// Kubelet status reports: every kubelet patches its Node's status every nodeStatusReportFrequency even when
// nothing changed (kubelet's tryUpdateNodeStatus; the default is 5 minutes and the EKS AMIs' kubelet
// configs keep it), moving every condition's lastHeartbeatTime. Each report is one MODIFIED event for every
// Node watcher, a whole Node object that changes nothing a person looks at. A node whose kubelet stopped
// posting (its conditions Unknown, `NodeStatusUnknown`) reports nothing. Like the routine reconciles they
// belong to a live fleet and run with them; each node reports at a seed-fixed offset within the period.
import { hash32, iso } from "../fleet/random";
import type { KubeObject } from "../contract";
import type { ChurnCluster } from "./churn";
import type { ResourceType } from "./registry";
import { DueQueue } from "./due-queue";

export const NODE_STATUS_REPORT_MS = 5 * 60_000;

type Condition = Record<string, unknown>;

const conditionsOf = (object: KubeObject): Condition[] => {
  const status = object.status as { conditions?: unknown } | undefined;
  return Array.isArray(status?.conditions) ? (status.conditions as Condition[]) : [];
};

/** A kubelet that stopped posting (the node-lifecycle controller marked its conditions Unknown) reports nothing. */
export const kubeletSilent = (node: KubeObject) => conditionsOf(node).some((c) => c.type === "Ready" && c.reason === "NodeStatusUnknown");

/** The Node's status after a report at `at` (RFC 3339): each condition's heartbeat moves to it, never back. */
export function applyKubeletReport(node: KubeObject, at: string): Record<string, unknown> | undefined {
  const status = node.status as Record<string, unknown> | undefined;
  if (!status || kubeletSilent(node)) return status;
  const conditions = conditionsOf(node).map((c) =>
    typeof c.lastHeartbeatTime === "string" && c.lastHeartbeatTime >= at ? c : { ...c, lastHeartbeatTime: at },
  );
  return { ...status, conditions };
}

/** When a node's first report falls after `now`: its seed-fixed offset within the period. */
export function firstReportAt(now: number, seed: number, cluster: string, node: string, periodMs = NODE_STATUS_REPORT_MS): number {
  return now + (hash32(`${seed}:kubelet:${cluster}:${node}`) % periodMs);
}

interface Due {
  at: number;
  cluster: ChurnCluster;
  type: ResourceType;
  name: string;
}

export interface KubeletReportsState {
  enabled: boolean;
  /** Reports made (watch events) since the simulator started. */
  reports: number;
}

/** The fleet's kubelets (off until enabled): each reachable cluster's Nodes report every period. */
export class KubeletReports {
  private readonly due = new DueQueue<Due>();
  private readonly scheduled = new Set<string>();
  private scannedAt = 0;
  private enabled = false;
  private reports = 0;

  constructor(
    private readonly clusters: ChurnCluster[],
    private readonly seed: number,
    private readonly simNow: () => number,
    private readonly periodMs = NODE_STATUS_REPORT_MS,
  ) {}

  setEnabled(on: boolean): void {
    if (on === this.enabled) return;
    this.enabled = on;
    this.due.drain();
    this.scheduled.clear();
    if (on) this.schedule(this.simNow());
  }

  /** Schedules every reachable cluster's Nodes not scheduled yet (new ones join once a period). */
  private schedule(now: number) {
    this.scannedAt = now;
    for (const cluster of this.clusters) {
      if (!cluster.reachable()) continue;
      cluster.load();
      for (const { type, version } of cluster.store.versionsOfKinds(NODE_KIND)) {
        const key = `${cluster.name}|${version.name}`;
        if (this.scheduled.has(key)) continue;
        this.scheduled.add(key);
        this.due.push({ at: firstReportAt(now, this.seed, cluster.name, version.name, this.periodMs), cluster, type, name: version.name });
      }
    }
  }

  /** Makes the reports due by now; returns how many moved a heartbeat. */
  step(): number {
    if (!this.enabled) return 0;
    const now = this.simNow();
    if (now - this.scannedAt >= this.periodMs) this.schedule(now);
    let made = 0;
    // Next reports join the queue after this step: a node reports at most once a step, however far behind.
    const next: Due[] = [];
    for (let due = this.due.peek(); due && due.at <= now; due = this.due.peek()) {
      this.due.pop();
      if (!due.cluster.reachable()) {
        next.push({ ...due, at: due.at + this.periodMs });
        continue;
      }
      const node = due.cluster.store.find(due.type, undefined, due.name);
      if (!node) {
        // The node is gone (replaced in an upgrade): its kubelet with it.
        this.scheduled.delete(`${due.cluster.name}|${due.name}`);
        continue;
      }
      next.push({ ...due, at: due.at + this.periodMs });
      if (kubeletSilent(node.object)) continue;
      if (due.cluster.store.kubeletReport(due.type, due.name, iso(due.at))?.changed) made++;
    }
    for (const due of next) this.due.push(due);
    this.reports += made;
    return made;
  }

  state(): KubeletReportsState {
    return { enabled: this.enabled, reports: this.reports };
  }
}

const NODE_KIND: ReadonlySet<string> = new Set(["Node"]);
