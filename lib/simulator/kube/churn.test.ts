// The churn knob: every change is one a person cares about (a history row), spread over the fleet,
// deterministic for a seed, counted, and seen by watchers as exactly one MODIFIED event.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { caredFields, toFluxObject } from "../../kube/flux";
import type { FluxKind } from "../../kube/types";
import type { KubeObject } from "../contract";
import { createFleetModel } from "../fleet/index";
import { startSimulator } from "../index";
import { applyChurnMark, type ChurnCluster, type ChurnMark, churnMark, FleetChurn } from "./churn";
import { ClusterStore, type StoreEvent } from "./store";
import { healthyHelmRelease, healthyKustomization } from "./test-objects";

const NOW = Date.parse("2026-11-23T12:00:00Z");

const kustomization = (name: string, suspend = false) => healthyKustomization(name, { suspend });
const helmRelease = healthyHelmRelease;

const cared = (object: KubeObject) => caredFields(toFluxObject(object.kind as FluxKind, object));
const withMark = (object: KubeObject, mark: ChurnMark): KubeObject => ({ ...object, status: applyChurnMark(object, mark) });

describe("churn marks", () => {
  it("fail, recover and move a Kustomization to a new revision, each a change a person cares about", () => {
    let object = kustomization("apps");
    let previous: ChurnMark | undefined;
    const seen = [cared(object)];
    for (let seq = 1; seq <= 6; seq++) {
      const mark = churnMark(object, seq, previous, 7, NOW + seq * 1000);
      object = withMark(object, mark);
      previous = mark;
      seen.push(cared(object));
      expect(withMark(object, mark)).toEqual(object); // applying it again changes nothing
    }
    expect(seen.map((fields) => fields.health)).toEqual(["ready", "failing", "ready", "ready", "failing", "ready", "ready"]);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).not.toEqual(seen[i - 1]);
    const ready = (object.status as { conditions: { type: string; lastTransitionTime: string }[] }).conditions[0];
    // The last two changes kept Ready True: its transition time is the recovery's.
    expect(ready.lastTransitionTime).toBe(new Date(NOW + 5000).toISOString().replace(".000", ""));
  });

  it("upgrade a HelmRelease to the next chart version, then fail the one after, keeping what is deployed", () => {
    const first = churnMark(helmRelease("podinfo"), 1, undefined, 7, NOW);
    const upgraded = withMark(helmRelease("podinfo"), first);
    expect(cared(upgraded)).toMatchObject({ health: "ready", chartVersion: "6.7.2", attemptedRevision: "6.7.2", appliedRevision: "6.7.2" });
    expect(cared(upgraded).readyMessage).toBe("Helm upgrade succeeded for release monitoring/podinfo.v4 with chart podinfo@6.7.2");
    const failed = withMark(upgraded, churnMark(upgraded, 2, first, 7, NOW + 1000));
    expect(cared(failed)).toMatchObject({
      health: "failing",
      chartVersion: "6.7.2",
      attemptedRevision: "6.7.3",
      readyReason: "UpgradeFailed",
    });
    expect((failed.status as { history: unknown[] }).history).toHaveLength(2);
  });
});

function churnFleet(seed: number) {
  const clusters: ChurnCluster[] = ["a", "b", "c"].map((name) => {
    const store = new ClusterStore(name, undefined, 100);
    store.sync([kustomization("apps"), kustomization("infra"), kustomization("paused", true), helmRelease("podinfo")], NOW);
    return { name, store, reachable: () => name !== "c", load: () => undefined };
  });
  let real = 1_000_000;
  const churn = new FleetChurn(
    clusters,
    seed,
    () => NOW,
    () => real,
  );
  return { clusters, churn, advanceReal: (ms: number) => (real += ms) };
}

