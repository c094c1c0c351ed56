import { describe, expect, it } from "vitest";
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from "./selectors";

describe("label selectors", () => {
  const labels = { env: "prod", team: "payments", tier: "gold" };
  const matches = (selector: string, target: Record<string, string> | undefined = labels) =>
    matchesLabels(parseLabelSelector(selector), target);

  it("supports =, ==, !=, in, notin, exists and !exists", () => {
    expect(matches("env=prod,team==payments")).toBe(true);
    expect(matches("env!=prod")).toBe(false);
    expect(matches("env in (staging, prod)")).toBe(true);
    expect(matches("env notin (prod)")).toBe(false);
    expect(matches("tier")).toBe(true);
    expect(matches("!tier")).toBe(false);
    expect(matches("missing!=x")).toBe(true);
    expect(matchesLabels(parseLabelSelector("env"), undefined)).toBe(false);
  });

  it("rejects malformed selectors with 400", () => {
    expect(() => parseLabelSelector("env=pr od")).toThrow(expect.objectContaining({ code: 400 }));
  });
});

describe("field selectors", () => {
  const event = {
    metadata: { name: "apps.1", namespace: "flux-system" },
    involvedObject: { kind: "Kustomization", name: "apps" },
    type: "Warning",
    source: { component: "kustomize-controller" },
  };
  const fields = ["involvedObject.kind", "involvedObject.name", "type", "source"];

  it("matches event fields, equality and inequality", () => {
    expect(matchesFields(parseFieldSelector("involvedObject.name=apps,involvedObject.kind=Kustomization", fields, false), event)).toBe(
      true,
    );
    expect(matchesFields(parseFieldSelector("type!=Warning", fields, false), event)).toBe(false);
    expect(matchesFields(parseFieldSelector("source=kustomize-controller,metadata.namespace=flux-system", fields, false), event)).toBe(
      true,
    );
  });

  it("answers unsupported fields like the apiserver does for core and custom kinds", () => {
    expect(() => parseFieldSelector("spec.foo=1", [], false)).toThrow("field label not supported: spec.foo");
    expect(() => parseFieldSelector("spec.foo=1", [], true)).toThrow(
      '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });
});
