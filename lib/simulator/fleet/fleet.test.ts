import { HelmRelease } from "@kubernetes-models/flux-cd/helm.toolkit.fluxcd.io/v2";
import { Kustomization } from "@kubernetes-models/flux-cd/kustomize.toolkit.fluxcd.io/v1";
import { GitRepository, HelmChart, HelmRepository, OCIRepository } from "@kubernetes-models/flux-cd/source.toolkit.fluxcd.io/v1";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import type { KubeObject, RuntimeInfo } from "../contract";
import { verifyEksToken } from "../aws/token";
import { createFleetModel, DISCOVERY_LABEL, TIMELINE } from "./index";

const MIN = 60_000;
const runtime: RuntimeInfo = {
  endpointOf: (cluster) => `https://127.0.0.1:${20000 + cluster.length}`,
  caDataOf: () => Buffer.from("-----BEGIN CERTIFICATE-----\nMIIBsim\n-----END CERTIFICATE-----\n").toString("base64"),
  stsEndpoint: "https://127.0.0.1:19443",
};

const validators: Record<string, new (data: never) => { validate(): void }> = {
  Kustomization: Kustomization as never,
  HelmRelease: HelmRelease as never,
  GitRepository: GitRepository as never,
  OCIRepository: OCIRepository as never,
  HelmRepository: HelmRepository as never,
  HelmChart: HelmChart as never,
};

const EPOCH = Date.UTC(2026, 10, 21, 20, 0, 0);
const model = createFleetModel({ clusters: 14, objects: 60, seed: 7, epoch: EPOCH });
const at = (rel: number) => model.epoch + rel;
const find = (objects: KubeObject[], kind: string, namespace: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.namespace === namespace && o.metadata.name === name);
const ready = (o: KubeObject | undefined) =>
  (o?.status as { conditions?: { type: string; status: string; reason: string; message: string }[] })?.conditions?.find(
    (c) => c.type === "Ready",
  );
const condition = (o: KubeObject | undefined, type: string) =>
  (o?.status as { conditions?: { type: string; status: string; reason: string; message: string }[] })?.conditions?.find(
    (c) => c.type === type,
  );

