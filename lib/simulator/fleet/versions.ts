// Kubernetes versions of a spoke over time: control plane, node groups and managed add-ons. One source for
// the Kubernetes side (/version, Node kubeletVersion, cluster-info) and the EKS API side (DescribeCluster,
// DescribeNodegroup, DescribeAddon), so both always agree.
import { MANAGED_ADDONS, eksVersion, nextMinor, previousMinor } from "./catalogue";
import { hex, unit } from "./random";
import { TIMELINE } from "./timeline";
import type { ScenarioRole, SpokeSpec } from "./topology";

export type ClusterStatus = "ACTIVE" | "UPDATING";
export type NodegroupStatus = "ACTIVE" | "UPDATING";

export interface NodegroupPlan {
  name: string;
  amiType: string;
  instanceType: string;
  arch: "amd64" | "arm64";
  osImage: string;
  desired: number;
  min: number;
  max: number;
  capacityType: "ON_DEMAND" | "SPOT";
}

export interface NodegroupState extends NodegroupPlan {
  version: string;
  releaseVersion: string;
  status: NodegroupStatus;
  /** changes whenever nodes are replaced (names of Nodes derive from it) */
  generationKey: string;
  modifiedAt: number;
}

export interface ControlPlaneState {
  version: string;
  platformVersion: string;
  status: ClusterStatus;
  /** e.g. v1.33.7-eks-3025e55 */
  gitVersion: string;
  /** when version last changed (relative ms), for version history */
  versionSince: number;
}

export function gitVersionOf(minor: string): string {
  const info = eksVersion(minor);
  return `v${info.patch}-eks-${info.buildSuffix}`;
}

/** Version history moves only for the scheduled-upgrade spoke. */
export function controlPlaneAt(spec: SpokeSpec, rel: number): ControlPlaneState {
  let version = spec.version;
  let status: ClusterStatus = "ACTIVE";
  let versionSince = -200 * 86_400_000;
  if (spec.roles.includes("scheduled-upgrade")) {
    if (rel >= TIMELINE.controlPlaneUpgradeEnd) {
      version = nextMinor(spec.version);
      versionSince = TIMELINE.controlPlaneUpgradeEnd;
    } else if (rel >= TIMELINE.controlPlaneUpgradeStart) {
      status = "UPDATING";
    }
  }
  if (spec.roles.includes("node-group-skew")) versionSince = -2 * 86_400_000;
  const info = eksVersion(version);
  return { version, platformVersion: info.platformVersion, status, gitVersion: gitVersionOf(version), versionSince };
}

export function nodegroupPlans(spec: SpokeSpec): NodegroupPlan[] {
  // Old clusters kept their Amazon Linux 2 node groups, as far as EKS publishes AL2 AMIs (up to 1.32).
  const legacyAl2 =
    ["extended-support", "past-extended-support", "removed-api"].some((role) => spec.roles.includes(role as ScenarioRole)) &&
    Number(spec.version.split(".")[1]) <= 32;
  const system: NodegroupPlan = {
    name: "system",
    amiType: legacyAl2 ? "AL2_x86_64" : "AL2023_x86_64_STANDARD",
    instanceType: "m6i.large",
    arch: "amd64",
    osImage: legacyAl2 ? "Amazon Linux 2" : "Amazon Linux 2023.9.20261110",
    desired: 2,
    min: 2,
    max: 4,
    capacityType: "ON_DEMAND",
  };
  const workersCount = 2 + Math.floor(unit(`workers:${spec.name}`) * 4);
  const workers: NodegroupPlan = {
    name: spec.roles.includes("node-group-skew") ? "batch" : "workers",
    amiType: legacyAl2 ? "AL2_x86_64" : unit(`arch:${spec.name}`) < 0.5 ? "AL2023_ARM_64_STANDARD" : "BOTTLEROCKET_x86_64",
    instanceType: "",
    arch: "amd64",
    osImage: "",
    desired: workersCount,
    min: 1,
    max: 10,
    capacityType: unit(`spot:${spec.name}`) < 0.3 ? "SPOT" : "ON_DEMAND",
  };
  if (workers.amiType === "AL2023_ARM_64_STANDARD") {
    workers.instanceType = "m7g.xlarge";
    workers.arch = "arm64";
    workers.osImage = "Amazon Linux 2023.9.20261110";
  } else if (workers.amiType === "BOTTLEROCKET_x86_64") {
    workers.instanceType = "c6i.2xlarge";
    workers.osImage = "Bottlerocket OS 1.49.0 (aws-k8s-" + spec.version + ")";
  } else {
    workers.instanceType = "m5.xlarge";
    workers.osImage = "Amazon Linux 2";
  }
  return [system, workers];
}