describe("FleetChurn", () => {
  it("gives the same changes for the same seed", () => {
    const run = (seed: number) => {
      const { churn, clusters } = churnFleet(seed);
      const changes = Array.from({ length: 12 }, () => churn.changeOne()!).map(({ at: _at, ...rest }) => rest);
      const objects = clusters.map((cluster) =>
        cluster.store.versionsOfKinds(new Set(["Kustomization", "HelmRelease"])).map((v) => v.version.json),
      );
      return { changes, objects };
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7).changes).not.toEqual(run(8).changes);
  });

  it("spreads changes over the reachable clusters, each object once before any twice, suspended ones never", () => {
    const { churn, clusters } = churnFleet(3);
    const events: StoreEvent[] = [];
    for (const cluster of clusters) cluster.store.subscribe((event) => events.push(event));
    const changes = Array.from({ length: 6 }, () => churn.changeOne()!);
    expect(new Set(changes.map((change) => change.cluster))).toEqual(new Set(["a", "b"]));
    for (const name of ["a", "b"]) {
      const touched = changes.filter((change) => change.cluster === name).map((change) => change.name);
      expect(touched.sort()).toEqual(["apps", "infra", "podinfo"]);
    }
    // One MODIFIED event per change, at the resourceVersion the change reports.
    expect(events.map((event) => [event.type, String(event.version.rv)])).toEqual(
      changes.map((change) => ["MODIFIED", change.resourceVersion]),
    );
  });

  it("changes one named object out of turn, logged like the others, and refuses an object it does not serve", () => {
    const { churn, clusters } = churnFleet(4);
    const first = churn.changeObject("b", "Kustomization", "flux-system", "apps")!;
    expect(first).toMatchObject({ seq: 1, cluster: "b", kind: "Kustomization", namespace: "flux-system", name: "apps", change: "failed" });
    const stored = clusters.find((c) => c.name === "b")!.store.versionsOfKinds(new Set(["Kustomization"]));
    const served = stored.find((v) => v.version.name === "apps")!.version.object;
    expect(cared(served).readyStatus).toBe("False");
    expect(churn.changeObject("b", "Kustomization", "flux-system", "apps")!.change).toBe("recovered");
    expect(churn.state().changes.map((c) => c.seq)).toEqual([1, 2]);
    expect(churn.changeObject("b", "Kustomization", "flux-system", "nope")).toBeNull();
    expect(churn.changeObject("nowhere", "Kustomization", "flux-system", "apps")).toBeNull();
  });

  it("keeps a steady rate, counts per cluster and hands out the changes after a sequence number", () => {
    const { churn, advanceReal } = churnFleet(5);
    churn.setRate(20);
    advanceReal(1_500);
    expect(churn.step()).toBe(30);
    advanceReal(100);
    expect(churn.step()).toBe(2);
    const state = churn.state();
    expect(state.total).toBe(32);
    expect(Object.values(state.perCluster).reduce((sum, cluster) => sum + cluster.count, 0)).toBe(32);
    expect(state.changes.map((change) => change.seq)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(churn.state(30).changes.map((change) => change.seq)).toEqual([31, 32]);
    churn.setRate(0);
    advanceReal(10_000);
    expect(churn.step()).toBe(0);
  });
});

describe("the churn knob in the running simulator", () => {
  it("changes the scenario fleet at the rate asked for, and the control API reports it", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "sim-churn-"));
    const epoch = Date.now();
    const sim = await startSimulator({
      outDir,
      model: createFleetModel({ clusters: 4, objects: 20, seed: 3, epoch }),
      speed: 0,
      churn: 40,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 600));
      const state = (await (await fetch(`${sim.controlUrl}/churn`)).json()) as ReturnType<typeof sim.churn>;
      expect(state.rate).toBe(40);
      expect(state.total).toBeGreaterThanOrEqual(12);
      expect(state.changes).toHaveLength(state.total);
      expect(new Set(state.changes.map((change) => change.cluster)).size).toBe(4);
      for (const change of state.changes.slice(0, 12)) {
        const { store } = sim.runtime.handle(change.cluster);
        const type = store.versionsOfKinds(new Set([change.kind])).find((candidate) => candidate.version.name === change.name)!.type;
        expect(Number(store.get(type, change.namespace, change.name).rv)).toBeGreaterThanOrEqual(Number(change.resourceVersion));
      }
      await fetch(`${sim.controlUrl}/churn`, { method: "POST", body: JSON.stringify({ rate: 0 }) });
      const stopped = sim.churn().total;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sim.churn().total).toBe(stopped);
    } finally {
      await sim.stop();
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
