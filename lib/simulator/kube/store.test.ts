import { describe, expect, it } from "vitest";
import type { KubeObject } from "../contract";
import { applyMergePatch } from "./patch";
import { ClusterStore, type StoreEvent } from "./store";
import type { ListOptions } from "./store";

const ks = (name: string, extra: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: "kustomize.toolkit.fluxcd.io/v1",
  kind: "Kustomization",
  metadata: { name, namespace: "flux-system", generation: 1, labels: { app: name } },
  spec: { interval: "10m0s", prune: true, path: `./${name}`, sourceRef: { kind: "GitRepository", name: "flux-system" } },
  status: { observedGeneration: 1, conditions: [{ type: "Ready", status: "True", observedGeneration: 1 }] },
  ...extra,
});

const NOW = Date.parse("2026-11-21T20:00:00Z");
const everything: ListOptions = { labelSelector: [], fieldSelector: [] };

function storeWith(objects: KubeObject[]) {
  const store = new ClusterStore("spoke-1", undefined, 100);
  store.sync(objects, NOW);
  const type = store.registry.lookup("kustomize.toolkit.fluxcd.io", "v1", "kustomizations")!;
  return { store, type };
}

describe("ClusterStore sync", () => {
  it("bumps one resourceVersion counter per changed object and leaves unchanged ones alone", () => {
    const { store, type } = storeWith([ks("a"), ks("b")]);
    expect(store.resourceVersion).toBe(102);
    const before = store.get(type, "flux-system", "a");
    expect(store.sync([ks("a"), ks("b", { spec: { interval: "5m" } })], NOW)).toBe(1);
    expect(store.resourceVersion).toBe(103);
    expect(store.get(type, "flux-system", "a")).toBe(before);
    expect(store.get(type, "flux-system", "b").object.metadata.resourceVersion).toBe("103");
  });

  it("deletes what the model no longer returns and emits watch events", () => {
    const { store, type } = storeWith([ks("a"), ks("b")]);
    const events: StoreEvent[] = [];
    store.subscribe((event) => events.push(event));
    store.sync([ks("a")], NOW);
    expect(events.map((event) => [event.type, event.version.name, event.version.rv])).toEqual([["DELETED", "b", 103]]);
    expect(() => store.get(type, "flux-system", "b")).toThrow(expect.objectContaining({ code: 404 }));
  });

  it("keeps client patches across model re-syncs and bumps generation on spec edits", () => {
    const { store, type } = storeWith([ks("a")]);
    store.write(
      type,
      "flux-system",
      "a",
      undefined,
      (current) =>
        applyMergePatch(current, {
          metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": "t1" } },
          spec: { suspend: true },
        }) as KubeObject,
    );
    store.sync([ks("a", { status: { observedGeneration: 1, conditions: [{ type: "Ready", status: "False" }] } })], NOW);
    const object = store.get(type, "flux-system", "a").object;
    expect(object.metadata.annotations).toEqual({ "reconcile.fluxcd.io/requestedAt": "t1" });
    expect(object.spec).toMatchObject({ suspend: true, interval: "10m0s" });
    expect(object.metadata.generation).toBe(2);
    expect((object.status as { conditions: { status: string }[] }).conditions[0].status).toBe("False");
  });

  it("answers 409 for a stale resourceVersion and 422 for a non-boolean suspend", () => {
    const { store, type } = storeWith([ks("a")]);
    expect(() =>
      store.write(
        type,
        "flux-system",
        "a",
        undefined,
        (current) => applyMergePatch(current, { metadata: { resourceVersion: "1" } }) as KubeObject,
      ),
    ).toThrow(expect.objectContaining({ code: 409, reason: "Conflict" }));
    expect(() =>
      store.write(type, "flux-system", "a", undefined, (current) => applyMergePatch(current, { spec: { suspend: "yes" } }) as KubeObject),
    ).toThrow(expect.objectContaining({ code: 422, reason: "Invalid" }));
  });

  it("ignores status on the main resource and only status on /status", () => {
    const { store, type } = storeWith([ks("a")]);
    const rv = store.resourceVersion;
    const unchanged = store.write(
      type,
      "flux-system",
      "a",
      undefined,
      (current) => applyMergePatch(current, { status: { observedGeneration: 9 } }) as KubeObject,
    );
    expect(unchanged.changed).toBe(false);
    expect(store.resourceVersion).toBe(rv);
    store.write(
      type,
      "flux-system",
      "a",
      "status",
      (current) => applyMergePatch(current, { status: { lastHandledReconcileAt: "x" }, spec: { suspend: true } }) as KubeObject,
    );
    const object = store.get(type, "flux-system", "a").object;
    expect(object.status).toMatchObject({ lastHandledReconcileAt: "x" });
    expect(object.spec).not.toHaveProperty("suspend");
  });
});

