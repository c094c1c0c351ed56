// The Crossplane NodeGroups of every spoke Crossplane provisions, mirroring the same node groups the EKS API
// describes (versions.ts), in each provider's shape:
// - provider-aws `NodeGroup.eks.aws.crossplane.io/v1alpha1` (classic and composite spokes): scaling only
//   `desiredSize` observed, Ready False `Unavailable` while AWS says UPDATING;
// - Upbound `NodeGroup.eks.aws.upbound.io/v1beta2` (ClusterAuth spokes): `scalingConfig` an object (a
//   one-element list in v1beta1), `atProvider.id` `<cluster>:<nodegroup>`, Ready True during an upgrade.
// They are how Crow's Nest knows node groups of a cluster whose EKS API it may not call (the no-EKS-access spoke).
import type { KubeObject } from "../contract";
import { nextMinor } from "./catalogue";
import { meta, type ObjectIdentity } from "./flux";
import { UPBOUND_API, crossplaneConditions } from "./hub";
import { hex, iso, unit, uuid } from "./random";
import { DAY, MINUTE, TIMELINE } from "./timeline";
import type { SpokeSpec } from "./topology";
import { nodegroupsAt, type NodegroupState } from "./versions";

const CLASSIC_NODEGROUP_API = "eks.aws.crossplane.io/v1alpha1";

/** The NodeGroup resources of every Crossplane-provisioned spoke at relative time `rel`. */
export function crossplaneNodeGroups(id: ObjectIdentity, spokes: SpokeSpec[], epoch: number, rel: number): KubeObject[] {
  const out: KubeObject[] = [];
  for (const spec of spokes) {
    if (spec.provisioning !== "classic" && spec.provisioning !== "composite" && spec.provisioning !== "clusterauth") continue;
    for (const ng of nodegroupsAt(spec, rel)) {
      out.push(
        spec.provisioning === "clusterauth" ? upboundNodeGroup(id, spec, ng, epoch, rel) : classicNodeGroup(id, spec, ng, epoch, rel),
      );
    }
  }
  return out;
}

/** The same creation time as the spoke's Cluster resource (hub.ts), plus the time a node group takes. */
function createdAtOf(spec: SpokeSpec, epoch: number): number {
  return epoch - Math.floor((60 + unit(`created:${spec.name}`) * 500) * DAY) + 15 * MINUTE;
}

/** The version asked for: the next one while a scheduled node-group upgrade runs. */
function desiredVersion(spec: SpokeSpec, ng: NodegroupState, rel: number): string {
  const upgrading = spec.roles.includes("scheduled-upgrade") && rel >= TIMELINE.nodeGroupUpgradeStart && rel < TIMELINE.nodeGroupUpgradeEnd;
  return upgrading ? nextMinor(ng.version) : ng.version;
}

const subnets = (spec: SpokeSpec) => [0, 1, 2].map((i) => `subnet-0${hex(`subnet:${spec.name}:${i}`, 16)}`);

