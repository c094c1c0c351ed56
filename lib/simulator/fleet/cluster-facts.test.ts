// The cluster-facts scenarios of the fleet model: clusters Crossplane creates (and fails to create), the
// spoke the EKS API refuses with its facts in Crossplane, Crossplane NodeGroups of both providers, the
// NotReady node and the hub HelmRelease applying to a spoke. Shapes are checked against the CRD schemas.
import { describe, expect, it } from "vitest";
import { toCrossplaneNodeGroup, toProvisioningRecord } from "../../kube/crossplane";
import { toNodeRecords } from "../../kube/nodes";
import { toKubeEvent } from "../../kube/cluster-info";
import { clusterProvisioning } from "../../fleet/provisioning";
import type { KubeObject, RuntimeInfo } from "../contract";
import { checkAgainstCrd, crdSchemaFor } from "../kube/crd-schema";
import { clustersInRegion, describeCluster } from "../aws/eks-data";
import { createFleetModel } from "./index";
import { NOT_READY_NODE } from "./node-scenarios";
import { PROVISIONING_CLUSTERS } from "./provisioning";

const MIN = 60_000;
const runtime: RuntimeInfo = {
  endpointOf: (cluster) => `https://127.0.0.1:${20000 + cluster.length}`,
  caDataOf: () => Buffer.from("-----BEGIN CERTIFICATE-----\nMIIBsim\n-----END CERTIFICATE-----\n").toString("base64"),
  stsEndpoint: "https://127.0.0.1:19443",
};
const EPOCH = Date.UTC(2026, 10, 23, 10, 0, 0);
const model = createFleetModel({ clusters: 12, objects: 20, seed: 7, epoch: EPOCH });
const hubAt = (rel: number) => model.objectsAt("hub", EPOCH + rel, runtime);
const named = (objects: KubeObject[], kind: string, name: string, apiVersion?: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name && (!apiVersion || o.apiVersion === apiVersion));
const secretData = (objects: KubeObject[], name: string) =>
  (objects.find((o) => o.kind === "Secret" && o.metadata.namespace === "flux-system" && o.metadata.name === name)?.data ?? null) as Record<
    string,
    string
  > | null;
const { creating, creatingUpjet, failing } = PROVISIONING_CLUSTERS;

/** The cluster-level rule the collector applies, fed from the simulated hub. */
function provisioningOf(objects: KubeObject[], cluster: string) {
  const resources = objects
    .filter((o) => ["Cluster", "ClusterAuth"].includes(o.kind) && o.metadata.name === cluster)
    .map(toProvisioningRecord)
    .map((r) => {
      const data = r.secretName ? secretData(objects, r.secretName) : null;
      return { ...r, secret: r.secretName ? (data === null ? "missing" : data.kubeconfig ? "kubeconfig" : "empty") : null } as const;
    });
  return clusterProvisioning(resources);
}