describe("ClusterStore lists", () => {
  const many = Array.from({ length: 7 }, (_, index) => ks(`k${index}`));

  it("paginates with a constant resourceVersion and a consistent snapshot", () => {
    const { store, type } = storeWith(many);
    const first = store.list(type, { ...everything, limit: 3 });
    expect(first.items.map((item) => item.name)).toEqual(["k0", "k1", "k2"]);
    expect(first.remainingItemCount).toBe(4);
    store.sync(many.slice(1), NOW); // k0 disappears between pages
    const second = store.list(type, { ...everything, limit: 3, continueToken: first.continueToken });
    expect(second.resourceVersion).toBe(first.resourceVersion);
    expect(second.items.map((item) => item.name)).toEqual(["k3", "k4", "k5"]);
    const last = store.list(type, { ...everything, limit: 3, continueToken: second.continueToken });
    expect(last.items.map((item) => item.name)).toEqual(["k6"]);
    expect(last.continueToken).toBe("");
    expect(last.remainingItemCount).toBeUndefined();
  });

  it("expires continue tokens after a compaction with 410 and a fresh inconsistent token", () => {
    const { store, type } = storeWith(many);
    const first = store.list(type, { ...everything, limit: 2 });
    store.sync(
      many.map((object) => ({ ...object, spec: { ...(object.spec as object), path: "./changed" } })),
      NOW,
    );
    store.compact();
    let error: unknown;
    try {
      store.list(type, { ...everything, limit: 2, continueToken: first.continueToken });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 410, reason: "Expired" });
    const fresh = (error as { listMeta: { continue: string } }).listMeta.continue;
    expect(JSON.parse(Buffer.from(fresh, "base64url").toString())).toEqual({ v: "meta.k8s.io/v1", rv: -1, start: "flux-system/k1\u0000" });
    expect(store.list(type, { ...everything, limit: 10, continueToken: fresh }).items.map((item) => item.name)).toEqual([
      "k2",
      "k3",
      "k4",
      "k5",
      "k6",
    ]);
  });

  it("follows resourceVersion semantics: 0 ignores limit, Exact too old is 410, too large is 504", () => {
    const { store, type } = storeWith(many);
    expect(store.list(type, { ...everything, limit: 2, resourceVersion: "0" }).items).toHaveLength(7);
    store.sync(many.slice(2), NOW);
    store.compact();
    expect(() => store.list(type, { ...everything, resourceVersion: "101", resourceVersionMatch: "Exact" })).toThrow(
      "The resourceVersion for the provided list is too old.",
    );
    expect(store.list(type, { ...everything, resourceVersion: "101", resourceVersionMatch: "NotOlderThan" }).items).toHaveLength(5);
    expect(() => store.list(type, { ...everything, resourceVersion: "99999" })).toThrow(expect.objectContaining({ code: 504 }));
    expect(() => store.list(type, { ...everything, resourceVersionMatch: "Exact" })).toThrow(expect.objectContaining({ code: 422 }));
  });

  it("rebuilds an Exact list at an older resourceVersion from the watch history", () => {
    const { store, type } = storeWith(many);
    const before = store.resourceVersion;
    store.sync(
      [...many.slice(1), ks("k9")].map((object) => (object.metadata.name === "k3" ? ks("k3", { spec: { interval: "1m" } }) : object)),
      NOW,
    );
    const then = store.list(type, { ...everything, resourceVersion: String(before), resourceVersionMatch: "Exact" });
    expect(then.resourceVersion).toBe(before);
    expect(then.items.map((item) => item.name)).toEqual(["k0", "k1", "k2", "k3", "k4", "k5", "k6"]);
    expect(then.items[3].object.spec).toMatchObject({ interval: "10m0s" });
    const now = store.list(type, everything);
    expect(now.items.map((item) => item.name)).toEqual(["k1", "k2", "k3", "k4", "k5", "k6", "k9"]);
  });

  it("rejects a garbage continue token like the apiserver", () => {
    const { store, type } = storeWith(many);
    expect(() => store.list(type, { ...everything, limit: 1, continueToken: "garbage-token" })).toThrow(
      "invalid continue token: continue key is not valid: illegal base64 data at input byte 12",
    );
  });

  it("replays watch history after a resourceVersion and refuses one older than the window", () => {
    const { store } = storeWith(many);
    store.sync(many.slice(1), NOW);
    const replay = store.eventsSince(105, "kustomize.toolkit.fluxcd.io/v1/kustomizations");
    expect(replay.map((event) => event.version.rv)).toEqual([106, 107, 108]);
    expect(() => store.eventsSince(50, "kustomize.toolkit.fluxcd.io/v1/kustomizations")).toThrow(/too old resource version: 50/);
  });

  it("keeps a watch cache per resource: once it drops old changes, resuming before them is too old", () => {
    const store = new ClusterStore("spoke-1", undefined, 100, 3);
    store.sync([ks("a"), ks("b")], NOW); // 101, 102
    const resource = "kustomize.toolkit.fluxcd.io/v1/kustomizations";
    expect(store.eventsSince(100, resource).map((event) => event.version.rv)).toEqual([101, 102]);
    store.sync([ks("a", { spec: { interval: "1m" } }), ks("b", { spec: { interval: "1m" } })], NOW); // 103, 104: 101 dropped
    expect(() => store.eventsSince(100, resource)).toThrow("too old resource version: 100 (101)");
    expect(store.eventsSince(101, resource).map((event) => event.version.rv)).toEqual([102, 103, 104]);
    expect(store.bookmarkRv(resource)).toBe(104);
    expect(store.bookmarkRv("/v1/events")).toBeNull();
  });
});
