import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getObject } from "@/lib/db/queries/objects";
import { makeCluster, makeObject } from "@/lib/db/queries/test-factories";
import { resetEnvCache } from "@/lib/env";
import { useTestDatabase } from "@/lib/testing/db";
import { NUDGE_CHANNEL } from "@/lib/db/channels";
import { sign } from "@/lib/webhooks/signature";
import { POST } from "./route";

const db = useTestDatabase();

// The payload shape notification-controller v1.9 sends (metadata keys already stripped of their group).
const event = (message = "Reconciliation finished in 1.2s, next run in 10m0s", reason = "ReconciliationSucceeded") =>
  JSON.stringify({
    involvedObject: {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      name: "apps",
      namespace: "flux-system",
      uid: "7d0cdc51-ddcf-4743-b223-83ca5c699632",
    },
    severity: "info",
    timestamp: "2026-11-21T10:00:00Z",
    message,
    reason,
    metadata: { revision: "main@sha1:450796ddb2ab6724ee1cc32a4be56da032d1cca0", env: "prod" },
    reportingController: "kustomize-controller",
    reportingInstance: "kustomize-controller-7c7b47f5f-8bhrp",
  });

function post(cluster: string, body: string, headers: Record<string, string> = {}) {
  const request = new Request(`http://localhost/api/webhooks/flux/${cluster}`, {
    method: "POST",
    headers: { "content-type": "application/json", "gotk-component": "kustomize-controller", ...headers },
    body,
  });
  return POST(request, { params: Promise.resolve({ cluster }) });
}

const setEnv = (vars: Record<string, string | undefined>) => {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
};

let listener: pg.Client;
const notifications: string[] = [];

beforeAll(async () => {
  const c = await makeCluster(db.prisma(), { name: "prod-eu-1" });
  await makeCluster(db.prisma(), { name: "prod-eu-2" });
  await makeObject(db.prisma(), c.id, { name: "apps" });
  listener = new pg.Client({ connectionString: db.url() });
  await listener.connect();
  listener.on("notification", (n) => notifications.push(`${n.channel}:${n.payload}`));
  await listener.query(`LISTEN ${NUDGE_CHANNEL}`);
});
afterAll(async () => {
  await listener.end();
  setEnv({
    WEBHOOK_HMAC_SECRET: undefined,
    WEBHOOK_HMAC_SECRETS: undefined,
    WEBHOOK_ALLOW_GENERIC: undefined,
    WEBHOOK_MAX_BODY_BYTES: undefined,
  });
});
beforeEach(() =>
  setEnv({
    WEBHOOK_HMAC_SECRET: "default-key",
    WEBHOOK_HMAC_SECRETS: "prod-eu-2=eu2-key",
    WEBHOOK_ALLOW_GENERIC: undefined,
    WEBHOOK_MAX_BODY_BYTES: undefined,
  }),
);

