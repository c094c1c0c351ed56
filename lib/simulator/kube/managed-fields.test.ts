// managedFields as kube-apiserver serves them, checked against the recorded responses of a real one.
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../contract";
import { createFleetModel } from "../fleet";
import { readFixture } from "./testing";
import { fieldSet, latestStatusTime, managedFieldsOf, orderedEntries, type ManagedFieldsEntry } from "./managed-fields";
import { ClusterStore } from "./store";

const recordedKustomizations = () =>
  (JSON.parse(readFixture("02-list-kustomizations-all").body) as { items: KubeObject[] }).items.map((item) => ({
    ...item,
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
  }));

const EPOCH = Date.parse("2026-11-21T12:00:00Z");
const RUNTIME = { endpointOf: () => "https://127.0.0.1:1", caDataOf: () => "", stsEndpoint: "https://127.0.0.1:2" };
/** A spoke's first Node, as the fleet model makes it. */
function modelNode(): KubeObject {
  const model = createFleetModel({ clusters: 3, objects: 10, seed: 7, epoch: EPOCH });
  const spoke = model.clusters.find((c) => c.role === "spoke")!;
  return model.objectsAt(spoke.name, EPOCH, RUNTIME).find((o) => o.kind === "Node")!;
}

const withoutTime = (entries: ManagedFieldsEntry[] | Record<string, unknown>[]) =>
  entries.map(({ time: _time, ...rest }) => rest as Record<string, unknown>);

