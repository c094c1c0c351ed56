import { describe, expect, it } from "vitest";
import { clusterProvisioning, provisionerVerdict, upgradeInProgress, type ClusterProvisioningInput } from "./provisioning";
import type { ConditionLike } from "./status";

const at = "2026-11-23T10:00:00Z";
const cond = (type: string, status: string, reason: string, message?: string): ConditionLike => ({
  type,
  status,
  reason,
  ...(message ? { message } : {}),
  lastTransitionTime: at,
});

function makeResource(over: Partial<ClusterProvisioningInput> = {}): ClusterProvisioningInput {
  return {
    kind: "Cluster",
    conditions: [cond("Ready", "True", "Available"), cond("Synced", "True", "ReconcileSuccess")],
    eksStatus: "ACTIVE",
    desiredVersion: "1.34",
    version: "1.34",
    secret: "kubeconfig",
    ...over,
  };
}

const CA_EMPTY = "create failed: ca data from the retrieved cluster is empty";
const REFS_EMPTY =
  "cannot resolve references: mg.Spec.ForProvider.ClusterName: referenced field was empty (referenced resource may not yet be ready)";
const CREATE_FAILED =
  "create failed: async create failed: failed to create the resource: [{0 creating EKS Cluster (x): operation error EKS: CreateCluster, " +
  "https response error StatusCode: 400, RequestID: 0f6c…, InvalidParameterException: Subnets specified must be in at least two different AZs  []}]";

describe("a cluster Crossplane is still creating", () => {
  it("classic provider: Ready False Creating, atProvider.status CREATING, the connection secret there but empty", () => {
    const classic = makeResource({
      conditions: [cond("Ready", "False", "Creating"), cond("Synced", "True", "ReconcileSuccess")],
      eksStatus: "CREATING",
      version: "1.35",
      desiredVersion: "1.35",
      secret: "empty",
    });
    const result = clusterProvisioning([classic]);
    expect(result).toMatchObject({ state: "creating", desiredVersion: "1.35" });
    expect(result.verdicts[0]).toEqual({ state: "creating", reason: "Creating", message: null, since: at });
  });

  it("upjet: empty atProvider while Terraform runs, and its ClusterAuth failing on the missing CA is only waiting", () => {
    const cluster = makeResource({
      conditions: [
        cond("Ready", "False", "Creating"),
        cond("Synced", "True", "ReconcileSuccess"),
        cond("AsyncOperation", "False", "Ongoing"),
      ],
      eksStatus: null,
      version: null,
      desiredVersion: "1.35",
      secret: null,
    });
    const auth = makeResource({
      kind: "ClusterAuth",
      conditions: [cond("Ready", "False", "Creating"), cond("Synced", "False", "ReconcileError", CA_EMPTY)],
      eksStatus: null,
      version: null,
      desiredVersion: null,
      secret: "empty",
    });
    const result = clusterProvisioning([cluster, auth]);
    expect(result.state).toBe("creating");
    expect(result.desiredVersion).toBe("1.35");
    expect(result.verdicts.map((v) => v.state)).toEqual(["creating", "waiting"]);
  });

  it("the cluster is up but its kubeconfig is not published yet: still provisioning", () => {
    const result = clusterProvisioning([makeResource({ secret: null }), makeResource({ kind: "ClusterAuth", secret: "empty" })]);
    expect(result.state).toBe("creating");
  });

  it("a kubeconfig in the secret ends provisioning, whatever the conditions say", () => {
    const creating = makeResource({ conditions: [cond("Ready", "False", "Creating")], secret: "kubeconfig" });
    expect(clusterProvisioning([creating]).state).toBeNull();
    expect(
      clusterProvisioning([makeResource({ secret: "empty", conditions: [cond("Ready", "False", "Creating")] })], true).state,
    ).toBeNull();
  });

  it("nothing known yet (no conditions: just created, or no provider running) is creating, not failed", () => {
    const result = clusterProvisioning([makeResource({ conditions: [], eksStatus: null, version: null, secret: "missing" })]);
    expect(result.state).toBe("creating");
    expect(result.verdicts[0]).toMatchObject({ state: "creating", reason: null });
  });

  it("no Crossplane resource at all: nothing to say", () => {
    expect(clusterProvisioning([])).toEqual({ state: null, desiredVersion: null, verdicts: [] });
  });
});

