// The whole action path without a browser: route handler → operator_action row + NOTIFY → the collector's
// processOperatorActions (woken by LISTEN) → the fleet simulator over HTTPS → result back to the route.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ACTION_CHANNEL } from "@/lib/db/channels";
import { csrfToken } from "@/lib/auth/csrf";
import { SESSION_COOKIE, sealSession, type Session } from "@/lib/auth/session";
import { processOperatorActions } from "@/lib/collector/actions";
import { resetEnvCache } from "@/lib/env";
import { createClusterClient } from "@/lib/kube/client";
import { startSimulator, type RunningSimulator } from "@/lib/simulator";
import { createTestFleet } from "@/lib/simulator/kube/testing";
import { useTestDatabase } from "@/lib/testing/db";
import { POST } from "@/app/api/actions/route";

const db = useTestDatabase();
const SECRET = "route-test-session-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";
let sim: RunningSimulator;
let outDir: string;
let listener: pg.Client;

beforeAll(async () => {
  Object.assign(process.env, {
    AUTH_MODE: "oidc",
    HOSTNAME: "0.0.0.0",
    OIDC_ISSUER: "http://127.0.0.1:1",
    OIDC_CLIENT_ID: "crows-nest",
    SESSION_SECRET: SECRET,
    PUBLIC_URL: ORIGIN,
    ACTIONS_ENABLED: "true",
  });
  resetEnvCache();
  outDir = mkdtempSync(path.join(os.tmpdir(), "crows-nest-route-"));
  sim = await startSimulator({ outDir, model: createTestFleet({ spokes: 1 }), aws: false });
  const kc = new KubeConfig();
  kc.loadFromFile(sim.fleetKubeconfigPath);
  kc.setCurrentContext("spoke-1");
  const client = createClusterClient("spoke-1", kc, { timeoutMs: 5000 });
  // A stand-in collector loop: the real action processor, woken by the real NOTIFY.
  listener = new pg.Client({ connectionString: db.url() });
  await listener.connect();
  await listener.query(`LISTEN ${ACTION_CHANNEL}`);
  listener.on("notification", () => {
    void processOperatorActions({ pool: db.pool(), replicaId: "test-collector", clusterNames: () => ["spoke-1"], clientFor: () => client });
  });
});
afterAll(async () => {
  await listener?.end();
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await db.truncate();
  const cluster = await db.prisma().cluster.create({ data: { name: "spoke-1" } });
  await db.prisma().fluxObject.create({
    data: {
      clusterId: cluster.id,
      kind: "Kustomization",
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      namespace: "flux-system",
      name: "apps",
      health: "ready",
      contentHash: "x",
    },
  });
});

const session = (role: Session["role"]): Session => ({
  sid: `sid-${role}-123`,
  sub: `http://idp#${role}`,
  name: `${role} user`,
  role,
  expiresAt: Math.floor(Date.now() / 1000) + 600,
});

async function post(s: Session | null, body: Record<string, unknown>, origin = ORIGIN) {
  const headers: Record<string, string> = { "content-type": "application/json", origin, host: "localhost:3000" };
  if (s) headers.cookie = `${SESSION_COOKIE}=${await sealSession(s, SECRET)}`;
  return POST(new Request(`${ORIGIN}/api/actions`, { method: "POST", headers, body: JSON.stringify(body) }));
}

const body = (s: Session, extra: Record<string, unknown> = {}) => ({
  action: "reconcile",
  cluster: "spoke-1",
  kind: "kustomization",
  namespace: "flux-system",
  name: "apps",
  csrfToken: csrfToken(s.sid, SECRET),
  ...extra,
});

describe("POST /api/actions", () => {
  it("answers 401 without a session", async () => {
    expect((await post(null, body(session("operator")))).status).toBe(401);
  });

  it("answers 403 to a viewer, audits the attempt and requests nothing", async () => {
    const viewer = session("viewer");
    const res = await post(viewer, body(viewer));
    expect(res.status).toBe(403);
    expect(await db.prisma().operatorAction.count()).toBe(0);
    expect(await db.prisma().auditEntry.findMany()).toEqual([
      expect.objectContaining({ actor: "http://idp#viewer", result: "denied", action: "reconcile", name: "apps" }),
    ]);
  });

  it("refuses an operator's request without the CSRF token or from another origin", async () => {
    const op = session("operator");
    expect((await post(op, body(op, { csrfToken: csrfToken("another-session", SECRET) }))).status).toBe(403);
    expect((await post(op, body(op), "https://evil.example")).status).toBe(403);
    expect(await db.prisma().operatorAction.count()).toBe(0);
  });

  it("validates every field", async () => {
    const op = session("operator");
    for (const bad of [{ action: "delete" }, { kind: "secret" }, { namespace: "../x" }, { name: "" }, { extra: 1 }]) {
      expect((await post(op, body(op, bad))).status).toBe(400);
    }
    expect((await post(op, body(op, { name: "unknown" }))).status).toBe(404);
  });

  it("refuses actions on an object of an unreachable cluster with the reason, audited, and requests nothing", async () => {
    await db.prisma().cluster.update({
      where: { name: "spoke-1" },
      data: { lastSuccessAt: new Date(Date.now() - 600_000), lastErrorAt: new Date(), lastError: "dial tcp 10.0.0.9:443: i/o timeout" },
    });
    const op = session("operator");
    const res = await post(op, body(op));
    expect(res.status).toBe(409);
    expect((await res.json()).error).toEqual({
      code: "cluster_unreachable",
      message: "spoke-1 is unreachable (dial tcp 10.0.0.9:443: i/o timeout): actions need the collector to reach it",
    });
    expect(await db.prisma().operatorAction.count()).toBe(0);
    expect(await db.prisma().auditEntry.findMany()).toEqual([
      expect.objectContaining({ result: "denied", detail: expect.stringContaining("unreachable") }),
    ]);
  });

  it("reconciles for an operator: the simulator shows the annotation and the collector's audit entry names them", async () => {
    const op = session("operator");
    const res = await post(op, body(op));
    expect(res.status).toBe(200);
    const json = (await res.json()) as { status: string; result: string };
    expect(json.status).toBe("ok");
    expect(json.result).toMatch(/^reconciliation requested at /);
    const kc = new KubeConfig();
    kc.loadFromFile(sim.fleetKubeconfigPath);
    kc.setCurrentContext("spoke-1");
    const ks = await createClusterClient("spoke-1-check", kc, { timeoutMs: 5000 }).getJson<{
      metadata: { annotations: Record<string, string> };
    }>("/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/apps");
    expect(json.result).toBe(`reconciliation requested at ${ks.metadata.annotations["reconcile.fluxcd.io/requestedAt"]}`);
    expect(await db.prisma().auditEntry.findMany()).toEqual([
      expect.objectContaining({
        actor: "http://idp#operator",
        actorName: "operator user",
        role: "operator",
        action: "reconcile",
        result: "ok",
        clusterName: "spoke-1",
      }),
    ]);
  });
});
