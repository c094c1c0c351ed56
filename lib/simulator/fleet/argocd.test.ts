import { describe, expect, it } from "vitest";
import { toArgoApplication, toArgoApplicationSet } from "../../kube/argocd/application";
import { accessProblem, parseArgoClusterSecrets, resolveDestination } from "../../kube/argocd/cluster-secret";
import type { KubeObject, RuntimeInfo } from "../contract";
import { checkAgainstCrd, crdSchemaFor } from "../kube/crd-schema";
import { ARGO_TIMELINE } from "./argocd";
import { eksArn } from "./hub";
import { createFleetModel } from "./index";

const MIN = 60_000;
const EPOCH = Date.UTC(2026, 10, 21, 20, 0, 0);
const CA_PEM = "-----BEGIN CERTIFICATE-----\nMIIBsim\n-----END CERTIFICATE-----\n";
const runtime: RuntimeInfo = {
  endpointOf: (cluster) => `https://127.0.0.1:${20000 + cluster.length}${cluster.charCodeAt(cluster.length - 1)}`,
  caDataOf: () => Buffer.from(CA_PEM).toString("base64"),
  stsEndpoint: "https://127.0.0.1:19443",
};
// The default end-to-end fleet size, plus three spokes only Argo CD knows.
const model = createFleetModel({ clusters: 12, objects: 20, seed: 7, epoch: EPOCH, argocdSpokes: 3 });
const hubAt = (rel: number) => model.objectsAt("hub", EPOCH + rel, runtime);
const apps = (objects: KubeObject[]) => objects.filter((o) => o.kind === "Application").map((o) => toArgoApplication(o));
const app = (objects: KubeObject[], name: string) => apps(objects).find((a) => a.name === name)!;
const facts = model.facts.argocd!;