describe("managedFieldsOf", () => {
  it("gives a recorded Kustomization the entries kube-apiserver served with it: kustomize-controller's Apply and its status Update", () => {
    const items = recordedKustomizations();
    expect(items.length).toBeGreaterThanOrEqual(3);
    for (const item of items) {
      const { managedFields: recorded, ...metadata } = item.metadata as KubeObject["metadata"] & { managedFields: ManagedFieldsEntry[] };
      const ours = managedFieldsOf({ ...item, metadata }, true);
      expect(withoutTime(ours)).toEqual(withoutTime(recorded));
      // The spec's entry dates from the apply that created the object.
      expect(ours[0].time).toBe(item.metadata.creationTimestamp);
    }
  });

  it("gives a recorded Event its reporting controller's Update: its object reference atomic, nulls and empty strings unowned", () => {
    const events = (JSON.parse(readFixture("22-events-fieldselector").body) as { items: KubeObject[] }).items;
    expect(events.length).toBeGreaterThan(0);
    for (const item of events) {
      const { managedFields: recorded, ...metadata } = item.metadata as KubeObject["metadata"] & { managedFields: ManagedFieldsEntry[] };
      const event = { ...item, apiVersion: "v1", kind: "Event", metadata };
      const ours = managedFieldsOf(event, false);
      expect(ours).toEqual(recorded.map((e) => ({ ...e, time: ours[0].time })));
      expect(Object.keys(orderedEntries(ours, true)[0])).toEqual(Object.keys(recorded[0]));
    }
  });

  it("serialises a custom resource's entries with sorted keys, a built-in kind's in struct order", () => {
    const [item] = recordedKustomizations();
    const raw = readFixture("02-list-kustomizations-all").body;
    const entries = managedFieldsOf(item, true);
    const served = JSON.stringify(orderedEntries(entries, false));
    expect(raw).toContain(served.slice(1, served.indexOf("},{") + 1));
    expect(Object.keys(orderedEntries(entries, true)[0])).toEqual(["manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1"]);
  });

  it("keys a Node's conditions and addresses by type; the kubelet's status report owns each heartbeat, the node-lifecycle controller the ttl annotation", () => {
    const node = modelNode();
    const [registration, ttl, report] = managedFieldsOf(node, true);
    expect([registration.manager, ttl.manager, report.manager]).toEqual(["kubelet", "kube-controller-manager", "kubelet"]);
    expect(ttl.fieldsV1).toEqual({ "f:metadata": { "f:annotations": { ".": {}, "f:node.alpha.kubernetes.io/ttl": {} } } });
    const status = registration.fieldsV1["f:status"] as Record<string, Record<string, unknown>>;
    expect(Object.keys(status["f:conditions"])).toContain('k:{"type":"Ready"}');
    expect(Object.keys(status["f:addresses"])).toContain('k:{"type":"InternalIP"}');
    expect(report).toMatchObject({ subresource: "status", fieldsV1: { "f:status": { "f:images": {} } } });
    expect((report.fieldsV1["f:status"] as Record<string, Record<string, unknown>>)["f:conditions"]['k:{"type":"Ready"}']).toEqual({
      "f:lastHeartbeatTime": {},
    });
    const conditions = (node.status as { conditions: { lastHeartbeatTime: string }[] }).conditions;
    expect(report.time).toBe(
      conditions
        .map((c) => c.lastHeartbeatTime)
        .sort()
        .at(-1),
    );
  });

  it("leaves a CRD's lists atomic and marks only the maps an Update made below the top level", () => {
    expect(fieldSet({ status: { conditions: [{ type: "Ready" }], inventory: { entries: [] } } }, true)).toEqual({
      "f:status": { "f:conditions": {}, "f:inventory": { ".": {}, "f:entries": {} } },
    });
    expect(fieldSet({ spec: { sourceRef: { kind: "GitRepository" } } }, false)).toEqual({ "f:spec": { "f:sourceRef": { "f:kind": {} } } });
  });

  it("dates the status entry at the latest time the status records, so a controller's write moves it", () => {
    expect(
      latestStatusTime({ conditions: [{ lastTransitionTime: "2026-11-20T10:00:00Z" }, { lastTransitionTime: "2026-11-21T09:00:00Z" }] }),
    ).toBe("2026-11-21T09:00:00Z");
    expect(latestStatusTime({ lastHandledReconcileAt: "2026-11-22T08:00:00.123456Z", observedGeneration: 2 })).toBe("2026-11-22T08:00:00Z");
    expect(latestStatusTime({ observedGeneration: 1 })).toBeUndefined();
  });

  it("is served on every object the store renders, never taken from what a client sends", () => {
    const store = new ClusterStore("spoke-1", undefined, 100);
    const [item] = recordedKustomizations();
    const { managedFields: _recorded, resourceVersion: _rv, ...metadata } = item.metadata;
    store.sync([{ ...item, metadata }], Date.parse("2026-11-21T20:00:00Z"));
    const type = store.registry.lookup("kustomize.toolkit.fluxcd.io", "v1", "kustomizations")!;
    const served = store.get(type, metadata.namespace, metadata.name).object;
    expect((served.metadata.managedFields as unknown[]).length).toBe(2);
    store.write(type, metadata.namespace, metadata.name, undefined, (current) => ({
      ...current,
      metadata: { ...current.metadata, managedFields: [], labels: { team: "a" } },
    }));
    const after = store.get(type, metadata.namespace, metadata.name).object;
    expect((after.metadata.managedFields as ManagedFieldsEntry[])[0].fieldsV1).toMatchObject({
      "f:metadata": { "f:labels": { "f:team": {} } },
    });
  });
});

describe("nodeObject", () => {
  it("carries what a real EKS node serves: EKS and cloud-provider labels, the kubelet's annotations, daemon endpoint, add-on images", () => {
    const node = modelNode();
    expect(Object.keys(node.metadata.annotations!)).toEqual([
      "alpha.kubernetes.io/provided-node-ip",
      "node.alpha.kubernetes.io/ttl",
      "volumes.kubernetes.io/controller-managed-attach-detach",
    ]);
    expect(node.metadata.labels!["topology.k8s.aws/zone-id"]).toMatch(/^[a-z]{3,5}\d-az\d$/);
    const status = node.status as { daemonEndpoints: unknown; images: { names: string[]; sizeBytes: number }[] };
    expect(status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } });
    const sizes = status.images.map((i) => i.sizeBytes);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(status.images.some((i) => i.names.some((n) => /\/amazon-k8s-cni:v\d/.test(n)))).toBe(true);
  });
});
