import { describe, expect, it } from "vitest";
import { buildAddonMatrix } from "./addon-matrix";
import { helmInstallation, type StoredHelmRelease } from "./helm-installation";

const stored = (over: Partial<StoredHelmRelease> = {}): StoredHelmRelease => ({
  holder: "spoke",
  target: null,
  namespace: "monitoring",
  name: "prometheus",
  chart: "prometheus",
  repositoryUrl: "https://prometheus-community.github.io/helm-charts",
  desired: "27.x",
  deployed: "27.45.0",
  health: "ready",
  ...over,
});

describe("helmInstallation", () => {
  it("a release counts in its own cluster's column when it deploys there", () => {
    expect(helmInstallation(stored())).toMatchObject({ cluster: "spoke", objectCluster: "spoke", applied: "27.45.0", failing: false });
  });

  it("a hub release deploying into a spoke (spec.kubeConfig) counts in the spoke's column, held by the hub", () => {
    const install = helmInstallation(stored({ holder: "hub", target: "spoke", namespace: "flux-system", name: "monitoring-agent-spoke" }));
    expect(install).toMatchObject({ cluster: "spoke", objectCluster: "hub" });
    const [row] = buildAddonMatrix({ clusters: ["hub", "spoke"], helm: [install], upstream: new Map(), managed: [], flux: [] });
    expect(row.cells.hub.standing).toBe("missing");
    expect(row.cells.spoke).toMatchObject({ fromHub: 1, applied: "27.45.0" });
  });

  it("the version is the deployed one, never the desired or attempted one: a failed install has none", () => {
    const failed = helmInstallation(stored({ deployed: null, desired: "3.13.0", health: "stalled" }));
    expect(failed).toMatchObject({ applied: null, desired: "3.13.0", failing: true });
    const [row] = buildAddonMatrix({ clusters: ["spoke"], helm: [failed], upstream: new Map(), managed: [], flux: [] });
    expect(row.cells.spoke.applied).toBeNull();
    expect(row.cells.spoke.notInstalled).toBe(1);
  });

  it("a failed upgrade keeps the deployed version (attempted is not deployed)", () => {
    expect(helmInstallation(stored({ deployed: "27.45.0", desired: "28.0.0", health: "failing" }))).toMatchObject({
      applied: "27.45.0",
      failing: true,
    });
  });
});