describe("a Crossplane resource that failed", () => {
  it("Synced False ReconcileError while creating: the cluster failed to be created", () => {
    const failing = makeResource({
      conditions: [cond("Ready", "False", "Creating"), cond("Synced", "False", "ReconcileError", CREATE_FAILED)],
      eksStatus: null,
      version: null,
      desiredVersion: "1.35",
      secret: "empty",
    });
    const result = clusterProvisioning([failing]);
    expect(result.state).toBe("failed");
    expect(result.verdicts[0]).toEqual({ state: "failed", reason: "ReconcileError", message: CREATE_FAILED, since: at });
  });

  it("upjet's failed create can show Synced True: LastAsyncOperation False AsyncCreateFailure says it", () => {
    const v = provisionerVerdict(
      makeResource({
        conditions: [
          cond("Ready", "False", "Creating"),
          cond("Synced", "True", "ReconcileSuccess"),
          cond("LastAsyncOperation", "False", "AsyncCreateFailure", "async create failed: boom"),
        ],
      }),
      false,
    );
    expect(v).toMatchObject({ state: "failed", reason: "AsyncCreateFailure", message: "async create failed: boom" });
  });

  it("provider-aws Ready False Unavailable: UPDATING is an upgrade, FAILED is a failure", () => {
    const upgrading = makeResource({ conditions: [cond("Ready", "False", "Unavailable")], eksStatus: "UPDATING", desiredVersion: "1.35" });
    expect(provisionerVerdict(upgrading, true)).toMatchObject({ state: "updating", reason: "Upgrading" });
    expect(clusterProvisioning([upgrading]).state).toBeNull();
    const failed = makeResource({ conditions: [cond("Ready", "False", "Unavailable")], eksStatus: "FAILED" });
    expect(provisionerVerdict(failed, true)).toMatchObject({ state: "failed", reason: "Unavailable", message: "atProvider.status FAILED" });
  });

  it("any other Ready False reason is a failure", () => {
    expect(provisionerVerdict(makeResource({ conditions: [cond("Ready", "False", "ReconcileError", "x")] }), true).state).toBe("failed");
  });

  it("a dependant's wait becomes a failure once the cluster exists", () => {
    const nodeGroup = makeResource({ kind: "NodeGroup", conditions: [cond("Synced", "False", "ReconcileError", REFS_EMPTY)] });
    expect(provisionerVerdict(nodeGroup, false).state).toBe("waiting");
    expect(provisionerVerdict(nodeGroup, true).state).toBe("failed");
  });

  it("a failing ClusterAuth of a reachable cluster is a failure of its own, the cluster is not provisioning", () => {
    const auth = makeResource({
      kind: "ClusterAuth",
      conditions: [
        cond("Ready", "True", "Available"),
        cond("Synced", "False", "ReconcileError", "update failed: refresh failed: ExpiredToken"),
      ],
      secret: "kubeconfig",
    });
    const result = clusterProvisioning([makeResource({ secret: null }), auth]);
    expect(result.state).toBeNull();
    expect(result.verdicts[1]).toMatchObject({ state: "failed", reason: "ReconcileError" });
  });

  it("deleting and paused are neither failures nor creation", () => {
    expect(provisionerVerdict(makeResource({ conditions: [cond("Ready", "False", "Deleting")] }), true).state).toBe("deleting");
    expect(provisionerVerdict(makeResource({ conditions: [cond("Synced", "False", "ReconcilePaused")] }), true).state).toBe("paused");
  });
});

describe("upgrade in progress", () => {
  it("upjet stays Ready True during an upgrade: desired ahead of observed says it", () => {
    expect(provisionerVerdict(makeResource({ desiredVersion: "1.35", version: "1.34" }), true)).toMatchObject({
      state: "updating",
      message: "version 1.34 → 1.35",
    });
  });

  it("compares minors, never text", () => {
    expect(upgradeInProgress("1.35", "1.34")).toBe(true);
    expect(upgradeInProgress("1.10", "1.9")).toBe(true);
    expect(upgradeInProgress("1.34", "v1.34.2-eks-1a2b3c4")).toBe(false);
    expect(upgradeInProgress("1.33", "1.34")).toBe(false);
    expect(upgradeInProgress(null, "1.34")).toBe(false);
  });
});