function releaseVersionOf(minor: string, amiType: string): string {
  const info = eksVersion(minor);
  if (amiType.startsWith("BOTTLEROCKET")) return "1.49.0-7d5b2c1a";
  return `${info.patch}-${info.amiRelease}`;
}

export function nodegroupsAt(spec: SpokeSpec, rel: number): NodegroupState[] {
  return nodegroupPlans(spec).map((plan) => {
    let version = spec.version;
    let status: NodegroupStatus = "ACTIVE";
    let modifiedAt = -20 * 86_400_000;
    if (spec.roles.includes("scheduled-upgrade")) {
      if (rel >= TIMELINE.nodeGroupUpgradeEnd) {
        version = nextMinor(spec.version);
        modifiedAt = TIMELINE.nodeGroupUpgradeEnd;
      } else if (rel >= TIMELINE.nodeGroupUpgradeStart) {
        status = "UPDATING";
        modifiedAt = TIMELINE.nodeGroupUpgradeStart;
      }
    }
    if (spec.roles.includes("node-group-skew") && plan.name === "batch") {
      // Mid-upgrade from N to N+1: the control plane is already on N+1 (spec.version), this group is still
      // on N-1, two minors behind (within the kubelet skew policy, but it blocks the next upgrade), rolling.
      version = previousMinor(previousMinor(spec.version));
      status = "UPDATING";
      modifiedAt = -40 * 60_000;
    }
    const osImage = plan.osImage.replace(/aws-k8s-[0-9.]+/, `aws-k8s-${version}`);
    return {
      ...plan,
      osImage,
      version,
      releaseVersion: releaseVersionOf(version, plan.amiType),
      status,
      generationKey: `${plan.name}:${version}`,
      modifiedAt,
    };
  });
}

export interface ManagedAddonState {
  name: string;
  version: string;
  status: "ACTIVE" | "DEGRADED" | "UPDATING";
  issues: { code: string; message: string; resourceIds: string[] }[];
}

export function managedAddonsAt(spec: SpokeSpec, rel: number): ManagedAddonState[] {
  const cp = controlPlaneAt(spec, rel);
  const nodeMinor = spec.roles.includes("scheduled-upgrade") && rel < TIMELINE.nodeGroupUpgradeEnd ? spec.version : cp.version;
  return MANAGED_ADDONS.map((addon) => {
    // kube-proxy follows the node version, so a cluster mid-upgrade shows the skew.
    const minor =
      addon.name === "kube-proxy" && spec.roles.includes("node-group-skew")
        ? previousMinor(cp.version)
        : addon.name === "kube-proxy"
          ? nodeMinor
          : cp.version;
    const versions = addon.versions[minor];
    const behind = unit(`addon:${spec.name}:${addon.name}`) < 0.35 ? 1 : 0;
    const version = versions[Math.min(behind, versions.length - 1)];
    return { name: addon.name, version, status: "ACTIVE", issues: [] };
  });
}

export function nodeNames(spec: SpokeSpec, ng: NodegroupState, seed: number): string[] {
  const suffix = spec.region === "us-east-1" ? "ec2.internal" : `${spec.region}.compute.internal`;
  const names: string[] = [];
  for (let i = 0; i < ng.desired; i++) {
    const h = hex(`${seed}:node:${spec.name}:${ng.generationKey}:${i}`, 6);
    const a = parseInt(h.slice(0, 2), 16) % 64;
    const c = 1 + (parseInt(h.slice(4, 6), 16) % 254);
    // The third octet carries the node's position so names within a group never collide.
    names.push(`ip-10-${40 + (spec.index % 150)}-${(a + i * 64) % 256}-${c}.${suffix}`);
  }
  return names;
}