describe("the cluster-facts scenarios of the fleet", () => {
  it("shapes every Crossplane object exactly like the provider CRDs, at every phase", () => {
    let checked = 0;
    for (const rel of [0, 8 * MIN, 12 * MIN + 30_000, 13 * MIN, 40 * MIN]) {
      for (const object of hubAt(rel)) {
        if (!object.apiVersion.startsWith("eks.aws.")) continue;
        const crd = crdSchemaFor(object.apiVersion, object.kind);
        expect(crd, `${object.apiVersion} ${object.kind} has a schema`).toBeDefined();
        expect(
          checkAgainstCrd(crd!, object as Record<string, unknown>),
          `${object.kind} ${object.metadata.name} at +${rel / MIN}m`,
        ).toEqual({
          causes: [],
          unknown: [],
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("a classic Cluster Creating with its secret published empty, then ACTIVE with a kubeconfig and served", () => {
    const t0 = hubAt(0);
    expect(named(t0, "Cluster", creating.name)?.status).toMatchObject({ atProvider: { status: "CREATING" } });
    expect(secretData(t0, `${creating.name}-eks-connection`)).toEqual({});
    expect(provisioningOf(t0, creating.name)).toMatchObject({ state: "creating", desiredVersion: "1.35" });
    expect(model.objectsAt(creating.name, EPOCH, runtime)).toEqual([]);
    expect(model.conditionsAt(creating.name, EPOCH).unreachable).toBe(true);

    const after = hubAt(creating.availableAt);
    expect(named(after, "Cluster", creating.name)?.status).toMatchObject({ atProvider: { status: "ACTIVE" } });
    expect(Object.keys(secretData(after, `${creating.name}-eks-connection`) ?? {}).sort()).toEqual(["clusterCA", "endpoint", "kubeconfig"]);
    expect(provisioningOf(after, creating.name).state).toBeNull();
    const served = model.objectsAt(creating.name, EPOCH + creating.availableAt, runtime);
    expect(served.filter((o) => o.kind === "Kustomization").map((o) => o.metadata.name)).toEqual(["flux-system"]);
    expect(model.changedClusters(EPOCH + creating.availableAt - 1, EPOCH + creating.availableAt)).toEqual(
      expect.arrayContaining(["hub", creating.name]),
    );
  });

  it("an upjet Cluster with an empty atProvider while Terraform runs, its ClusterAuth waiting on the CA, then ACTIVE", () => {
    const t0 = hubAt(0);
    const cluster = named(t0, "Cluster", creatingUpjet.name, "eks.aws.upbound.io/v1beta2")!;
    expect(cluster.status).toMatchObject({ atProvider: {} });
    expect(toProvisioningRecord(cluster)).toMatchObject({ version: null, eksArn: null, desiredVersion: "1.35" });
    const auth = named(t0, "ClusterAuth", creatingUpjet.name)!;
    expect(toProvisioningRecord(auth)).toMatchObject({ synced: "False", readyReason: "Creating" });
    expect(secretData(t0, `${creatingUpjet.name}-kubeconfig`)).toEqual({});
    const result = provisioningOf(t0, creatingUpjet.name);
    expect(result.state).toBe("creating");
    expect(result.verdicts.map((v) => v.state).sort()).toEqual(["creating", "waiting"]);
    const published = hubAt(creatingUpjet.availableAt + 30_000);
    expect(secretData(published, `${creatingUpjet.name}-kubeconfig`)?.kubeconfig).toBeTruthy();
    expect(toProvisioningRecord(named(published, "Cluster", creatingUpjet.name)!)).toMatchObject({ version: "1.35", eksStatus: "ACTIVE" });
  });

  it("a failed create: Synced False ReconcileError for ever, an empty secret, and the hub Kustomization waiting on it", () => {
    for (const rel of [0, 40 * MIN]) {
      const hub = hubAt(rel);
      expect(provisioningOf(hub, failing.name)).toMatchObject({ state: "failed" });
      expect(secretData(hub, `${failing.name}-eks-connection`)).toEqual({});
      const bootstrap = named(hub, "Kustomization", `bootstrap-${failing.name}`)!;
      expect(
        (bootstrap.status as { conditions: Array<{ type: string; message: string }> }).conditions.find((c) => c.type === "Ready"),
      ).toMatchObject({
        status: "False",
        reason: "ReconciliationFailed",
        message: `KubeConfig secret 'flux-system/${failing.name}-eks-connection' does not contain a 'kubeconfig' key with a kubeconfig`,
      });
    }
    const warning = hubAt(0)
      .filter((o) => o.kind === "Event")
      .map((o) => toKubeEvent(o)!)
      .find((e) => e.involvedKind === "Cluster" && e.involvedName === failing.name && e.type === "Warning");
    expect(warning).toMatchObject({
      involvedNamespace: "",
      reason: "CannotCreateExternalResource",
      reportingController: "managed/eks.aws.upbound.io/v1beta2, kind=cluster",
    });
    expect(warning!.message).toMatch(/^async create failed: .*InvalidParameterException/);
  });

  it("the EKS API lists a cluster being created without an endpoint, and never the failed one", () => {
    const spec = model.spokeSpec(creating.name)!;
    expect(describeCluster(model, runtime, spec, EPOCH)).toMatchObject({ status: "CREATING", certificateAuthority: {} });
    expect(describeCluster(model, runtime, spec, EPOCH)).not.toHaveProperty("endpoint");
    expect(describeCluster(model, runtime, spec, EPOCH + creating.availableAt)).toMatchObject({
      status: "ACTIVE",
      endpoint: expect.any(String),
    });
    expect(clustersInRegion(model, "us-east-1")).toContain(creating.name);
    expect(clustersInRegion(model, "eu-west-1")).not.toContain(failing.name);
  });

  it("the spoke without EKS access: not listed by the EKS API, its version, platform, ARN and node groups in Crossplane", () => {
    const spoke = model.facts.noEksAccess!.cluster;
    expect(spoke).toBe(model.spokes[1].name);
    const spec = model.spokeSpec(spoke)!;
    expect(clustersInRegion(model, spec.region)).not.toContain(spoke);
    const hub = hubAt(0);
    expect(toProvisioningRecord(named(hub, "Cluster", spoke, "eks.aws.upbound.io/v1beta2")!)).toMatchObject({
      eksArn: `arn:aws:eks:${spec.region}:${spec.accountId}:cluster/${spoke}`,
      version: spec.version,
      platformVersion: expect.stringMatching(/^eks\.\d+$/),
      eksStatus: "ACTIVE",
    });
    const groups = hub.filter((o) => o.kind === "NodeGroup").map(toCrossplaneNodeGroup);
    const mine = groups.filter((g) => g.clusterName === spoke);
    expect(mine.map((g) => g.name).sort()).toEqual(["system", "workers"]);
    expect(mine.every((g) => g.apiVersion === "eks.aws.upbound.io/v1beta2" && g.version === spec.version && g.desiredSize! > 0)).toBe(true);
    // Nodes carry the node group label the names match.
    const nodes = toNodeRecords(model.objectsAt(spoke, EPOCH, runtime).filter((o) => o.kind === "Node"));
    expect(new Set(nodes.map((n) => n.nodeGroup))).toEqual(new Set(["system", "workers"]));
    // Both providers' NodeGroups across the fleet.
    expect(new Set(groups.map((g) => g.apiVersion))).toEqual(new Set(["eks.aws.crossplane.io/v1alpha1", "eks.aws.upbound.io/v1beta2"]));
  });

  it("a node NotReady from t0 (Ready Unknown NodeStatusUnknown, NodeNotReady Event in default), Ready again at 20:00", () => {
    const { cluster } = model.facts.notReadyNode!;
    const objects = model.objectsAt(cluster, EPOCH, runtime);
    const notReady = toNodeRecords(objects.filter((o) => o.kind === "Node")).filter((n) => n.readyStatus !== "True");
    expect(notReady).toEqual([
      expect.objectContaining({
        nodeGroup: "system",
        readyStatus: "Unknown",
        readyReason: "NodeStatusUnknown",
        readyMessage: "Kubelet stopped posting node status.",
        readySince: new Date(EPOCH + NOT_READY_NODE.since).toISOString(),
      }),
    ]);
    const events = objects.filter((o) => o.kind === "Event" && o.metadata.namespace === "default").map((o) => toKubeEvent(o)!);
    expect(events).toEqual([
      expect.objectContaining({
        involvedKind: "Node",
        involvedNamespace: "",
        involvedName: notReady[0].name,
        type: "Normal",
        reason: "NodeNotReady",
        message: `Node ${notReady[0].name} status is now: NodeNotReady`,
        reportingController: "node-controller",
      }),
    ]);
    const later = model.objectsAt(cluster, EPOCH + NOT_READY_NODE.until, runtime);
    expect(toNodeRecords(later.filter((o) => o.kind === "Node")).every((n) => n.readyStatus === "True")).toBe(true);
    expect(later.filter((o) => o.kind === "Event" && (o as { reason?: string }).reason === "NodeReady")).toHaveLength(1);
    expect(model.changedClusters(EPOCH + NOT_READY_NODE.until - 1, EPOCH + NOT_READY_NODE.until)).toContain(cluster);
  });

  it("a hub HelmRelease applies to spoke 0 through its connection secret", () => {
    const { name, spoke } = model.facts.hubToSpoke!;
    expect(spoke).toBe(model.spokes[0].name);
    const release = named(hubAt(0), "HelmRelease", name)!;
    expect(release.spec).toMatchObject({ kubeConfig: { secretRef: { name: `${spoke}-eks-connection`, key: "kubeconfig" } } });
  });
});
