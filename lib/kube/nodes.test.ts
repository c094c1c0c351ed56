import { describe, expect, it } from "vitest";
import { applyKubeletReport } from "../simulator/kube/kubelets";
import { kubeletVersionCounts, sameNodeRecord, toNodeRecord, toNodeRecords } from "./nodes";

// Shapes as kube-apiserver 1.26 serves them and the node-lifecycle controller writes them (NodeStatusUnknown
// after the kubelet stops posting; KubeletNotReady when the kubelet itself reports not ready).
function makeNode(name: string, labels: Record<string, string>, ready: Record<string, string> | null, kubelet = "v1.34.2-eks-1a2b3c4") {
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, labels },
    status: {
      conditions: [
        { type: "MemoryPressure", status: "False", reason: "KubeletHasSufficientMemory", lastTransitionTime: "2026-11-20T08:00:00Z" },
        ...(ready ? [{ type: "Ready", lastHeartbeatTime: "2026-11-23T09:58:00Z", ...ready }] : []),
      ],
      nodeInfo: { kubeletVersion: kubelet },
    },
  };
}

const EKS_LABELS = {
  "eks.amazonaws.com/nodegroup": "general-2026",
  "eks.amazonaws.com/capacityType": "ON_DEMAND",
  "node.kubernetes.io/instance-type": "m6i.2xlarge",
};

describe("nodes as the collector keeps them", () => {
  it("a Ready node of an EKS managed node group", () => {
    const node = makeNode("ip-10-0-1-23.eu-west-1.compute.internal", EKS_LABELS, {
      status: "True",
      reason: "KubeletReady",
      message: "kubelet is posting ready status",
      lastTransitionTime: "2026-11-20T08:01:00Z",
    });
    expect(toNodeRecord(node)).toEqual({
      name: "ip-10-0-1-23.eu-west-1.compute.internal",
      nodeGroup: "general-2026",
      kubeletVersion: "v1.34.2-eks-1a2b3c4",
      readyStatus: "True",
      readyReason: "KubeletReady",
      readyMessage: "kubelet is posting ready status",
      readySince: "2026-11-20T08:01:00.000Z",
      capacityType: "ON_DEMAND",
      instanceType: "m6i.2xlarge",
    });
  });

  it("a node the kubelet stopped reporting for: Ready Unknown NodeStatusUnknown, since the transition", () => {
    const node = makeNode("ip-10-0-2-45.eu-west-1.compute.internal", EKS_LABELS, {
      status: "Unknown",
      reason: "NodeStatusUnknown",
      message: "Kubelet stopped posting node status.",
      lastTransitionTime: "2026-11-23T09:59:10Z",
    });
    expect(toNodeRecord(node)).toMatchObject({
      readyStatus: "Unknown",
      readyReason: "NodeStatusUnknown",
      readyMessage: "Kubelet stopped posting node status.",
      readySince: "2026-11-23T09:59:10.000Z",
    });
  });

  it("nodes outside managed node groups (Karpenter, self-managed) have no node group; Karpenter's capacity label is read", () => {
    const karpenter = makeNode(
      "ip-10-0-3-7.ec2.internal",
      { "karpenter.sh/nodepool": "default", "karpenter.sh/capacity-type": "spot", "beta.kubernetes.io/instance-type": "c7g.large" },
      { status: "False", reason: "KubeletNotReady", message: "container runtime network not ready", lastTransitionTime: "bad" },
    );
    expect(toNodeRecord(karpenter)).toMatchObject({
      nodeGroup: null,
      capacityType: "SPOT",
      instanceType: "c7g.large",
      readyStatus: "False",
      readySince: null,
    });
  });

  it("a node that never reported has no Ready condition; nameless items are dropped", () => {
    expect(toNodeRecord(makeNode("n1", {}, null, ""))).toMatchObject({ readyStatus: null, kubeletVersion: null, nodeGroup: null });
    expect(toNodeRecords([{ metadata: {} }, makeNode("n2", {}, null)]).map((n) => n.name)).toEqual(["n2"]);
  });
});

describe("kubeletVersionCounts", () => {
  it("counts nodes per kubelet version, leaving out nodes that report none", () => {
    const nodes = toNodeRecords([
      makeNode("a", {}, null, "v1.33.4-eks-1"),
      makeNode("b", {}, null, "v1.34.2-eks-2"),
      makeNode("c", {}, null, "v1.33.4-eks-1"),
      { metadata: { name: "d" }, status: {} },
    ]);
    expect(kubeletVersionCounts(nodes)).toEqual({ "v1.33.4-eks-1": 2, "v1.34.2-eks-2": 1 });
  });
});

describe("a node read again", () => {
  const ready = {
    status: "True",
    reason: "KubeletReady",
    message: "kubelet is posting ready status",
    lastTransitionTime: "2026-11-20T08:01:00Z",
  };
  const node = makeNode("ip-10-0-1-23.eu-west-1.compute.internal", EKS_LABELS, ready);

  it("is no news after a kubelet status report: only the heartbeats moved", () => {
    const reported = { ...node, status: applyKubeletReport(node, "2026-11-23T10:03:00Z") };
    expect(JSON.stringify(reported)).not.toBe(JSON.stringify(node));
    expect(sameNodeRecord(toNodeRecord(node)!, toNodeRecord(reported)!)).toBe(true);
  });

  it("is news when anything kept changes: every field of the record counts", () => {
    const record = toNodeRecord(node)!;
    for (const field of Object.keys(record) as (keyof typeof record)[]) {
      expect(sameNodeRecord(record, { ...record, [field]: `${record[field]}-changed` }), field).toBe(false);
    }
    const notReady = makeNode(node.metadata.name, EKS_LABELS, { ...ready, status: "False", reason: "KubeletNotReady" });
    expect(sameNodeRecord(record, toNodeRecord(notReady)!)).toBe(false);
  });
});