describe("fleet model", () => {
  it("shapes every Flux object exactly like the served CRD versions, at every scenario phase", () => {
    let checked = 0;
    for (const rel of [0, 90_000, 130_000, 5 * MIN, 14 * MIN, 40 * MIN]) {
      for (const cluster of model.clusters) {
        for (const object of model.objectsAt(cluster.name, at(rel), runtime)) {
          const Model = validators[object.kind];
          if (!Model) continue;
          expect(() => new Model(object as never).validate(), `${cluster.name} ${object.kind} ${object.metadata.name}`).not.toThrow();
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });

  it("is deterministic for a seed and differs between seeds", () => {
    const again = createFleetModel({ clusters: 14, objects: 60, seed: 7, epoch: EPOCH });
    const other = createFleetModel({ clusters: 14, objects: 60, seed: 8, epoch: EPOCH });
    const cluster = model.clusters[3].name;
    expect(JSON.stringify(again.objectsAt(cluster, at(7 * MIN), runtime))).toBe(
      JSON.stringify(model.objectsAt(cluster, at(7 * MIN), runtime)),
    );
    expect(JSON.stringify(again.objectsAt("hub", at(7 * MIN), runtime))).toBe(JSON.stringify(model.objectsAt("hub", at(7 * MIN), runtime)));
    const revision = (m: typeof model) =>
      (find(m.objectsAt(cluster, at(0), runtime), "GitRepository", "flux-system", "apps")!.status as { artifact: { revision: string } })
        .artifact.revision;
    expect(revision(other)).not.toBe(revision(model));
    expect(revision(model)).toMatch(/^main@sha1:[0-9a-f]{40}$/);
  });

  it("breaks `apps` in the bad-commit clusters with one normalisable message, then the fix heals them", () => {
    const affected = model.facts.badCommit.clusters;
    expect(affected.length).toBeGreaterThanOrEqual(3);
    const healthy = model.spokes.filter((s) => !affected.includes(s.name) && !s.roles.includes("dependency-chain")).map((s) => s.name);

    // Healthy before the bad commit (pushed 30 min before t0), already failing at t0.
    for (const cluster of affected)
      expect(ready(find(model.objectsAt(cluster, at(-31 * MIN), runtime), "Kustomization", "flux-system", "apps"))?.status).toBe("True");
    for (const cluster of affected)
      expect(ready(find(model.objectsAt(cluster, at(0), runtime), "Kustomization", "flux-system", "apps"))?.status).toBe("False");

    const messages = new Set<string>();
    const revisions = new Set<string>();
    for (const cluster of affected) {
      const objects = model.objectsAt(cluster, at(14 * MIN), runtime);
      const apps = find(objects, "Kustomization", "flux-system", "apps")!;
      const r = ready(apps)!;
      expect(r.status).toBe("False");
      expect(r.reason).toBe("HealthCheckFailed");
      messages.add(r.message.replace(/\d+m[\d.]+s/, "<duration>"));
      revisions.add((apps.status as { lastAttemptedRevision: string }).lastAttemptedRevision);
      const events = objects.filter((o) => o.kind === "Event" && (o.involvedObject as { name: string }).name === "apps");
      expect(events[0]).toMatchObject({ reason: "HealthCheckFailed", type: "Warning", reportingComponent: "kustomize-controller" });
      expect((events[0] as unknown as { count: number }).count).toBeGreaterThanOrEqual(2);
    }
    expect([...messages]).toEqual([
      "health check failed after <duration>: timeout waiting for: [Deployment/checkout/checkout-api status: 'InProgress']",
    ]);
    expect(revisions.size).toBe(1);
    for (const cluster of healthy)
      expect(ready(find(model.objectsAt(cluster, at(14 * MIN), runtime), "Kustomization", "flux-system", "apps"))?.status).toBe("True");

    for (const cluster of affected) {
      const apps = find(model.objectsAt(cluster, at(22 * MIN), runtime), "Kustomization", "flux-system", "apps")!;
      expect(ready(apps)).toMatchObject({ status: "True", reason: "ReconciliationSucceeded" });
      const history = (apps.status as { history: { lastReconciledStatus: string }[] }).history;
      expect(history.map((h) => h.lastReconciledStatus)).toContain("HealthCheckFailed");
    }
  });

  it("keeps the documented windows of the default fleet", () => {
    const fleet = createFleetModel({ clusters: 12, objects: 40, seed: 99, epoch: EPOCH });
    expect(fleet.facts.badCommit.clusters).toEqual(["staging-use1-002", "staging-usw2-006", "staging-use1-010"]);
    expect(fleet.facts.extendedSupport?.cluster).toBe("prod-apse2-007");
    expect(fleet.facts.removedApi?.cluster).toBe("staging-usw2-006");
    const appsReady = (cluster: string, rel: number) =>
      ready(find(fleet.objectsAt(cluster, at(rel), runtime), "Kustomization", "flux-system", "apps"))?.status;
    for (const rel of [0, 5 * MIN, 6 * MIN + 9_000, 9 * MIN, 15 * MIN + 9_000]) {
      for (const cluster of fleet.facts.badCommit.clusters) expect(appsReady(cluster, rel), `${cluster} at ${rel}`).toBe("False");
    }
    for (const cluster of fleet.facts.badCommit.clusters) expect(appsReady(cluster, 16 * MIN + 15_000)).toBe("True");
  });

  it("keeps a 32 KiB health-check message on `tenants`: trimmed in the conditions, whole in the Events, reordered per attempt", () => {
    const { cluster, namespace, name } = model.facts.hugeMessage!;
    const objects = model.objectsAt(cluster, at(0), runtime);
    const tenants = find(objects, "Kustomization", namespace, name)!;
    expect(() => new Kustomization(tenants as never).validate()).not.toThrow();
    const r = ready(tenants)!;
    expect(r).toMatchObject({ status: "False", reason: "HealthCheckFailed" });
    // fluxcd/pkg runtime/conditions keeps 32,768 bytes, the last three "..."; the CRD allows exactly that.
    expect(r.message).toHaveLength(32_768);
    expect(r.message).toMatch(
      /^health check failed after 10m0\.\d+s: timeout waiting for: \[Deployment\/tenant-\d{3}\/(web|worker) status: 'InProgress', /,
    );
    expect(r.message.endsWith("...")).toBe(true);
    expect(condition(tenants, "Healthy")!.message).toBe(r.message);
    const events = objects.filter((o) => o.kind === "Event" && (o.involvedObject as { name: string }).name === name) as unknown as {
      message: string;
      reason: string;
    }[];
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events[0].reason).toBe("HealthCheckFailed");
    expect(events[0].message.length).toBeGreaterThan(32_768);
    expect(events[0].message.startsWith(r.message.slice(0, -3))).toBe(true);
    expect(events[0].message.match(/Deployment\//g)).toHaveLength(760);
    // The next attempt lists the same resources in another order (a Go map), so the text changes.
    const next = ready(find(model.objectsAt(cluster, at(15 * MIN), runtime), "Kustomization", namespace, name))!;
    expect(next.message).not.toBe(r.message);
    expect(model.changedClusters(at(14 * MIN), at(16 * MIN))).toContain(cluster);
    // Only that spoke has it.
    for (const other of model.spokes.filter((s) => s.name !== cluster))
      expect(find(model.objectsAt(other.name, at(0), runtime), "Kustomization", namespace, name)).toBeUndefined();
  });

  it("gives one spoke many objects with objectsBySpoke, the others keep the fleet's count", () => {
    const big = createFleetModel({ clusters: 12, objects: 40, seed: 7, epoch: EPOCH, objectsBySpoke: { "staging-use1-002": 1_300 } });
    const flux = (cluster: string) => big.objectsAt(cluster, big.epoch, runtime).filter((o) => validators[o.kind]).length;
    expect(flux("staging-use1-002")).toBeGreaterThanOrEqual(1_300);
    expect(flux("prod-use1-001")).toBeLessThan(60);
  });

  it("retries a failing HelmRelease upgrade, rolls back between attempts and stalls after three, as helm-controller does", () => {
    const { cluster, namespace, name } = model.facts.helmUpgradeStall!;
    const hr = (rel: number) => find(model.objectsAt(cluster, at(rel), runtime), "HelmRelease", namespace, name)!;
    const history = (o: KubeObject) =>
      (o.status as { history: { version: number; status: string; chartVersion: string; action?: string }[] }).history;
    expect(ready(hr(30_000))?.status).toBe("True");
    // Attempt 1 failed at 1:40: Released False, Ready False UpgradeFailed until the rollback 5 s later.
    expect(ready(hr(102_000))).toMatchObject({ status: "False", reason: "UpgradeFailed" });
    expect(
      history(hr(102_000))
        .slice(0, 2)
        .map((h) => h.status),
    ).toEqual(["failed", "deployed"]);
    // The rollback is a new deployed release of the old chart; Ready mirrors Remediated.
    expect(condition(hr(110_000), "Reconciling")).toMatchObject({ reason: "ProgressingWithRetry" });
    expect(ready(hr(110_000))).toMatchObject({ status: "False", reason: "RollbackSucceeded" });
    expect(history(hr(110_000)).map((h) => [h.status, h.chartVersion])).toEqual([
      ["deployed", "77.14.0"],
      ["failed", "79.5.0"],
      ["superseded", "77.14.0"],
    ]);
    const stalled = hr(6 * MIN);
    expect(condition(stalled, "Stalled")).toMatchObject({
      status: "True",
      reason: "RetriesExceeded",
      message: "Failed to upgrade after 3 attempt(s)",
    });
    expect(condition(stalled, "Released")?.message).toMatch(
      /^Helm upgrade failed for release monitoring\/kube-prometheus-stack with chart kube-prometheus-stack@79\.5\.0: /,
    );
    expect(ready(stalled)).toMatchObject({ status: "False", reason: "RollbackSucceeded" });
    // The last failure is left for debugging: newest first, the failed attempt above the rollback that runs.
    expect(history(stalled).map((h) => [h.status, h.chartVersion])).toEqual([
      ["failed", "79.5.0"],
      ["deployed", "77.14.0"],
      ["failed", "79.5.0"],
      ["superseded", "77.14.0"],
    ]);
    expect(history(stalled)[1].action).toBeUndefined();
  });

  it("reports a dependency chain whose root fails", () => {
    const { cluster } = model.facts.dependencyChain!;
    const objects = model.objectsAt(cluster, at(0), runtime);
    expect(ready(find(objects, "Kustomization", "flux-system", "infra-controllers"))).toMatchObject({
      status: "False",
      reason: "BuildFailed",
    });
    expect(ready(find(objects, "Kustomization", "flux-system", "infra-configs"))).toMatchObject({
      reason: "DependencyNotReady",
      message: "dependency 'flux-system/infra-controllers' is not ready",
    });
    expect(ready(find(objects, "Kustomization", "flux-system", "apps"))).toMatchObject({
      reason: "DependencyNotReady",
      message: "dependency 'flux-system/infra-configs' is not ready",
    });
  });

  it("lists exactly the clusters whose objects changed", () => {
    const windows: [number, number][] = [
      [0, 20_000],
      [55_000, 65_000],
      [95_000, 105_000],
      [4 * MIN, 4 * MIN + 30_000],
      [8 * MIN, 9 * MIN + 1],
      [33 * MIN, 36 * MIN],
    ];
    for (const [from, to] of windows) {
      const changed = new Set(model.changedClusters(at(from), at(to)));
      for (const cluster of model.clusters) {
        if (changed.has(cluster.name)) continue;
        const before = JSON.stringify(model.objectsAt(cluster.name, at(from), runtime));
        const after = JSON.stringify(model.objectsAt(cluster.name, at(to), runtime));
        expect(after, `${cluster.name} changed in (${from}, ${to}] but was not reported`).toBe(before);
      }
    }
    expect(model.changedClusters(at(99_000), at(100_000))).toContain(model.facts.helmUpgradeStall!.cluster);
  });

  it("never misses a change in random windows over the first two hours", () => {
    const fleet = createFleetModel({ clusters: 12, objects: 20, seed: 5, epoch: EPOCH });
    let state = 12345;
    const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
    let quiet = 0;
    for (let i = 0; i < 30; i++) {
      const from = Math.floor(next() * 120 * MIN);
      const to = from + 1 + Math.floor(next() * 40_000);
      const changed = new Set(fleet.changedClusters(at(from), at(to)));
      for (const cluster of fleet.clusters) {
        if (changed.has(cluster.name)) continue;
        quiet++;
        expect(JSON.stringify(fleet.objectsAt(cluster.name, at(to), runtime)), `${cluster.name} in (${from}, ${to}]`).toBe(
          JSON.stringify(fleet.objectsAt(cluster.name, at(from), runtime)),
        );
      }
    }
    expect(quiet).toBeGreaterThan(150);
  });

  it("gives the hub the Crossplane objects and connection secrets the collector reads", () => {
    const hub = model.objectsAt("hub", at(2 * MIN), runtime);
    const managed = hub.filter((o) => ["Cluster", "ClusterAuth", "EKSCluster"].includes(o.kind));
    expect(new Set(managed.map((o) => o.apiVersion))).toEqual(
      new Set(["eks.aws.crossplane.io/v1beta1", "eks.aws.upbound.io/v1beta2", "eks.aws.upbound.io/v1beta1", "platform.acme.io/v1beta1"]),
    );
    const provisioning = ["dev-use1-sandbox", "staging-usw2-ingest", "staging-euw1-analytics"];
    for (const o of managed) {
      if (provisioning.includes(o.metadata.name)) continue;
      const spec = o.spec as { writeConnectionSecretToRef?: { name: string; namespace: string } };
      const status = o.status as { conditions: { type: string; reason: string }[]; atProvider?: unknown };
      expect(status.conditions.map((c) => c.type).sort()).toEqual(["Ready", "Synced"]);
      if (o.apiVersion !== "eks.aws.upbound.io/v1beta2") {
        expect(spec.writeConnectionSecretToRef?.name, `${o.kind} ${o.metadata.name}`).toBeTruthy();
        expect(find(hub, "Secret", spec.writeConnectionSecretToRef!.namespace, spec.writeConnectionSecretToRef!.name)).toBeDefined();
      }
      if (o.kind === "Cluster") expect(status.atProvider).toMatchObject({ status: expect.stringMatching(/ACTIVE|UPDATING/) });
    }
    const creating = find(hub, "Cluster", undefined as never, "dev-use1-sandbox")!;
    expect(condition(creating, "Ready")).toMatchObject({ status: "False", reason: "Creating" });
    expect(creating.status).toMatchObject({ atProvider: { status: "CREATING" } });
    const failing = hub.find((o) => o.apiVersion === "eks.aws.upbound.io/v1beta2" && o.metadata.name === "staging-euw1-analytics")!;
    expect(condition(failing, "Synced")).toMatchObject({
      status: "False",
      reason: "ReconcileError",
      message: expect.stringContaining("InvalidParameterException"),
    });
    // Crossplane publishes the connection secret empty from its first reconcile.
    for (const name of ["dev-use1-sandbox", "staging-euw1-analytics"])
      expect(find(hub, "Secret", "flux-system", `${name}-eks-connection`)?.data).toEqual({});
    const labelled = hub.filter((o) => o.kind === "Secret" && o.metadata.labels?.[DISCOVERY_LABEL] === "true");
    expect(labelled.map((s) => s.metadata.name)).toEqual(model.facts.labelOnly.map((n) => `${n}-kubeconfig`));
    const fluxRefs = hub.filter(
      (o) => (o.kind === "Kustomization" || o.kind === "HelmRelease") && (o.spec as { kubeConfig?: unknown }).kubeConfig,
    );
    expect(fluxRefs.length).toBeGreaterThan(5);
  });

  it("writes kubeconfigs with rotating static EKS tokens, except for the expired-token spoke", () => {
    const t1 = at(2 * MIN);
    const t2 = at(7 * MIN);
    const secret = (t: number, name: string) => find(model.objectsAt("hub", t, runtime), "Secret", "flux-system", name)!;
    const token = (s: KubeObject, key: string) => {
      const config = parse(Buffer.from((s.data as Record<string, string>)[key], "base64").toString("utf8"));
      expect(config.users[0].user.exec).toBeUndefined();
      expect(config.clusters[0].name).toBe(config.users[0].name);
      return config.users[0].user.token as string;
    };
    const classic = model.spokes.find((s) => s.provisioning === "classic" && s.hubFluxRef)!.name;
    const tok1 = token(secret(t1, `${classic}-eks-connection`), "kubeconfig");
    const tok2 = token(secret(t2, `${classic}-eks-connection`), "kubeconfig");
    expect(tok1).not.toBe(tok2);
    expect(verifyEksToken(tok1, classic, t1)).toMatchObject({ ok: true });
    expect(verifyEksToken(tok2, classic, t2)).toMatchObject({ ok: true });
    expect(verifyEksToken(tok1, classic, t1 + 16 * MIN).ok).toBe(false);

    const composite = model.spokes.find((s) => s.provisioning === "composite" && s.hubFluxRef)!.name;
    const xr = secret(t1, `${composite}-connection`);
    expect(Object.keys(xr.data as object).sort()).toEqual(["apiserver-endpoint", "cluster-ca", "value"]);
    expect(verifyEksToken(token(xr, "value"), composite, t1).ok).toBe(true);

    const expired = model.facts.expiredToken!.cluster;
    const stale = token(secret(t1, `${expired}-kubeconfig`), "kubeconfig");
    expect(verifyEksToken(stale, expired, t1)).toMatchObject({ ok: false, reason: expect.stringContaining("expired") });
  });

  it("starts the timeline at the first time it is asked about when no epoch is given", () => {
    const start = EPOCH + 123_456;
    const latched = createFleetModel({ clusters: 12, objects: 30, seed: 7 });
    expect(latched.spokes).toHaveLength(11);
    expect(latched.conditionsAt(latched.facts.unreachable!.cluster, start).unreachable).toBe(false);
    expect(latched.epoch).toBe(start);
    expect(latched.conditionsAt(latched.facts.unreachable!.cluster, start + TIMELINE.unreachableFrom).unreachable).toBe(true);
  });

  it("reports the Flux distribution and reconciler statistics in a FluxReport where the operator runs", () => {
    const versions = new Set<string>();
    let reports = 0;
    for (const cluster of model.clusters) {
      const objects = model.objectsAt(cluster.name, at(14 * MIN), runtime);
      const report = objects.find((o) => o.kind === "FluxReport");
      if (!report) continue;
      reports++;
      const spec = report.spec as {
        distribution: { version: string };
        reconcilers: { kind: string; stats: { running: number; failing: number; suspended: number } }[];
      };
      versions.add(spec.distribution.version);
      for (const r of spec.reconcilers) {
        const total = r.stats.running + r.stats.failing + r.stats.suspended;
        expect(total).toBe(objects.filter((o) => o.kind === r.kind && o.apiVersion.includes("fluxcd.io")).length);
      }
      expect(ready(report)?.status).toBe("True");
    }
    expect(reports).toBeGreaterThan(5);
    expect(versions.size).toBeGreaterThan(1);
  });

  it("makes one spoke unreachable for a while and moves the upgraded cluster's version", () => {
    const { cluster } = model.facts.unreachable!;
    expect(model.conditionsAt(cluster, at(MIN)).unreachable).toBe(false);
    expect(model.conditionsAt(cluster, at(TIMELINE.unreachableFrom + 1)).unreachable).toBe(true);
    expect(model.conditionsAt(cluster, at(TIMELINE.unreachableUntil)).unreachable).toBe(false);
    const { cluster: upgraded, from, to } = model.facts.scheduledUpgrade!;
    expect(model.conditionsAt(upgraded, at(0)).gitVersion).toMatch(new RegExp(`^v${from}\\.`));
    expect(model.conditionsAt(upgraded, at(TIMELINE.controlPlaneUpgradeEnd)).gitVersion).toMatch(new RegExp(`^v${to}\\.`));
    const kubelets = (rel: number) =>
      new Set(
        model
          .objectsAt(upgraded, at(rel), runtime)
          .filter((o) => o.kind === "Node")
          .map((n) => (n.status as { nodeInfo: { kubeletVersion: string } }).nodeInfo.kubeletVersion.slice(0, 5)),
      );
    expect(kubelets(0)).toEqual(new Set([`v${from}`]));
    expect(kubelets(TIMELINE.nodeGroupUpgradeEnd)).toEqual(new Set([`v${to}`]));
    const { cluster: skew, controlPlane, nodegroupVersion } = model.facts.nodeGroupSkew!;
    const skewKubelets = new Set(
      model
        .objectsAt(skew, at(0), runtime)
        .filter((o) => o.kind === "Node")
        .map((n) => (n.status as { nodeInfo: { kubeletVersion: string } }).nodeInfo.kubeletVersion.slice(0, 5)),
    );
    expect(skewKubelets).toEqual(new Set([`v${controlPlane}`, `v${nodegroupVersion}`]));
  });
});