describe("the Argo CD part of the fleet", () => {
  it("shapes every Argo CD object exactly like the v3.5.1 CRDs, at every scenario phase", () => {
    let checked = 0;
    for (const rel of [0, 4 * MIN, 5 * MIN, 6 * MIN, 8 * MIN, 10 * MIN, 13 * MIN, 16 * MIN, 40 * MIN]) {
      for (const object of hubAt(rel)) {
        const crd = crdSchemaFor(object.apiVersion, object.kind);
        if (!crd) continue;
        expect(checkAgainstCrd(crd, object as Record<string, unknown>), `${object.kind} ${object.metadata.name} at +${rel / MIN}m`).toEqual(
          {
            causes: [],
            unknown: [],
          },
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(250);
  });

  it("registers every cluster in a GitOps Bridge cluster secret: the hub in-cluster, two Flux spokes by awsAuthConfig, the Argo-only spokes three ways", () => {
    const { clusters, problems } = parseArgoClusterSecrets(hubAt(0).filter((o) => o.kind === "Secret"));
    expect(problems).toEqual([]);
    const byName = new Map(clusters.map((c) => [c.name, c]));
    expect(byName.get("hub")).toMatchObject({ inCluster: true, access: { auth: { type: "in-cluster" } }, env: "control-plane" });
    for (const name of facts.fluxSpokes) {
      const secret = byName.get(name)!;
      const spec = model.spokeSpec(name)!;
      // One cluster, several ways in: the same endpoint and EKS ARN as its Crossplane connection secret.
      expect(secret.server).toBe(runtime.endpointOf(name));
      expect(secret.eksArn).toBe(eksArn(spec));
      expect(secret.access.auth).toEqual({
        type: "eks-token",
        clusterName: name,
        roleArn: `arn:aws:iam::${spec.accountId}:role/${name}-argocd-spoke`,
        profile: null,
        via: "awsAuthConfig",
      });
      expect(secret.access.tls.caPem).toBe(CA_PEM);
      expect(secret.gitopsBridge).toMatchObject({
        environment: spec.env,
        addons: { aws_load_balancer_controller: true, metrics_server: true, cert_manager: false },
      });
    }
    expect(facts.argoOnly.map((s) => [s.name, byName.get(s.name)?.access.auth.type])).toEqual([
      ["argo-dev-euw1-01", "eks-token"],
      ["argo-staging-usw2-02", "bearer"],
      ["argo-prod-apse2-03", "exec"],
    ]);
    expect(accessProblem(byName.get("argo-prod-apse2-03")!.access)).toMatch(/exec plugin "tsh"/);
    expect(byName.get("argo-dev-euw1-01")).toMatchObject({ accountId: "567890123456", team: "checkout" });
  });

  it("points every Application at a registered cluster, and every ApplicationSet counts what it generates", () => {
    const objects = hubAt(0);
    const { clusters } = parseArgoClusterSecrets(objects.filter((o) => o.kind === "Secret"));
    const all = apps(objects);
    for (const a of all) {
      const resolved = resolveDestination(a.argo.destination, clusters);
      expect(resolved.ok, a.name).toBe(true);
    }
    for (const set of objects.filter((o) => o.kind === "ApplicationSet").map((o) => toArgoApplicationSet(o))) {
      const owned = all.filter((a) => a.argo.applicationSet === set.name);
      expect(set.appSet.generated, set.name).toBe(owned.length);
      expect(set.health).toBe("ready");
    }
    expect(all.length).toBe(26);
  });

  it("Degraded: aws-load-balancer-controller on prod is one failure across clusters", () => {
    const objects = hubAt(0);
    const degraded = apps(objects).filter((a) => a.health === "failing" && a.readyReason === "Degraded");
    expect(degraded.map((a) => a.name).sort()).toEqual([...facts.degradedAddon.applications].sort());
    expect(degraded.length).toBeGreaterThanOrEqual(3);
    expect(new Set(degraded.map((a) => a.readyMessage)).size).toBe(1);
    for (const a of degraded)
      expect(a).toMatchObject({ chartName: "aws-load-balancer-controller", chartVersion: facts.degradedAddon.chartVersion });
    // Non-prod clusters run the version before and are fine.
    expect(app(objects, "addon-argo-dev-euw1-01-aws-load-balancer-controller")).toMatchObject({ health: "ready", chartVersion: "1.14.0" });
    // Argo CD records the health change as an Event.
    expect(objects.some((o) => o.kind === "Event" && o.reason === "ResourceUpdated" && String(o.message).includes("-> Degraded"))).toBe(
      true,
    );
  });

  it("SyncError: the bad workloads commit retries, fails with a SyncError, and the fix heals every cluster", () => {
    const names = facts.syncError.applications;
    expect(names.length).toBe(5);
    const at = (rel: number) => {
      const objects = hubAt(rel);
      return names.map((n) => app(objects, n));
    };
    for (const a of at(ARGO_TIMELINE.workloadBadCommit - 10_000)) expect(a).toMatchObject({ health: "ready", readyReason: "Synced" });
    const failed = at(ARGO_TIMELINE.workloadBadCommit + 3 * MIN + 2 * MIN + 40_000);
    for (const a of failed) {
      expect(a).toMatchObject({
        health: "failing",
        readyReason: "SyncError",
        argo: { syncStatus: "OutOfSync", healthStatus: "Healthy", operation: { phase: "Failed", retryCount: 5 } },
      });
      expect(a.readyMessage).toMatch(
        /^Failed last sync attempt to \[[0-9a-f]{40}\]: one or more objects failed to apply, reason: Deployment\.apps "checkout-api" is invalid: .* \(retried 5 times\)\.$/,
      );
      // The attempted revision is the bad one; what is deployed is still the last good one.
      expect(a.attemptedRevision).not.toBe(a.appliedRevision);
    }
    expect(new Set(failed.map((a) => a.readyMessage)).size).toBe(1);
    const retrying = at(ARGO_TIMELINE.workloadBadCommit + 3 * MIN + 15_000).filter((a) => a.readyReason === "SyncRetrying");
    expect(retrying.length).toBeGreaterThan(0);
    expect(retrying[0].readyMessage).toMatch(/\. Retrying attempt #\d at \d{1,2}:\d{2}(AM|PM)\.$/);
    for (const a of at(ARGO_TIMELINE.workloadFixCommit + 4 * MIN)) {
      expect(a).toMatchObject({ health: "ready", readyReason: "Synced" });
      expect(a.appliedRevision).toBe(a.attemptedRevision);
      expect(a.argo.history[0].revisions).toEqual([a.appliedRevision]);
      expect(a.argo.history.length).toBe(3);
    }
  });

  it("OutOfSync without automated sync is drift on a healthy Application, not a failure", () => {
    const policies = app(hubAt(0), facts.outOfSyncManual);
    expect(policies).toMatchObject({
      health: "ready",
      readyReason: "OutOfSync",
      argo: { automatedSync: { enabled: false }, syncStatus: "OutOfSync", drift: { reason: "OutOfSync" } },
    });
    expect(policies.readyMessage).toBe("Healthy; 1 resource differs from Git (automated sync is off)");
  });

  it("ComparisonError: a cluster whose directory does not exist", () => {
    expect(facts.comparisonError).toEqual(["cluster-prod-use1-009"]);
    const broken = app(hubAt(0), "cluster-prod-use1-009");
    expect(broken).toMatchObject({
      health: "failing",
      readyReason: "ComparisonError",
      argo: { syncStatus: "Unknown", healthStatus: "Healthy" },
    });
    expect(broken.readyMessage).toMatch(/environments\/prod-use1-009: app path does not exist$/);
  });

  it("keeps the scenarios in the default end-to-end fleet (no Argo-only spokes)", () => {
    const fleet = createFleetModel({ clusters: 12, objects: 20, seed: 7, epoch: EPOCH });
    // 12 indexed clusters, plus the two Crossplane creates during the run.
    expect(fleet.clusters.filter((c) => !fleet.provisionedSpokes.some((p) => p.name === c.name))).toHaveLength(12);
    expect(fleet.facts.argocd).toMatchObject({ fluxSpokes: ["prod-euw1-003", "prod-use1-009"], argoOnly: [] });
    const objects = fleet.objectsAt("hub", EPOCH, runtime);
    const degraded = apps(objects).filter((a) => a.readyReason === "Degraded");
    expect(degraded.map((a) => a.name)).toEqual([
      "addon-prod-euw1-003-aws-load-balancer-controller",
      "addon-prod-use1-009-aws-load-balancer-controller",
    ]);
  });

  it("serves spokes only Argo CD knows, outside the Flux spokes and the EKS API's list", () => {
    expect(model.clusters.map((c) => c.name).slice(12, 15)).toEqual(["argo-dev-euw1-01", "argo-staging-usw2-02", "argo-prod-apse2-03"]);
    expect(model.spokes.map((s) => s.name)).not.toContain("argo-dev-euw1-01");
    const bearer = model.clusters.find((c) => c.name === "argo-staging-usw2-02")!;
    const token = Object.keys(bearer.serviceAccountTokens ?? {})[0];
    expect(bearer.serviceAccountTokens?.[token]).toBe("system:serviceaccount:kube-system:argocd-manager");
    const spokeObjects = model.objectsAt("argo-staging-usw2-02", EPOCH, runtime);
    const tokenSecret = spokeObjects.find((o) => o.kind === "Secret" && o.metadata.name === "argocd-manager-token")!;
    expect(Buffer.from((tokenSecret.data as { token: string }).token, "base64").toString()).toBe(token);
    expect(spokeObjects.filter((o) => o.kind === "Node").length).toBeGreaterThan(0);
  });

  it("changes the hub only when something Argo CD writes changes", () => {
    // reconciledAt moves on the hub's own 5-minute grid: between grid points and scenario times nothing changes.
    const rel = ARGO_TIMELINE.workloadFixCommit + 10 * MIN + 10_000;
    expect(JSON.stringify(hubAt(rel).filter((o) => o.apiVersion.startsWith("argoproj.io")))).toBe(
      JSON.stringify(hubAt(rel + 30_000).filter((o) => o.apiVersion.startsWith("argoproj.io"))),
    );
    expect(model.changedClusters(EPOCH + ARGO_TIMELINE.workloadBadCommit, EPOCH + ARGO_TIMELINE.workloadBadCommit + 3 * MIN)).toContain(
      "hub",
    );
  });
});
