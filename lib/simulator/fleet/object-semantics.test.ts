import { HelmRelease } from "@kubernetes-models/flux-cd/helm.toolkit.fluxcd.io/v2";
import { HelmChart, HelmRepository } from "@kubernetes-models/flux-cd/source.toolkit.fluxcd.io/v1";
import { describe, expect, it } from "vitest";
import type { KubeObject, RuntimeInfo } from "../contract";
import { createFleetModel } from "./index";
import { SEMANTICS } from "./object-semantics";

const MIN = 60_000;
const EPOCH = Date.UTC(2026, 10, 21, 20, 0, 0);
const model = createFleetModel({ clusters: 12, objects: 30, seed: 7, epoch: EPOCH });
const runtime: RuntimeInfo = {
  endpointOf: () => "https://127.0.0.1:1",
  caDataOf: () => "",
  stsEndpoint: "https://127.0.0.1:2",
};
const spoke = (index: number) => model.spokes[index].name;
const objectsAt = (index: number, rel: number) => model.objectsAt(spoke(index), EPOCH + rel, runtime);
const find = (objects: KubeObject[], kind: string, namespace: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === name);
const conditions = (o: KubeObject | undefined) => (o?.status as { conditions?: Array<Record<string, string>> })?.conditions ?? [];
const cond = (o: KubeObject | undefined, type: string) => conditions(o).find((c) => c.type === type);
const eventsOf = (objects: KubeObject[], kind: string, name: string) =>
  objects.filter(
    (o) =>
      o.kind === "Event" &&
      (o.involvedObject as { kind: string; name: string }).kind === kind &&
      (o.involvedObject as { name: string }).name === name,
  );
const validate = (o: KubeObject) => {
  const Model = { HelmRelease, HelmChart, HelmRepository }[o.kind as "HelmRelease"];
  expect(() => new Model(o as never).validate(), `${o.kind} ${o.metadata.name}`).not.toThrow();
};

