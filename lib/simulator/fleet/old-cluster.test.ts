import { HelmRelease } from "@kubernetes-models/flux-cd/helm.toolkit.fluxcd.io/v2";
import { HelmChart, HelmRepository } from "@kubernetes-models/flux-cd/source.toolkit.fluxcd.io/v1";
import { describe, expect, it } from "vitest";
import { toFluxObject } from "../../kube/flux";
import { inventoryRefs, removedApiUses } from "../../upgrades/removed-apis";
import type { KubeObject, RuntimeInfo } from "../contract";
import { HELM_ADDONS } from "./catalogue";
import { createFleetModel } from "./index";
import { ROLE_INDEX } from "./topology";
import { controlPlaneAt, nodegroupsAt } from "./versions";

const runtime: RuntimeInfo = {
  endpointOf: (cluster) => `https://127.0.0.1:${20000 + cluster.length}`,
  caDataOf: () => Buffer.from("-----BEGIN CERTIFICATE-----\nMIIBsim\n-----END CERTIFICATE-----\n").toString("base64"),
  stsEndpoint: "https://127.0.0.1:19443",
};
const EPOCH = Date.UTC(2026, 10, 23, 12, 0, 0);
const model = createFleetModel({ clusters: 12, objects: 30, seed: 7, epoch: EPOCH });
const old = model.spokes[ROLE_INDEX.pastExtendedSupport];
const objects = (cluster: string) => model.objectsAt(cluster, EPOCH, runtime);
const find = (list: KubeObject[], kind: string, namespace: string, name: string) =>
  list.find((o) => o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === name);

describe("the spoke left on 1.27", () => {
  it("runs 1.27 everywhere: control plane, node groups, facts", () => {
    expect(old.name).toBe("staging-use1-010");
    expect(controlPlaneAt(old, 0)).toMatchObject({ version: "1.27", gitVersion: "v1.27.16-eks-2f0b4c7" });
    expect(nodegroupsAt(old, 0).map((n) => [n.version, n.amiType])).toEqual([
      ["1.27", "AL2_x86_64"],
      ["1.27", "AL2_x86_64"],
    ]);
    expect(model.facts.pastExtendedSupport).toEqual({ cluster: old.name, version: "1.27", endOfExtendedSupport: "2025-07-24" });
  });

  it("holds a HelmRelease whose install failed: stalled, nothing deployed, valid against the CRD", () => {
    const hr = find(objects(old.name), "HelmRelease", "kube-system", "metrics-server")!;
    expect(() => new HelmRelease(hr as never).validate()).not.toThrow();
    const status = hr.status as {
      history: { status: string; action: string }[];
      conditions: { type: string; reason: string; message: string }[];
    };
    expect(status.history.map((h) => [h.status, h.action])).toEqual([["failed", "install"]]);
    expect(status).toMatchObject({ lastAttemptedReleaseAction: "install", installFailures: 1, failures: 1 });
    const stalled = status.conditions.find((c) => c.type === "Stalled")!;
    expect(stalled).toMatchObject({ reason: "RetriesExceeded", message: "Failed to install after 1 attempt(s)" });
    expect(status.conditions.find((c) => c.type === "Ready")!.message).toMatch(
      /^Helm install failed for release kube-system\/metrics-server with chart metrics-server@[^:]+: rendered manifests contain a resource that already exists\./,
    );
    // What the collector stores: attempted, not deployed.
    const record = toFluxObject("HelmRelease", hr as never);
    expect(record.appliedRevision).toBeNull();
    expect(record.chartVersion).toBe((hr.spec as { chart: { spec: { version: string } } }).chart.spec.version);
    // Elsewhere the same chart is installed.
    const elsewhere = find(objects(model.spokes[0].name), "HelmRelease", "kube-system", "metrics-server")!;
    expect(toFluxObject("HelmRelease", elsewhere as never).appliedRevision).toBeTruthy();
  });

  it("pulls podinfo from an OCI HelmRepository while the other spokes pull it over HTTPS", () => {
    const mine = objects(old.name);
    const repo = find(mine, "HelmRepository", "flux-system", "podinfo")!;
    expect(() => new HelmRepository(repo as never).validate()).not.toThrow();
    expect(repo.spec).toMatchObject({ type: "oci", url: "oci://ghcr.io/stefanprodan/charts" });
    expect(repo.status).toEqual({}); // a data container: source-controller never reconciles it
    const chart = find(mine, "HelmChart", "flux-system", "podinfo-podinfo")!;
    expect(() => new HelmChart(chart as never).validate()).not.toThrow();
    const https = find(objects(model.spokes[0].name), "HelmRepository", "flux-system", "podinfo")!;
    expect(https.spec).toMatchObject({ url: HELM_ADDONS.find((a) => a.name === "podinfo")!.source.url });
    expect(model.facts.dualSourceChart).toMatchObject({
      chart: "podinfo",
      ociCluster: old.name,
      ociUrl: "oci://ghcr.io/stefanprodan/charts",
    });
  });

  it("records Karpenter's FlowSchemas at v1beta3 in its HelmRelease inventory: removed in 1.32, upcoming for 1.27", () => {
    const hr = find(objects(old.name), "HelmRelease", "kube-system", "karpenter")!;
    const uses = removedApiUses(inventoryRefs(toFluxObject("HelmRelease", hr as never).inventory), "1.27", "1.28");
    expect(uses.map((u) => [u.kind, u.name, u.removed.removedIn, u.stage])).toEqual([
      ["FlowSchema", "karpenter-leader-election", "1.32", "upcoming"],
      ["FlowSchema", "karpenter-workload", "1.32", "upcoming"],
    ]);
  });
});
