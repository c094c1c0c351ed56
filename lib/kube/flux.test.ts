import { describe, expect, it } from "vitest";
import { fixtureItems } from "./fixtures";
import { caredFields, contentHash, stableStringify, toFluxObject } from "./flux";
import type { FluxObjectRecord } from "./types";

const byName = (items: Record<string, unknown>[], name: string) => items.find((i) => (i.metadata as { name: string }).name === name)!;

describe("toFluxObject", () => {
  it("maps a failing Kustomization with its revisions, source, dependencies and last reconcile", () => {
    const items = fixtureItems("02-list-kustomizations-all.http");
    const r = toFluxObject("Kustomization", byName(items, "apps"));
    expect(r).toMatchObject({
      kind: "Kustomization",
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      namespace: "flux-system",
      name: "apps",
      health: "failing",
      readyStatus: "False",
      readyReason: "HealthCheckFailed",
      attemptedRevision: "main@sha1:14f23760b24abde0bb034bb1efef3e97dba07b49",
      appliedRevision: "main@sha1:87c499ee28800af772e1facb0da6b145b94d38e0",
      sourceKind: "GitRepository",
      sourceNamespace: "flux-system",
      sourceName: "flux-system",
      dependsOn: ["flux-system/infrastructure"],
      interval: "10m0s",
      intervalSeconds: 600,
      lastReconcileAt: "2026-11-21T19:18:17.000Z",
    });
    expect(r.readyMessage).toContain("health check failed");
    expect(r.inventory).toEqual([
      { id: "_podinfo__Namespace", v: "v1" },
      { id: "podinfo_podinfo_helm.toolkit.fluxcd.io_HelmRelease", v: "v2" },
    ]);
    expect(JSON.stringify(r)).not.toContain("managedFields");
  });

  it("maps a HelmRelease's chart, versions and drops Helm values", () => {
    const items = fixtureItems("33-list-helmreleases-all.http");
    const raw = items[0];
    const r = toFluxObject("HelmRelease", raw);
    const history = (raw.status as { history: Array<Record<string, string>> }).history;
    expect(r.chartName).toBe(history[0].chartName);
    expect(r.chartVersion).toBe(history[0].chartVersion);
    expect(r.sourceKind).toBe("HelmRepository");
    expect(r.desiredChartVersion).toBe((raw.spec as { chart: { spec: { version?: string } } }).chart.spec.version ?? null);
    expect(r.spec).not.toHaveProperty("values");
    expect(r.health).toMatch(/ready|failing|progressing|stalled/);
  });

  it("maps sources with their artifact revision and URL", () => {
    for (const [file, kind] of [
      ["30-list-gitrepositories-all.http", "GitRepository"],
      ["31-list-helmrepositories-all.http", "HelmRepository"],
      ["32-list-helmcharts-all.http", "HelmChart"],
    ] as const) {
      for (const raw of fixtureItems(file)) {
        const r = toFluxObject(kind, raw);
        const artifact = (raw.status as { artifact?: { revision?: string } }).artifact;
        expect(r.appliedRevision).toBe(artifact?.revision ?? null);
        if (kind !== "HelmChart") expect(r.url).toBe((raw.spec as { url: string }).url);
        else expect(r.chartName).toBe((raw.spec as { chart: string }).chart);
      }
    }
  });

  it("marks a suspended object suspended whatever its conditions say", () => {
    const raw = structuredClone(byName(fixtureItems("02-list-kustomizations-all.http"), "apps"));
    (raw.spec as Record<string, unknown>).suspend = true;
    const r = toFluxObject("Kustomization", raw);
    expect(r.health).toBe("suspended");
    expect(r.suspended).toBe(true);
  });
});

describe("contentHash", () => {
  it("is the same for the same object whatever its resourceVersion, and differs when a message changes", () => {
    const raw = byName(fixtureItems("02-list-kustomizations-all.http"), "apps");
    const a = toFluxObject("Kustomization", raw);
    const copy = structuredClone(raw);
    (copy.metadata as Record<string, unknown>).resourceVersion = "999";
    const hashOf = (record: FluxObjectRecord) => contentHash(JSON.stringify(record));
    expect(hashOf(toFluxObject("Kustomization", copy))).toBe(hashOf(a));
    (copy.status as { conditions: Array<Record<string, string>> }).conditions[0].message = "other";
    const b = toFluxObject("Kustomization", copy);
    expect(hashOf(b)).not.toBe(hashOf(a));
    expect(caredFields(b)).not.toEqual(caredFields(a));
  });

  it("stableStringify ignores key order", () => {
    expect(stableStringify({ b: 1, a: [1, { d: 2, c: 3 }] })).toBe(stableStringify({ a: [1, { c: 3, d: 2 }], b: 1 }));
  });
});
