import { describe, expect, it } from "vitest";
import { fluxEventSchema, revisionOf } from "./payload";
import { keyForCluster, sign, verifySignature } from "./signature";

describe("generic-hmac signature", () => {
  const body = new TextEncoder().encode('{"a":1}');
  it("matches notification-controller's format: sha256=<lowercase hex>", () => {
    // computed with: echo -n '{"a":1}' | openssl dgst -sha256 -hmac key
    expect(sign(body, "key")).toBe("sha256=88a67f24bbcdaed0e6c997404bb79a743baf44c6bab2f4c27328e3009d22e342");
    expect(sign(body, "key")).toMatch(/^sha256=[0-9a-f]{64}$/);
  });
  it("verifies and rejects", () => {
    expect(verifySignature(body, sign(body, "key"), "key")).toBe(true);
    expect(verifySignature(body, sign(body, "key").toUpperCase().replace("SHA256", "sha256"), "key")).toBe(true);
    expect(verifySignature(body, sign(body, "other"), "key")).toBe(false);
    expect(verifySignature(body, null, "key")).toBe(false);
    expect(verifySignature(body, "sha256=zz", "key")).toBe(false);
  });
  it("picks the cluster's key, else the default", () => {
    expect(keyForCluster("a", ["a=k1", "b=k2"], "d")).toBe("k1");
    expect(keyForCluster("c", ["a=k1"], "d")).toBe("d");
    expect(keyForCluster("c", [], undefined)).toBeNull();
  });
});

describe("Flux event payload", () => {
  it("accepts the documented example and finds the revision in either metadata form", () => {
    const doc = fluxEventSchema.parse({
      involvedObject: {
        apiVersion: "kustomize.toolkit.fluxcd.io/v1",
        kind: "Kustomization",
        name: "webapp",
        namespace: "apps",
        uid: "7d0cdc51-ddcf-4743-b223-83ca5c699632",
      },
      metadata: { "kustomize.toolkit.fluxcd.io/revision": "main/731f7eaddfb6af01cb2173e18f0f75b0ba780ef1" },
      severity: "error",
      reason: "ValidationFailed",
      message: "service/apps/webapp validation error: spec.type: Unsupported value: Ingress",
      reportingController: "kustomize-controller",
      reportingInstance: "kustomize-controller-7c7b47f5f-8bhrp",
      timestamp: "2022-10-28T07:26:19Z",
    });
    expect(revisionOf(doc)).toBe("main/731f7eaddfb6af01cb2173e18f0f75b0ba780ef1");
    expect(revisionOf({ ...doc, metadata: { revision: "main@sha1:abc", summary: "x" } })).toBe("main@sha1:abc");
  });
});