describe("object semantics scenarios", () => {
  it("holds static OCI HelmRepositories with status {}, no finalizer and no conditions, on several spokes", () => {
    for (const index of SEMANTICS.staticOci) {
      const repo = find(objectsAt(index, 0), "HelmRepository", "flux-system", "podinfo-oci")!;
      expect(repo.spec).toMatchObject({ type: "oci", url: "oci://ghcr.io/stefanprodan/charts", provider: "generic" });
      expect(repo.status).toEqual({});
      expect(repo.metadata.finalizers).toBeUndefined();
      validate(repo);
    }
    expect(find(objectsAt(1, 0), "HelmRepository", "flux-system", "podinfo-oci")).toBeUndefined();
  });

  it("keeps a HelmRelease nobody reconciles at the CRD default status, with no HelmChart and no Events", () => {
    for (const rel of [0, 30 * MIN]) {
      const objects = objectsAt(SEMANTICS.unclaimed.spoke, rel);
      const hr = find(objects, "HelmRelease", "kube-system", "aws-node-termination-handler")!;
      expect(hr.status).toEqual({ observedGeneration: -1 });
      expect(Date.parse(hr.metadata.creationTimestamp!)).toBe(EPOCH + SEMANTICS.unclaimed.createdAt);
      expect(find(objects, "HelmChart", "flux-system", "kube-system-aws-node-termination-handler")).toBeUndefined();
      expect(eventsOf(objects, "HelmRelease", "aws-node-termination-handler")).toEqual([]);
      validate(hr);
    }
  });

  it("picks up a new HelmRelease normally: -1 alone, then -1 kept next to the first conditions, then installed", () => {
    const a = SEMANTICS.added;
    const hrAt = (rel: number) => find(objectsAt(a.spoke, rel), "HelmRelease", "kube-system", "aws-node-termination-handler");
    expect(hrAt(a.createdAt - 1000)).toBeUndefined();
    const fresh = hrAt(a.createdAt + 10_000)!;
    expect(fresh.status).toEqual({ observedGeneration: -1 });
    const picked = hrAt(a.createdAt + 30_000)!;
    expect(picked.status).toMatchObject({ observedGeneration: -1, helmChart: "flux-system/kube-system-aws-node-termination-handler" });
    expect(cond(picked, "Ready")).toMatchObject({ status: "Unknown", reason: "Progressing" });
    const objects = objectsAt(a.spoke, a.createdAt + 60_000);
    const installed = find(objects, "HelmRelease", "kube-system", "aws-node-termination-handler")!;
    expect(cond(installed, "Ready")).toMatchObject({ status: "True", reason: "InstallSucceeded" });
    expect(installed.status).toMatchObject({ observedGeneration: 1, history: [{ status: "deployed", chartVersion: "0.27.2" }] });
    const [installEvent] = eventsOf(objects, "HelmRelease", "aws-node-termination-handler");
    expect(installEvent).toMatchObject({ reason: "InstallSucceeded", type: "Normal", source: { component: "helm-controller" } });
    expect(installEvent.metadata.annotations).toMatchObject({ "helm.toolkit.fluxcd.io/revision": "0.27.2" });
    expect(installEvent.metadata.annotations!["helm.toolkit.fluxcd.io/token"]).toMatch(/^sha256:[0-9a-f]{64}$/);
    for (const o of [fresh, picked, installed]) validate(o);
  });

  it("drifts ingress-nginx in warn mode: Ready stays True, Drifted True, a Warning DriftDetected without a revision", () => {
    const objects = objectsAt(3, 0);
    const hr = find(objects, "HelmRelease", "ingress-nginx", "ingress-nginx")!;
    expect(hr.spec).toMatchObject({ driftDetection: { mode: "warn" } });
    expect(cond(hr, "Ready")).toMatchObject({ status: "True", reason: "UpgradeSucceeded" });
    expect(cond(hr, "Drifted")).toMatchObject({ status: "True", reason: "DriftDetected" });
    expect(cond(hr, "Drifted")!.message).toMatch(
      /^Cluster state of release ingress-nginx\/ingress-nginx\.v\d+ has drifted from the desired state:\nDeployment\/ingress-nginx\/ingress-nginx-controller changed \(0 additions, 1 changes, 0 removals\)$/,
    );
    const [drift] = eventsOf(objects, "HelmRelease", "ingress-nginx");
    expect(drift).toMatchObject({ reason: "DriftDetected", type: "Warning", message: cond(hr, "Drifted")!.message, count: 2 });
    expect(drift.metadata.annotations).toBeUndefined();
    validate(hr);
    // Spoke 8 drifts during the run; spoke 2 never does.
    expect(cond(find(objectsAt(8, 0), "HelmRelease", "ingress-nginx", "ingress-nginx"), "Drifted")).toMatchObject({ status: "False" });
    expect(cond(find(objectsAt(8, 8 * MIN), "HelmRelease", "ingress-nginx", "ingress-nginx"), "Drifted")).toMatchObject({ status: "True" });
    expect(cond(find(objectsAt(2, 20 * MIN), "HelmRelease", "ingress-nginx", "ingress-nginx"), "Drifted")).toMatchObject({
      status: "False",
      reason: "NoDriftDetected",
    });
  });

  it("removes a HelmRelease and its HelmChart during the run; the uninstall Events outlive them", () => {
    const r = SEMANTICS.removed;
    const before = objectsAt(r.spoke, 0);
    expect(find(before, "HelmRelease", "kube-system", "aws-node-termination-handler")).toBeDefined();
    expect(find(before, "HelmChart", "flux-system", "kube-system-aws-node-termination-handler")).toBeDefined();
    const after = objectsAt(r.spoke, r.at + 1000);
    expect(find(after, "HelmRelease", "kube-system", "aws-node-termination-handler")).toBeUndefined();
    expect(find(after, "HelmChart", "flux-system", "kube-system-aws-node-termination-handler")).toBeUndefined();
    const events = eventsOf(after, "HelmRelease", "aws-node-termination-handler");
    expect(events.map((e) => [e.reason, e.type])).toEqual([
      ["UninstallSucceeded", "Normal"],
      ["HelmChartDeleted", "Normal"],
    ]);
    expect(events[0].metadata.annotations).toMatchObject({ "helm.toolkit.fluxcd.io/revision": "0.27.2" });
    expect(events[1].message).toBe("deleted HelmChart 'flux-system/kube-system-aws-node-termination-handler'");
    expect(eventsOf(objectsAt(r.spoke, r.at + 61 * MIN), "HelmRelease", "aws-node-termination-handler")).toEqual([]);
  });

  it("fails a HelmRepository's index fetch while the HelmChart and HelmRelease it feeds stay Ready", () => {
    const objects = objectsAt(SEMANTICS.failingRepository.spoke, 0);
    const repo = find(objects, "HelmRepository", "flux-system", "prometheus-community")!;
    expect(cond(repo, "Ready")).toMatchObject({ status: "False", reason: "Failed" });
    expect(cond(repo, "Ready")!.message).toBe(
      "failed to fetch Helm repository index: failed to cache index to temporary file: failed to fetch https://prometheus-community.github.io/helm-charts/index.yaml : 429 Too Many Requests",
    );
    expect((repo.status as { artifact?: unknown }).artifact).toBeDefined();
    const chart = find(objects, "HelmChart", "flux-system", "monitoring-kube-prometheus-stack")!;
    expect(cond(chart, "Ready")?.status).toBe("True");
    expect(cond(find(objects, "HelmRelease", "monitoring", "kube-prometheus-stack"), "Ready")?.status).toBe("True");
    expect(eventsOf(objects, "HelmRepository", "prometheus-community")).toMatchObject([{ reason: "Failed", type: "Warning" }]);
    validate(repo);
  });

  it("writes Flux's revision annotations as each controller does", () => {
    const stall = model.facts.helmUpgradeStall!;
    const objects = model.objectsAt(stall.cluster, EPOCH + 6 * MIN, runtime);
    const failed = eventsOf(objects, "HelmRelease", stall.name).find((e) => e.reason === "UpgradeFailed")!;
    expect(failed.metadata.annotations).toMatchObject({ "helm.toolkit.fluxcd.io/revision": "79.5.0" });
    expect(failed).toMatchObject({ reportingComponent: "helm-controller", reportingInstance: "", eventTime: null });
    const rollbacks = eventsOf(objects, "HelmRelease", stall.name).filter((e) => e.reason === "RollbackSucceeded");
    expect(rollbacks).toHaveLength(2);
    expect(rollbacks[0].metadata.annotations).toMatchObject({ "helm.toolkit.fluxcd.io/revision": "77.14.0" });
    // The dependency chain's root: a build failure carries the attempted source revision.
    const chain = model.facts.dependencyChain!;
    const buildFailed = eventsOf(model.objectsAt(chain.cluster, EPOCH, runtime), "Kustomization", "infra-controllers")[0];
    expect(buildFailed.metadata.annotations!["kustomize.toolkit.fluxcd.io/revision"]).toMatch(/^main@sha1:[0-9a-f]{40}$/);
  });
});