describe("POST /api/webhooks/flux/{cluster}", () => {
  it("stores a signed event, nudges the collector and shows it on the object's timeline", async () => {
    const body = event();
    const res = await post("prod-eu-1", body, { "x-signature": sign(body, "default-key") });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ accepted: true, duplicate: false });
    const stored = await db.prisma().webhookEvent.findFirstOrThrow();
    expect(stored).toMatchObject({
      involvedKind: "Kustomization",
      involvedName: "apps",
      revision: "main@sha1:450796ddb2ab6724ee1cc32a4be56da032d1cca0",
      reportingController: "kustomize-controller",
    });
    expect(stored.objectId).not.toBeNull();
    expect(await db.prisma().collectorNudge.findMany()).toMatchObject([
      { clusterName: "prod-eu-1", kind: "Kustomization", namespace: "flux-system", name: "apps", reason: "webhook" },
    ]);
    await expect.poll(() => notifications).toContain(`${NUDGE_CHANNEL}:prod-eu-1`);
    const detail = await getObject({ cluster: "prod-eu-1", kind: "Kustomization", namespace: "flux-system", name: "apps" });
    expect(detail?.timeline).toContainEqual(
      expect.objectContaining({ type: "webhook", reason: "ReconciliationSucceeded", at: "2026-11-21T10:00:00.000Z" }),
    );
  });

  it("ignores a redelivered event", async () => {
    const body = event("again");
    const headers = { "x-signature": sign(body, "default-key") };
    expect((await post("prod-eu-1", body, headers)).status).toBe(202);
    const again = await post("prod-eu-1", body, headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ duplicate: true });
    expect(await db.prisma().webhookEvent.count({ where: { message: "again" } })).toBe(1);
  });

  it("uses the cluster's own key when it has one", async () => {
    const body = event("eu2");
    expect((await post("prod-eu-2", body, { "x-signature": sign(body, "default-key") })).status).toBe(401);
    expect((await post("prod-eu-2", body, { "x-signature": sign(body, "eu2-key") })).status).toBe(202);
  });

  it.each([
    ["a wrong signature", (b: string) => ({ "x-signature": sign(b, "wrong-key") })],
    ["no signature", () => ({})],
    ["a malformed signature", () => ({ "x-signature": "sha1=abc" })],
  ])("rejects %s with 401", async (_name, headers) => {
    const body = event("unsigned");
    const res = await post("prod-eu-1", body, headers(body));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
  });

  it("rejects a malformed body with 400", async () => {
    for (const body of ["{not json", JSON.stringify({ involvedObject: { kind: "Kustomization" }, severity: "info" })]) {
      const res = await post("prod-eu-1", body, { "x-signature": sign(body, "default-key") });
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("invalid_request");
    }
  });

  it.each([
    ["a NUL in the message", { message: "build failed \u0000 here" }],
    ["a NUL in a metadata key", { metadata: { "re\u0000vision": "main@sha1:1" } }],
    ["a NUL in a metadata value", { metadata: { revision: "\u0000" } }],
    ["a lone surrogate in a metadata value", { metadata: { revision: "\ud800" } }],
    ["a NUL in the object name", { involvedObject: { kind: "Kustomization", namespace: "flux-system", name: "apps\u0000" } }],
    ["a timestamp in year 0", { timestamp: "0000-01-01T00:00:00Z" }],
    ["a timestamp before 2000", { timestamp: "1999-12-31T23:59:59Z" }],
    ["a timestamp a year ahead", { timestamp: new Date(Date.now() + 366 * 86_400_000).toISOString() }],
  ])("refuses a correctly signed event with %s: 400, nothing stored", async (_name, change) => {
    const before = [await db.prisma().webhookEvent.count(), await db.prisma().collectorNudge.count()];
    const body = JSON.stringify({ ...JSON.parse(event()), ...change });
    const res = await post("prod-eu-1", body, { "x-signature": sign(body, "default-key") });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("invalid_request");
    expect([await db.prisma().webhookEvent.count(), await db.prisma().collectorNudge.count()]).toEqual(before);
  });

  it("answers 404 for an unknown cluster", async () => {
    const body = event();
    const res = await post("nowhere", body, { "x-signature": sign(body, "default-key") });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatchObject({ code: "not_found" });
  });

  it("refuses bodies over the size limit", async () => {
    setEnv({ WEBHOOK_MAX_BODY_BYTES: "1024" });
    const body = event("x".repeat(2000));
    const res = await post("prod-eu-1", body, { "x-signature": sign(body, "default-key") });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("payload_too_large");
  });

  it("accepts unsigned generic webhooks only when allowed", async () => {
    const body = event("generic");
    expect((await post("prod-eu-1", body)).status).toBe(401);
    setEnv({ WEBHOOK_ALLOW_GENERIC: "true" });
    expect((await post("prod-eu-1", body)).status).toBe(202);
    // A signature, when sent, is still checked.
    expect((await post("prod-eu-1", event("generic2"), { "x-signature": sign("other", "default-key") })).status).toBe(401);
  });
});
