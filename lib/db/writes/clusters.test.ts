import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../testing/db";
import type { KubePollResult } from "../types";
import { recordPollSuccesses, upsertDiscoveredClusters, versionsDiffer } from "./clusters";

const db = useTestDatabase();

const poll = (over: Partial<KubePollResult> = {}): KubePollResult => ({
  ok: true,
  latencyMs: 12,
  requests: 3,
  objectCount: 150,
  kubernetesVersion: "v1.33.4-eks-3025e55",
  kubeletVersions: { "v1.33.4-eks-3025e55": 3 },
  fluxVersion: "v2.7.3",
  fluxReport: { distribution: { version: "v2.7.3" } },
  substitutions: null,
  healthCounts: { Kustomization: { ready: 150 } },
  ...over,
});

describe("recordPollSuccesses", () => {
  it("writes what the cluster said, and for a success with nothing new only the time, keeping the rest", async () => {
    const ids = await upsertDiscoveredClusters(db.pool(), [
      {
        name: "spoke-a",
        role: "spoke",
        accessPaths: [],
        endpoint: null,
        eksArn: null,
        eksName: null,
        region: null,
        accountId: null,
        env: null,
        team: null,
        labels: {},
        provisioning: null,
        desiredVersion: null,
        provisioners: [],
        crossplaneFacts: null,
        nodeGroups: [],
      },
    ]);
    const id = ids.get("spoke-a")!;
    const first = new Date("2026-11-26T10:00:00.000Z");
    const later = new Date("2026-11-26T10:01:00.000Z");
    await recordPollSuccesses(db.pool(), [{ clusterId: id, at: first, poll: poll() }]);
    await recordPollSuccesses(db.pool(), [{ clusterId: id, at: later, poll: null }]);
    const { rows } = await db.pool().query(
      `SELECT "lastSuccessAt", "lastAttemptAt", "latencyMs", "objectCount", "kubernetesVersion", "kubeletVersions", "fluxVersion", "healthCounts"
           FROM cluster WHERE id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({
      lastSuccessAt: later,
      lastAttemptAt: later,
      latencyMs: 12,
      objectCount: 150,
      kubernetesVersion: "v1.33.4-eks-3025e55",
      kubeletVersions: { "v1.33.4-eks-3025e55": 3 },
      fluxVersion: "v2.7.3",
      healthCounts: { Kustomization: { ready: 150 } },
    });
  });
});

describe("versionsDiffer", () => {
  const row = { kubernetesVersion: "v1.33.4", fluxVersion: "v2.7.3", kubeletVersions: { "v1.33.4": 2, "v1.32.9": 1 } };
  it("is false for the versions the row holds, and for versions not seen (null)", () => {
    expect(
      versionsDiffer(row, { kubernetesVersion: "v1.33.4", fluxVersion: "v2.7.3", kubeletVersions: { "v1.32.9": 1, "v1.33.4": 2 } }),
    ).toBe(false);
    expect(versionsDiffer(row, { kubernetesVersion: null, fluxVersion: null, kubeletVersions: null })).toBe(false);
  });
  it("is true for a new control plane, Flux, kubelet version or kubelet count, and for a first reading", () => {
    const same = { kubernetesVersion: "v1.33.4", fluxVersion: "v2.7.3", kubeletVersions: row.kubeletVersions };
    expect(versionsDiffer(row, { ...same, kubernetesVersion: "v1.34.1" })).toBe(true);
    expect(versionsDiffer(row, { ...same, fluxVersion: "v2.8.0" })).toBe(true);
    expect(versionsDiffer(row, { ...same, kubeletVersions: { "v1.33.4": 3 } })).toBe(true);
    expect(versionsDiffer(row, { ...same, kubeletVersions: { "v1.33.4": 3, "v1.32.9": 1 } })).toBe(true);
    expect(versionsDiffer({ kubernetesVersion: null, fluxVersion: null, kubeletVersions: null as never }, same)).toBe(true);
  });
});
