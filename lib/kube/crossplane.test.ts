import { describe, expect, it } from "vitest";
import { toCrossplaneNodeGroup, toProvisioningRecord } from "./crossplane";

// Field names and shapes from the CRDs (provider-aws v0.58.0, provider-upjet-aws v2.6.0): Upbound nests
// Terraform blocks as one-element lists in v1beta1 and as objects in v1beta2 (the storage version).
const classicCreating = {
  apiVersion: "eks.aws.crossplane.io/v1beta1",
  kind: "Cluster",
  metadata: {
    name: "dev-use1-sandbox",
    creationTimestamp: "2026-11-23T09:54:00Z",
    annotations: { "crossplane.io/external-name": "dev-use1-sandbox" },
  },
  spec: {
    forProvider: { region: "us-east-1", version: "1.35", resourcesVpcConfig: { subnetIds: ["subnet-1", "subnet-2"] } },
    writeConnectionSecretToRef: { namespace: "crossplane-system", name: "dev-use1-sandbox-conn" },
  },
  status: {
    atProvider: {
      arn: "arn:aws:eks:us-east-1:456789012345:cluster/dev-use1-sandbox",
      status: "CREATING",
      version: "1.35",
      platformVersion: "eks.9",
    },
    conditions: [
      { type: "Ready", status: "False", reason: "Creating", lastTransitionTime: "2026-11-23T09:54:08Z" },
      { type: "Synced", status: "True", reason: "ReconcileSuccess", lastTransitionTime: "2026-11-23T09:54:08Z" },
    ],
  },
};

const upboundCluster = (version: "v1beta1" | "v1beta2") => ({
  apiVersion: `eks.aws.upbound.io/${version}`,
  kind: "Cluster",
  metadata: { name: "staging-use1-002", annotations: { "crossplane.io/external-name": "staging-use1-002" } },
  spec: {
    forProvider: {
      region: "us-east-1",
      version: "1.35",
      vpcConfig: version === "v1beta1" ? [{ subnetIds: ["subnet-1"] }] : { subnetIds: ["subnet-1"] },
      upgradePolicy: version === "v1beta1" ? [{ supportType: "STANDARD" }] : { supportType: "STANDARD" },
    },
  },
  status: {
    atProvider: {
      arn: "arn:aws:eks:us-east-1:345678901234:cluster/staging-use1-002",
      id: "staging-use1-002",
      version: "1.34",
      platformVersion: "eks.12",
      status: "ACTIVE",
      endpoint: "https://ABC.gr7.us-east-1.eks.amazonaws.com",
      upgradePolicy: version === "v1beta1" ? [{ supportType: "EXTENDED" }] : { supportType: "EXTENDED" },
      vpcConfig: version === "v1beta1" ? [{ vpcId: "vpc-1" }] : { vpcId: "vpc-1" },
    },
    conditions: [{ type: "Ready", status: "True", reason: "Available", lastTransitionTime: "2026-10-01T00:00:00Z" }],
  },
});

describe("Crossplane Clusters: the EKS facts they carry", () => {
  it("a classic Cluster being created: desired version, atProvider facts, conditions", () => {
    expect(toProvisioningRecord(classicCreating)).toMatchObject({
      kind: "Cluster",
      name: "dev-use1-sandbox",
      eksName: "dev-use1-sandbox",
      region: "us-east-1",
      ready: "False",
      readyReason: "Creating",
      synced: "True",
      createdAt: "2026-11-23T09:54:00Z",
      desiredVersion: "1.35",
      eksArn: "arn:aws:eks:us-east-1:456789012345:cluster/dev-use1-sandbox",
      version: "1.35",
      platformVersion: "eks.9",
      eksStatus: "CREATING",
      supportType: null,
      secretNamespace: "crossplane-system",
      secretName: "dev-use1-sandbox-conn",
      secret: null,
    });
  });

  it.each(["v1beta1", "v1beta2"] as const)("an Upbound Cluster read at %s: the same facts from lists or objects", (version) => {
    expect(toProvisioningRecord(upboundCluster(version))).toMatchObject({
      desiredVersion: "1.35",
      version: "1.34",
      platformVersion: "eks.12",
      eksStatus: "ACTIVE",
      eksArn: "arn:aws:eks:us-east-1:345678901234:cluster/staging-use1-002",
      supportType: "EXTENDED",
    });
  });

  it("upjet leaves atProvider empty while it creates: nothing observed, only what is asked for", () => {
    const creating = {
      ...upboundCluster("v1beta2"),
      status: { atProvider: {}, conditions: [{ type: "Ready", status: "False", reason: "Creating" }] },
    };
    expect(toProvisioningRecord(creating)).toMatchObject({
      desiredVersion: "1.35",
      version: null,
      eksArn: null,
      eksStatus: null,
      supportType: "STANDARD",
    });
  });

  it("a ClusterAuth carries no EKS facts (its atProvider is the token refresh time)", () => {
    const auth = {
      apiVersion: "eks.aws.upbound.io/v1beta1",
      kind: "ClusterAuth",
      metadata: { name: "x" },
      spec: {
        forProvider: { clusterName: "x", region: "us-east-1" },
        writeConnectionSecretToRef: { namespace: "flux-system", name: "x-kubeconfig" },
      },
      status: { atProvider: { lastRefreshTime: "2026-11-23T09:50:00Z" } },
    };
    expect(toProvisioningRecord(auth)).toMatchObject({ eksName: "x", desiredVersion: null, version: null, eksArn: null });
  });
});

