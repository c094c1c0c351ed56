// Operator actions against the fleet simulator over real HTTPS, with the rows in a real Postgres.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createClusterClient, type KubeClusterClient } from "../kube/client";
import { fromParts } from "../kube/kubeconfig";
import { startSimulator, type RunningSimulator } from "../simulator";
import { createTestFleet } from "../simulator/kube/testing";
import { useTestDatabase } from "../testing/db";
import { fluxPatch, processOperatorActions, rfc3339Nano, type OperatorActionContext } from "./actions";

const db = useTestDatabase();
let sim: RunningSimulator;
let outDir: string;
let admin: KubeClusterClient;
let readOnly: KubeClusterClient;
const KS = "/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/apps";

beforeAll(async () => {
  outDir = mkdtempSync(path.join(os.tmpdir(), "crows-nest-actions-"));
  sim = await startSimulator({ outDir, model: createTestFleet({ spokes: 1 }), aws: false });
  const kc = new KubeConfig();
  kc.loadFromFile(sim.fleetKubeconfigPath);
  kc.setCurrentContext("spoke-1");
  admin = createClusterClient("spoke-1", kc, { timeoutMs: 5000 });
  const spoke = sim.clusters.find((c) => c.name === "spoke-1")!;
  readOnly = createClusterClient(
    "spoke-1-ro",
    fromParts({ name: "spoke-1", server: spoke.endpoint, caData: spoke.caData, token: sim.tokens.readOnly }),
    { timeoutMs: 5000 },
  );
});
afterAll(async () => {
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});
beforeEach(() => db.truncate());

function context(client: KubeClusterClient, clusters = ["spoke-1"]): OperatorActionContext {
  return { pool: db.pool(), replicaId: "collector-test", clusterNames: () => clusters, clientFor: () => client };
}

async function request(action: string, name = "apps", extra: Partial<{ kind: string; clusterName: string; requestedAt: Date }> = {}) {
  const row = await db.prisma().operatorAction.create({
    data: {
      actor: "https://idp#otto",
      actorName: "Otto Operator",
      role: "operator",
      action,
      clusterName: "spoke-1",
      kind: "Kustomization",
      namespace: "flux-system",
      name,
      ...extra,
    },
  });
  return row.id;
}

const get = () => admin.getJson<{ metadata: { annotations?: Record<string, string> }; spec: { suspend?: boolean } }>(KS);

describe("flux CLI patches", () => {
  it("are byte for byte what flux reconcile / suspend / resume send", () => {
    const at = new Date("2026-11-21T20:45:12.150Z");
    expect(JSON.stringify(fluxPatch("reconcile", at))).toBe(
      '{"metadata":{"annotations":{"reconcile.fluxcd.io/requestedAt":"2026-11-21T20:45:12.15Z"}}}',
    );
    expect(JSON.stringify(fluxPatch("suspend", at))).toBe('{"spec":{"suspend":true}}');
    expect(JSON.stringify(fluxPatch("resume", at))).toBe('{"spec":{"suspend":null}}');
    expect(rfc3339Nano(new Date("2026-01-01T00:00:00.000Z"))).toBe("2026-01-01T00:00:00Z");
  });
});

describe("processOperatorActions", () => {
  it("reconciles: the annotation reaches the cluster, and the row, audit entry and nudge record it", async () => {
    const now = new Date("2026-11-21T21:00:00.123Z");
    const id = await request("reconcile");
    const outcomes = await processOperatorActions({ ...context(admin), now: () => now });
    expect(outcomes).toEqual([{ id: id.toString(), status: "ok", result: "reconciliation requested at 2026-11-21T21:00:00.123Z" }]);
    expect((await get()).metadata.annotations?.["reconcile.fluxcd.io/requestedAt"]).toBe("2026-11-21T21:00:00.123Z");
    const row = await db.prisma().operatorAction.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "ok", handledBy: "collector-test" });
    const audit = await db.prisma().auditEntry.findMany();
    expect(audit).toEqual([
      expect.objectContaining({
        actor: "https://idp#otto",
        actorName: "Otto Operator",
        role: "operator",
        action: "reconcile",
        clusterName: "spoke-1",
        kind: "Kustomization",
        namespace: "flux-system",
        name: "apps",
        result: "ok",
      }),
    ]);
    expect(await db.prisma().collectorNudge.findMany()).toEqual([
      expect.objectContaining({ clusterName: "spoke-1", kind: "Kustomization", name: "apps", handledAt: null }),
    ]);
    // Claimed once: a second pass finds nothing to do.
    expect(await processOperatorActions(context(admin))).toEqual([]);
  });

  it("suspends and resumes, and refuses to reconcile a suspended object like the flux CLI", async () => {
    await request("suspend");
    await processOperatorActions(context(admin));
    expect((await get()).spec.suspend).toBe(true);
    await request("reconcile");
    expect(await processOperatorActions(context(admin))).toEqual([
      expect.objectContaining({ status: "error", result: "resource is suspended: resume it first" }),
    ]);
    await request("resume");
    expect(await processOperatorActions(context(admin))).toEqual([expect.objectContaining({ status: "ok", result: "resumed" })]);
    expect((await get()).spec.suspend).toBeUndefined();
  });

  it("records a forbidden patch and a missing object as errors", async () => {
    await request("suspend");
    expect(await processOperatorActions(context(readOnly))).toEqual([
      expect.objectContaining({ status: "error", result: expect.stringContaining("forbidden") }),
    ]);
    expect((await get()).spec.suspend).toBeUndefined();
    await request("reconcile", "no-such-object");
    expect(await processOperatorActions(context(admin))).toEqual([
      expect.objectContaining({ status: "error", result: "not found in the cluster (deleted?)" }),
    ]);
    expect((await db.prisma().auditEntry.findMany()).map((a) => a.result)).toEqual(["error", "error"]);
  });

  it("leaves other replicas' clusters alone and fails actions nobody picked up in time", async () => {
    const id = await request("reconcile");
    expect(await processOperatorActions(context(admin, ["some-other-cluster"]))).toEqual([]);
    expect((await db.prisma().operatorAction.findUniqueOrThrow({ where: { id } })).status).toBe("pending");
    await db.pool().query(`UPDATE operator_action SET "requestedAt" = now() - interval '5 minutes'`);
    expect(await processOperatorActions(context(admin, []))).toEqual([
      { id: id.toString(), status: "error", result: "no collector reached the cluster within 60 s" },
    ]);
    expect(await db.prisma().auditEntry.findMany()).toEqual([
      expect.objectContaining({ result: "error", detail: "no collector reached the cluster within 60 s" }),
    ]);
  });
});
