// A node that stops reporting, as the node-lifecycle controller records it (Kubernetes 1.26+):
// after the grace period Ready, MemoryPressure, DiskPressure and PIDPressure turn `Unknown`
// `NodeStatusUnknown` "Kubelet stopped posting node status." (new lastTransitionTime, lastHeartbeatTime
// left at the kubelet's last one), the `node.kubernetes.io/unreachable` taints are added, and a Normal
// `NodeNotReady` Event from `node-controller` is stored in namespace `default`. When the kubelet comes
// back it posts Ready True `KubeletReady` and records Normal `NodeReady` itself (involvedObject.uid = the
// node's name, source.host = the node).
import type { KubeObject } from "../contract";
import { clusterScopedEvent } from "./cluster-events";
import type { ObjectIdentity } from "./flux";
import { iso } from "./random";
import { MINUTE, SECOND } from "./timeline";
import type { SpokeSpec } from "./topology";

/** Relative to t0: NotReady already at t0 (since t0 − 4 min), back at 20:00. */
export const NOT_READY_NODE = { since: -4 * MINUTE, until: 20 * MINUTE } as const;
/** node-lifecycle controller's grace period before it marks a silent node Unknown (1.26 default). */
const GRACE = 40 * SECOND;

interface NodeCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

/** The node that stops reporting: the first node of the spoke's `system` node group. */
export function notReadyNodeName(objects: KubeObject[]): string | undefined {
  return objects.find((o) => o.kind === "Node" && o.metadata.labels?.["eks.amazonaws.com/nodegroup"] === "system")?.metadata.name;
}

/**
 * Rewrites the node of a `not-ready-node` spoke as it is at time t and adds its Events (pushed to `events`).
 * Other spokes are left alone.
 */
export function applyNodeScenarios(
  objects: KubeObject[],
  spec: SpokeSpec,
  id: ObjectIdentity,
  epoch: number,
  t: number,
  events: KubeObject[],
) {
  if (!spec.roles.includes("not-ready-node")) return;
  const name = notReadyNodeName(objects);
  const node = objects.find((o) => o.kind === "Node" && o.metadata.name === name);
  if (!node) return;
  const rel = t - epoch;
  const lastHeartbeat = epoch + NOT_READY_NODE.since - GRACE;
  const since = epoch + NOT_READY_NODE.since;
  const back = epoch + NOT_READY_NODE.until;
  if (rel < NOT_READY_NODE.since) return;
  const status = node.status as { conditions: NodeCondition[] };
  const notReady = rel < NOT_READY_NODE.until;
  status.conditions = status.conditions.map((c) => {
    if (notReady) {
      const message = "Kubelet stopped posting node status.";
      return {
        type: c.type,
        status: "Unknown",
        reason: "NodeStatusUnknown",
        message,
        lastHeartbeatTime: iso(lastHeartbeat),
        lastTransitionTime: iso(since),
      };
    }
    if (c.type === "Ready") {
      return {
        ...c,
        status: "True",
        reason: "KubeletReady",
        message: "kubelet is posting ready status",
        lastHeartbeatTime: iso(back),
        lastTransitionTime: iso(back),
      };
    }
    return { ...c, lastHeartbeatTime: iso(back), lastTransitionTime: iso(back) };
  });
  if (notReady) {
    (node.spec as Record<string, unknown>).taints = [
      { key: "node.kubernetes.io/unreachable", effect: "NoSchedule", timeAdded: iso(since) },
      { key: "node.kubernetes.io/unreachable", effect: "NoExecute", timeAdded: iso(since + 5 * SECOND) },
    ];
  }
  events.push(
    clusterScopedEvent({
      id,
      involved: node,
      reason: "NodeNotReady",
      message: `Node ${node.metadata.name} status is now: NodeNotReady`,
      type: "Normal",
      controller: "node-controller",
      first: since,
      last: since,
      count: 1,
    }),
  );
  if (!notReady) {
    events.push(
      clusterScopedEvent({
        id,
        involved: node,
        reason: "NodeReady",
        message: `Node ${node.metadata.name} status is now: NodeReady`,
        type: "Normal",
        controller: "kubelet",
        host: node.metadata.name,
        involvedUid: node.metadata.name,
        first: back,
        last: back,
        count: 1,
      }),
    );
  }
}