describe("Crossplane NodeGroups of both providers", () => {
  it("provider-aws v1alpha1: scaling only desiredSize observed, the rest from forProvider", () => {
    const ng = {
      apiVersion: "eks.aws.crossplane.io/v1alpha1",
      kind: "NodeGroup",
      metadata: { name: "prod-use1-001-system", annotations: { "crossplane.io/external-name": "system" } },
      spec: {
        forProvider: {
          region: "us-east-1",
          clusterName: "prod-use1-001",
          clusterNameRef: { name: "prod-use1-001" },
          capacityType: "ON_DEMAND",
          amiType: "AL2023_x86_64_STANDARD",
          instanceTypes: ["m6i.large"],
          scalingConfig: { minSize: 2, maxSize: 4, desiredSize: 2 },
        },
      },
      status: {
        atProvider: { version: "1.35", releaseVersion: "1.35.0-20261110", status: "ACTIVE", scalingConfig: { desiredSize: 3 } },
        conditions: [{ type: "Ready", status: "True", reason: "Available" }],
      },
    };
    expect(toCrossplaneNodeGroup(ng)).toEqual({
      apiVersion: "eks.aws.crossplane.io/v1alpha1",
      kind: "NodeGroup",
      resourceName: "prod-use1-001-system",
      name: "system",
      clusterName: "prod-use1-001",
      clusterRef: "prod-use1-001",
      version: "1.35",
      releaseVersion: "1.35.0-20261110",
      status: "ACTIVE",
      capacityType: "ON_DEMAND",
      amiType: "AL2023_x86_64_STANDARD",
      instanceTypes: ["m6i.large"],
      desiredSize: 3,
      minSize: 2,
      maxSize: 4,
      ready: "True",
      readyReason: "Available",
      synced: null,
      syncedReason: null,
    });
  });

  it.each([
    ["v1beta1", [{ desiredSize: 5, minSize: 1, maxSize: 10 }]],
    ["v1beta2", { desiredSize: 5, minSize: 1, maxSize: 10 }],
  ])("Upbound %s: scaling from a list or an object, cluster from atProvider", (version, scalingConfig) => {
    const ng = {
      apiVersion: `eks.aws.upbound.io/${version}`,
      kind: "NodeGroup",
      metadata: { name: "workers-abc12", annotations: { "crossplane.io/external-name": "workers" } },
      spec: { forProvider: { region: "us-east-1", clusterNameRef: { name: "staging-use1-002" } } },
      status: {
        atProvider: {
          id: "staging-use1-002:workers",
          clusterName: "staging-use1-002",
          version: "1.34",
          releaseVersion: "1.49.0-7d5b2c1a",
          status: "UPDATING",
          capacityType: "SPOT",
          amiType: "BOTTLEROCKET_x86_64",
          instanceTypes: ["c6i.2xlarge"],
          scalingConfig,
        },
      },
    };
    expect(toCrossplaneNodeGroup(ng)).toMatchObject({
      name: "workers",
      clusterName: "staging-use1-002",
      clusterRef: "staging-use1-002",
      status: "UPDATING",
      desiredSize: 5,
      minSize: 1,
      maxSize: 10,
      instanceTypes: ["c6i.2xlarge"],
    });
  });
});