function classicNodeGroup(id: ObjectIdentity, spec: SpokeSpec, ng: NodegroupState, epoch: number, rel: number): KubeObject {
  const createdAt = createdAtOf(spec, epoch);
  const arnId = uuid(`ng:${spec.name}:${ng.name}`);
  const updating = ng.status === "UPDATING";
  const name = `${spec.name}-${ng.name}`;
  return {
    apiVersion: CLASSIC_NODEGROUP_API,
    kind: "NodeGroup",
    metadata: meta({ ...id, createdAt }, "ClassicNodeGroup", undefined, name, {
      generation: ng.version === spec.version ? 1 : 2,
      labels: { "crows-nest.io/cluster": spec.name },
      annotations: { "crossplane.io/external-name": ng.name, "crossplane.io/external-create-succeeded": iso(createdAt + 20_000) },
    }),
    spec: {
      deletionPolicy: "Delete",
      forProvider: {
        region: spec.region,
        clusterName: spec.name,
        ...(spec.provisioning === "classic" ? { clusterNameRef: { name: spec.name } } : {}),
        amiType: ng.amiType,
        capacityType: ng.capacityType,
        instanceTypes: [ng.instanceType],
        nodeRole: `arn:aws:iam::${spec.accountId}:role/eks-node-${spec.name}`,
        scalingConfig: { desiredSize: ng.desired, maxSize: ng.max, minSize: ng.min },
        subnets: subnets(spec),
        version: desiredVersion(spec, ng, rel),
      },
      providerConfigRef: { name: `aws-${spec.accountId}` },
      managementPolicies: ["*"],
    },
    status: {
      atProvider: {
        createdAt: iso(createdAt),
        modifiedAt: iso(epoch + ng.modifiedAt),
        nodeGroupArn: `arn:aws:eks:${spec.region}:${spec.accountId}:nodegroup/${spec.name}/${ng.name}/${arnId}`,
        nodeGroupHealth: {},
        releaseVersion: ng.releaseVersion,
        resources: { autoScalingGroup: [{ name: `eks-${ng.name}-${arnId}` }] },
        scalingConfig: { desiredSize: ng.desired },
        status: ng.status,
        version: ng.version,
      },
      // provider-aws: any AWS status but ACTIVE is Ready False Unavailable (an upgrade included).
      conditions: updating
        ? crossplaneConditions("False", "Unavailable", epoch + ng.modifiedAt)
        : crossplaneConditions("True", "Available", Math.max(createdAt + 4 * MINUTE, epoch + Math.min(ng.modifiedAt, rel))),
    },
  };
}

function upboundNodeGroup(id: ObjectIdentity, spec: SpokeSpec, ng: NodegroupState, epoch: number, rel: number): KubeObject {
  const createdAt = createdAtOf(spec, epoch);
  const arnId = uuid(`ng:${spec.name}:${ng.name}`);
  const name = `${spec.name}-${ng.name}`;
  return {
    apiVersion: UPBOUND_API,
    kind: "NodeGroup",
    metadata: meta({ ...id, createdAt }, "UpboundNodeGroup", undefined, name, {
      generation: 1,
      labels: { "crows-nest.io/cluster": spec.name },
      annotations: { "crossplane.io/external-name": ng.name },
    }),
    spec: {
      deletionPolicy: "Delete",
      forProvider: {
        region: spec.region,
        clusterName: spec.name,
        clusterNameRef: { name: spec.name },
        amiType: ng.amiType,
        capacityType: ng.capacityType,
        instanceTypes: [ng.instanceType],
        nodeRoleArn: `arn:aws:iam::${spec.accountId}:role/eks-node-${spec.name}`,
        scalingConfig: { desiredSize: ng.desired, maxSize: ng.max, minSize: ng.min },
        subnetIds: subnets(spec),
        version: desiredVersion(spec, ng, rel),
      },
      providerConfigRef: { name: `aws-${spec.accountId}` },
      managementPolicies: ["*"],
    },
    status: {
      atProvider: {
        amiType: ng.amiType,
        arn: `arn:aws:eks:${spec.region}:${spec.accountId}:nodegroup/${spec.name}/${ng.name}/${arnId}`,
        capacityType: ng.capacityType,
        clusterName: spec.name,
        diskSize: 20,
        id: `${spec.name}:${ng.name}`,
        instanceTypes: [ng.instanceType],
        nodeRoleArn: `arn:aws:iam::${spec.accountId}:role/eks-node-${spec.name}`,
        region: spec.region,
        releaseVersion: ng.releaseVersion,
        resources: [{ autoscalingGroups: [{ name: `eks-${ng.name}-${arnId}` }] }],
        scalingConfig: { desiredSize: ng.desired, maxSize: ng.max, minSize: ng.min },
        status: ng.status,
        subnetIds: subnets(spec),
        version: ng.version,
      },
      conditions: crossplaneConditions("True", "Available", createdAt + 4 * MINUTE),
    },
  };
}
