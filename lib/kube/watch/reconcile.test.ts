import { describe, expect, it } from "vitest";
import { type KnownObjects, reconcileList } from "./reconcile";

const TYPE = { apiVersion: "kustomize.toolkit.fluxcd.io/v1", kind: "Kustomization" };
const ks = (name: string, resourceVersion: string, uid = `uid-${name}`) => ({
  ...TYPE,
  metadata: { namespace: "flux-system", name, resourceVersion, uid },
});

describe("reconcileList", () => {
  it("reports only what moved since the objects it knew", () => {
    const known: KnownObjects = new Map([
      ["flux-system/same", { resourceVersion: "10", uid: "uid-same" }],
      ["flux-system/changed", { resourceVersion: "11", uid: "uid-changed" }],
      ["flux-system/gone", { resourceVersion: "12", uid: "uid-gone" }],
    ]);
    const changes = reconcileList(known, [ks("same", "10"), ks("changed", "20"), ks("new", "21")], TYPE);
    expect(changes.map((change) => [change.type, change.key])).toEqual([
      ["modified", "flux-system/changed"],
      ["added", "flux-system/new"],
      ["deleted", "flux-system/gone"],
    ]);
    expect(changes[2].object).toEqual({
      ...TYPE,
      metadata: { namespace: "flux-system", name: "gone", uid: "uid-gone", resourceVersion: "12" },
    });
    expect([...known.keys()].sort()).toEqual(["flux-system/changed", "flux-system/new", "flux-system/same"]);
    expect(reconcileList(known, [ks("same", "10"), ks("changed", "20"), ks("new", "21")], TYPE)).toEqual([]);
  });

  it("takes an object recreated under the same name for a deletion and an addition", () => {
    const known: KnownObjects = new Map([["flux-system/apps", { resourceVersion: "5", uid: "old" }]]);
    const changes = reconcileList(known, [ks("apps", "9", "new")], TYPE);
    expect(changes.map((change) => [change.type, (change.object.metadata as { uid: string }).uid])).toEqual([
      ["deleted", "old"],
      ["added", "new"],
    ]);
  });

  it("reconciles against resourceVersions the consumer already had (no uid known)", () => {
    const known: KnownObjects = new Map([["flux-system/apps", { resourceVersion: "5", uid: null }]]);
    expect(reconcileList(known, [ks("apps", "5")], TYPE)).toEqual([]);
    expect(known.get("flux-system/apps")).toEqual({ resourceVersion: "5", uid: "uid-apps" });
  });
});
