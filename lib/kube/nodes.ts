// Nodes as the collector keeps them: node group from the EKS label, kubelet version, the Ready condition
// (Unknown when the node-lifecycle controller stopped hearing from the kubelet, False when the kubelet says
// it is not ready) with the time it last changed. Pure, so a list or a watch can feed it alike.
import type { NodeRecord } from "./types";
import { obj, records, type Raw, str } from "./raw";

/** The EKS managed node group label (self-managed, Karpenter and Fargate nodes have none). */
export const NODE_GROUP_LABEL = "eks.amazonaws.com/nodegroup";

function isoOrNull(text: unknown): string | null {
  const s = str(text);
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

export function toNodeRecord(raw: Raw): NodeRecord | null {
  const metadata = obj(raw.metadata);
  const name = str(metadata.name);
  if (!name) return null;
  const labels = obj(metadata.labels);
  const status = obj(raw.status);
  const ready = records(status.conditions).find((c) => c.type === "Ready");
  const karpenterCapacity = str(labels["karpenter.sh/capacity-type"]);
  return {
    name,
    nodeGroup: str(labels[NODE_GROUP_LABEL]),
    kubeletVersion: str(obj(status.nodeInfo).kubeletVersion),
    readyStatus: ready ? str(ready.status) : null,
    readyReason: ready ? str(ready.reason) : null,
    readyMessage: ready ? str(ready.message) : null,
    readySince: ready ? isoOrNull(ready.lastTransitionTime) : null,
    capacityType:
      str(labels["eks.amazonaws.com/capacityType"]) ?? (karpenterCapacity ? karpenterCapacity.toUpperCase().replace("-", "_") : null),
    instanceType: str(labels["node.kubernetes.io/instance-type"]) ?? str(labels["beta.kubernetes.io/instance-type"]),
  };
}

const NODE_FIELDS: readonly (keyof NodeRecord)[] = [
  "name",
  "nodeGroup",
  "kubeletVersion",
  "readyStatus",
  "readyReason",
  "readyMessage",
  "readySince",
  "capacityType",
  "instanceType",
];

/**
 * Whether two readings of a node show the same thing. A kubelet re-posts its node's status every five
 * minutes (nodeStatusReportFrequency) with nothing changed but each condition's heartbeat: a watch
 * delivers that whole Node, and it is no news.
 */
export function sameNodeRecord(a: NodeRecord, b: NodeRecord): boolean {
  return NODE_FIELDS.every((field) => a[field] === b[field]);
}

export function toNodeRecords(items: Raw[]): NodeRecord[] {
  return items.map(toNodeRecord).filter((n): n is NodeRecord => n !== null);
}

/** Nodes per kubelet version, e.g. { "v1.33.4-eks-1": 3 }. */
export function kubeletVersionCounts(nodes: readonly NodeRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of nodes) if (n.kubeletVersion) out[n.kubeletVersion] = (out[n.kubeletVersion] ?? 0) + 1;
  return out;
}
