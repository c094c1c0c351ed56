import { describe, expect, it } from "vitest";
import { holdsResourceVersion, type KnownObjects, packKnown, reconcileList, unpackKnown } from "./reconcile";

const TYPE = { apiVersion: "kustomize.toolkit.fluxcd.io/v1", kind: "Kustomization" };
const ks = (name: string, resourceVersion: string, uid = `uid-${name}`) => ({
  ...TYPE,
  metadata: { namespace: "flux-system", name, resourceVersion, uid },
});

describe("reconcileList", () => {
  it("reports only what moved since the objects it knew", () => {
    const known: KnownObjects = new Map([
      ["flux-system/same", packKnown("10", "uid-same")],
      ["flux-system/changed", packKnown("11", "uid-changed")],
      ["flux-system/gone", packKnown("12", "uid-gone")],
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
    const known: KnownObjects = new Map([["flux-system/apps", packKnown("5", "old")]]);
    const changes = reconcileList(known, [ks("apps", "9", "new")], TYPE);
    expect(changes.map((change) => [change.type, (change.object.metadata as { uid: string }).uid])).toEqual([
      ["deleted", "old"],
      ["added", "new"],
    ]);
  });

  it("reconciles against resourceVersions the consumer already had (no uid known)", () => {
    const known: KnownObjects = new Map([["flux-system/apps", packKnown("5", null)]]);
    expect(reconcileList(known, [ks("apps", "5")], TYPE)).toEqual([]);
    expect(known.get("flux-system/apps")).toEqual(packKnown("5", "uid-apps"));
  });

  it("packs a resourceVersion and a uid into one string and tells resourceVersions apart exactly", () => {
    expect(unpackKnown(packKnown("123", "9f0c-uid"))).toEqual({ resourceVersion: "123", uid: "9f0c-uid" });
    expect(unpackKnown(packKnown("123", null))).toEqual({ resourceVersion: "123", uid: null });
    expect(holdsResourceVersion(packKnown("123", "u"), "123")).toBe(true);
    expect(holdsResourceVersion(packKnown("123", null), "123")).toBe(true);
    // A prefix is not the same resourceVersion.
    expect(holdsResourceVersion(packKnown("1234", "u"), "123")).toBe(false);
    expect(holdsResourceVersion(packKnown("1234", null), "123")).toBe(false);
    expect(holdsResourceVersion(packKnown("12", "u"), "123")).toBe(false);
    expect(holdsResourceVersion(undefined, "123")).toBe(false);
    // resourceVersions are opaque: even one with a space survives the packing.
    expect(unpackKnown(packKnown("a b", "u"))).toEqual({ resourceVersion: "a b", uid: "u" });
    expect(unpackKnown(packKnown("a b", null))).toEqual({ resourceVersion: "a b", uid: null });
    expect(holdsResourceVersion(packKnown("a b", null), "a")).toBe(false);
    expect(holdsResourceVersion(packKnown("a b", "u"), "a b")).toBe(true);
  });
});
