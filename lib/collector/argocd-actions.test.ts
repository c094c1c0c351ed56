// Argo CD actions (refresh, sync) through the audited operator-action path, against the simulator's hub
// (its stand-in Argo CD controller answers both) with the rows in a real Postgres.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createClusterClient, type KubeClusterClient } from "../kube/client";
import { startSimulator, type RunningSimulator } from "../simulator";
import { useTestDatabase } from "../testing/db";
import { processOperatorActions, type OperatorActionContext } from "./actions";

const db = useTestDatabase();
let sim: RunningSimulator;
let outDir: string;
let hub: KubeClusterClient;
const APP = "/apis/argoproj.io/v1alpha1/namespaces/argocd/applications/cluster-policies";

interface App {
  metadata: { annotations?: Record<string, string> };
  operation?: unknown;
  status?: { operationState?: { phase?: string; operation?: { initiatedBy?: { username?: string } } } };
}

beforeAll(async () => {
  outDir = mkdtempSync(path.join(os.tmpdir(), "crows-nest-argocd-actions-"));
  sim = await startSimulator({ outDir, clusters: 3, objects: 6, seed: 5, speed: 0, reactionDelayMs: 100 });
  const kc = new KubeConfig();
  kc.loadFromFile(sim.fleetKubeconfigPath);
  kc.setCurrentContext("hub");
  hub = createClusterClient("hub", kc, { timeoutMs: 5000 });
}, 60_000);
afterAll(async () => {
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});
beforeEach(() => db.truncate());

const context: () => OperatorActionContext = () => ({
  pool: db.pool(),
  replicaId: "collector-test",
  clusterNames: () => ["hub"],
  clientFor: () => hub,
});

async function request(action: string, kind = "Application") {
  await db.prisma().operatorAction.create({
    data: {
      actor: "https://idp#otto",
      actorName: "Otto Operator",
      role: "operator",
      action,
      clusterName: "hub",
      kind,
      namespace: "argocd",
      name: "cluster-policies",
    },
  });
}

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the simulated Argo CD controller did not answer");
};

describe("Argo CD actions", () => {
  it("refreshes: the annotation reaches the Application, the controller clears it, the audit trail records it", async () => {
    await request("refresh");
    expect(await processOperatorActions(context())).toEqual([
      expect.objectContaining({ status: "ok", result: "refresh requested (argocd.argoproj.io/refresh: normal)" }),
    ]);
    await until(async () => !(await hub.getJson<App>(APP)).metadata.annotations?.["argocd.argoproj.io/refresh"]);
    expect(await db.prisma().auditEntry.findMany()).toEqual([
      expect.objectContaining({ action: "refresh", kind: "Application", name: "cluster-policies", result: "ok" }),
    ]);
  });

  it("syncs an Application whose automated sync is off: the operation runs under the operator's name", async () => {
    await request("sync");
    expect(await processOperatorActions(context())).toEqual([expect.objectContaining({ status: "ok" })]);
    await until(async () => {
      const app = await hub.getJson<App>(APP);
      return !app.operation && app.status?.operationState?.operation?.initiatedBy?.username === "Otto Operator";
    });
    expect((await hub.getJson<App>(APP)).status?.operationState?.phase).toBe("Succeeded");
  });

  it("refuses Flux's actions on an Application and Argo CD's on a Flux object, with the reason audited", async () => {
    await request("suspend");
    await request("refresh", "Kustomization");
    expect(await processOperatorActions(context())).toEqual([
      expect.objectContaining({ status: "error", result: "suspend does not apply to a Application" }),
      expect.objectContaining({ status: "error", result: "refresh does not apply to a Kustomization" }),
    ]);
    expect((await db.prisma().auditEntry.findMany()).map((a) => a.result)).toEqual(["error", "error"]);
  });
});
