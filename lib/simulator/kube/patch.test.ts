import { describe, expect, it } from "vitest";
import { applyJsonPatch, applyMergePatch, composeMergePatches, diffAsMergePatch } from "./patch";

describe("merge patch", () => {
  const object = { metadata: { name: "apps", annotations: { a: "1" } }, spec: { suspend: true, interval: "10m" } };

  it("sets, replaces and removes fields without touching the input", () => {
    const patched = applyMergePatch(object, { metadata: { annotations: { b: "2" } }, spec: { suspend: null } });
    expect(patched).toEqual({ metadata: { name: "apps", annotations: { a: "1", b: "2" } }, spec: { interval: "10m" } });
    expect(object.spec.suspend).toBe(true);
  });

  it("composes two patches into one with the same effect", () => {
    const first = { spec: { suspend: true }, metadata: { labels: { x: "1" } } };
    const second = { spec: { suspend: null }, metadata: { labels: { y: "2" } } };
    const composed = composeMergePatches(first, second);
    expect(applyMergePatch(object, composed)).toEqual(applyMergePatch(applyMergePatch(object, first), second));
  });

  it("diffs two documents into the patch that turns one into the other", () => {
    const to = { metadata: { name: "apps", annotations: { a: "2" } }, spec: { interval: "5m" } };
    const patch = diffAsMergePatch(object, to);
    expect(patch).toEqual({ metadata: { annotations: { a: "2" } }, spec: { suspend: null, interval: "5m" } });
    expect(applyMergePatch(object, patch)).toEqual(to);
    expect(diffAsMergePatch(object, structuredClone(object))).toBeUndefined();
  });
});

describe("JSON patch", () => {
  it("applies add, replace, remove, test, copy and move", () => {
    const result = applyJsonPatch({ metadata: { annotations: { a: "1" } }, list: [1, 2] }, [
      { op: "test", path: "/metadata/annotations/a", value: "1" },
      { op: "add", path: "/metadata/annotations/reconcile.fluxcd.io~1requestedAt", value: "now" },
      { op: "replace", path: "/list/0", value: 9 },
      { op: "add", path: "/list/-", value: 3 },
      { op: "copy", from: "/list/0", path: "/copied" },
      { op: "move", from: "/copied", path: "/moved" },
      { op: "remove", path: "/metadata/annotations/a" },
    ]);
    expect(result).toEqual({ metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": "now" } }, list: [9, 2, 3], moved: 9 });
  });

  it("rejects a failed test and a missing path with 422", () => {
    expect(() => applyJsonPatch({ a: 1 }, [{ op: "test", path: "/a", value: 2 }])).toThrow(expect.objectContaining({ code: 422 }));
    expect(() => applyJsonPatch({ a: 1 }, [{ op: "remove", path: "/b" }])).toThrow(expect.objectContaining({ code: 422 }));
    expect(() => applyJsonPatch({ a: 1 }, { op: "add" })).toThrow(expect.objectContaining({ code: 400 }));
  });
});
