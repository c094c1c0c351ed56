import { describe, expect, it } from "vitest";
import { fluxNamespaceVersion, fluxVersionOf } from "./poll";

const ns = (name: string, labels: Record<string, string>) => ({ apiVersion: "v1", kind: "Namespace", metadata: { name, labels } });

describe("Flux version of a cluster", () => {
  it("comes from the label flux install puts on its namespace", () => {
    expect(fluxNamespaceVersion([ns("flux-system", { "app.kubernetes.io/part-of": "flux", "app.kubernetes.io/version": "v2.8.5" })])).toBe(
      "v2.8.5",
    );
    expect(fluxNamespaceVersion([ns("flux-system", { "app.kubernetes.io/part-of": "flux" })])).toBeNull();
    expect(fluxNamespaceVersion([])).toBeNull();
  });

  it("prefers the Flux Operator's report when there is one", () => {
    expect(fluxVersionOf({ distribution: { version: "v2.9.4" } } as never, "v2.8.5")).toBe("v2.9.4");
    expect(fluxVersionOf(null, "v2.8.5")).toBe("v2.8.5");
    expect(fluxVersionOf(null, null)).toBeNull();
  });
});
