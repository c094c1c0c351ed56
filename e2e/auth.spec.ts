// Sign-in through a real local OIDC provider and what each role may do. A second web server with
// AUTH_MODE=oidc shares the global stack's database, collector and simulator.
import { spawn } from "node:child_process";
import { KubeConfig } from "@kubernetes/client-node";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { freePort } from "../lib/db/embedded";
import { createClusterClient } from "../lib/kube/client";
import { nextBin } from "../scripts/lib/processes";
import { startOidcWeb, type OidcWeb } from "./auth-stack";

let web: OidcWeb;
let target: { cluster: string; namespace: string; name: string };
let objectPath: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  web = await startOidcWeb();
  target = await waitForActionableObject();
  objectPath = `/clusters/${encodeURIComponent(target.cluster)}/kustomization/${encodeURIComponent(target.namespace)}/${encodeURIComponent(target.name)}`;
});
test.afterAll(async () => {
  await web?.stop();
});

/** A Kustomization, not suspended, in a cluster the collector reached in the last minute. */
async function waitForActionableObject() {
  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    for (let i = 0; i < 120; i++) {
      const { rows } = await db.query<{ cluster: string; namespace: string; name: string }>(
        `SELECT c.name AS cluster, fo.namespace, fo.name FROM flux_object fo JOIN cluster c ON c.id = fo."clusterId"
          WHERE fo.kind = 'Kustomization' AND NOT fo.suspended AND fo."deletedAt" IS NULL AND c."lastSuccessAt" > now() - interval '1 minute'
            AND (c."lastErrorAt" IS NULL OR c."lastErrorAt" < c."lastSuccessAt")
          ORDER BY c.role DESC, c.name, fo.namespace, fo.name LIMIT 1`,
      );
      if (rows[0]) return rows[0];
      await new Promise((r) => setTimeout(r, 1000));
    }
    throw new Error("the collector stored no Kustomization from a reachable cluster within 2 minutes");
  } finally {
    await db.end();
  }
}

async function signIn(page: Page, login: string, path = "/") {
  await page.goto(`${web.baseUrl}${path}`);
  await expect(page).toHaveURL(/\/auth\/signin\?returnTo=/);
  await page.getByRole("link", { name: /Sign in with/ }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.waitForURL(`${web.baseUrl}${path}`);
}

function simulatorClient(cluster: string) {
  const kc = new KubeConfig();
  kc.loadFromFile(`${process.env.E2E_SIM_DIR}/fleet.kubeconfig`);
  kc.setCurrentContext(cluster);
  return createClusterClient(`e2e-${cluster}`, kc, { timeoutMs: 5000 });
}

test("unauthenticated: pages redirect to sign-in, APIs answer 401, a bad webhook signature 401", async ({ request }) => {
  const page = await request.get(`${web.baseUrl}/failures?kind=kustomization`, { maxRedirects: 0 });
  expect(page.status()).toBe(307);
  expect(page.headers().location).toContain("/auth/signin?returnTo=%2Ffailures%3Fkind%3Dkustomization");
  for (const api of ["/api/fleet", "/api/failures", "/api/freshness", "/metrics"]) {
    const res = await request.get(`${web.baseUrl}${api}`, { maxRedirects: 0 });
    expect(res.status(), api).toBe(401);
  }
  expect((await request.get(`${web.baseUrl}/api/health`)).status()).toBe(200);
  const forged = await request.post(`${web.baseUrl}/api/webhooks/flux/${encodeURIComponent(target.cluster)}`, {
    headers: { "content-type": "application/json", "x-signature": `sha256=${"0".repeat(64)}` },
    data: JSON.stringify({
      involvedObject: { kind: "Kustomization", namespace: target.namespace, name: target.name },
      severity: "info",
      reason: "x",
      message: "x",
      reportingController: "kustomize-controller",
      timestamp: new Date().toISOString(),
    }),
  });
  expect(forged.status()).toBe(401);
});

test("security headers on every response", async ({ request }) => {
  const res = await request.get(`${web.baseUrl}/auth/signin`);
  const h = res.headers();
  expect(h["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(h["referrer-policy"]).toBe("same-origin");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["strict-transport-security"]).toBeUndefined(); // plain HTTP here
  // A client saying it came over HTTPS is not a proxy we trust (TRUST_PROXY is unset here).
  expect(
    (await request.get(`${web.baseUrl}/api/health`, { headers: { "x-forwarded-proto": "https" } })).headers()["strict-transport-security"],
  ).toBeUndefined();
});

test("an object named like a static file (payments.txt) needs sign-in at its API and its page", async ({ request, page }) => {
  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO flux_object ("clusterId", kind, "apiVersion", namespace, name, health, "readyMessage", "contentHash")
       SELECT id, 'Kustomization', 'kustomize.toolkit.fluxcd.io/v1', $2, 'payments.txt', 'ready', 'card numbers live here', 'e2e-payments'
       FROM cluster WHERE name = $1 ON CONFLICT DO NOTHING`,
      [target.cluster, target.namespace],
    );
  } finally {
    await db.end();
  }
  const ref = `${encodeURIComponent(target.cluster)}/kustomization/${encodeURIComponent(target.namespace)}`;
  for (const name of ["payments.txt", "payments%2Etxt", "payments%2etxt"]) {
    const api = await request.get(`${web.baseUrl}/api/objects/${ref}/${name}`, { maxRedirects: 0 });
    expect(api.status(), name).toBe(401);
    expect(await api.text()).not.toContain("card numbers");
    const html = await request.get(`${web.baseUrl}/clusters/${ref}/${name}`, { maxRedirects: 0 });
    expect(html.status(), name).toBe(307);
    expect(html.headers().location).toContain("/auth/signin?returnTo=");
  }
  // Paths that leave /_next/static/ once resolved are not build files either.
  for (const sneaky of [
    `/_next/static/%2e%2e/%2e%2e/api/objects/${ref}/payments.txt`,
    `/_next/static/..%2F..%2Fapi/objects/${ref}/payments.txt`,
  ]) {
    const res = await request.get(`${web.baseUrl}${sneaky}`, { maxRedirects: 0 });
    expect([307, 401, 404], sneaky).toContain(res.status());
    expect(await res.text()).not.toContain("card numbers");
  }
  // The static files themselves still load without a session.
  expect((await request.get(`${web.baseUrl}/favicon.svg`)).status()).toBe(200);
  // Signed in, the same object is there: the 401s above are about the session, not a missing row.
  await signIn(page, "viewer", `/clusters/${ref}/payments.txt`);
  await expect(page.getByText("card numbers live here")).toBeVisible();
});

test("CSRF: a forged X-Forwarded-Host does not make a foreign Origin ours", async ({ request }) => {
  const forged = await request.post(`${web.baseUrl}/auth/logout`, {
    headers: { origin: "https://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  const ours = await request.post(`${web.baseUrl}/auth/logout`, { headers: { origin: web.baseUrl }, maxRedirects: 0 });
  expect(ours.status()).toBe(303);
});

test("AUTH_MODE=oidc without SESSION_SECRET refuses to start, in one line", async () => {
  const proc = spawn(process.execPath, [nextBin, "start", "-p", String(await freePort()), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      DATABASE_URL: process.env.E2E_DATABASE_URL,
      AUTH_MODE: "oidc",
      HOSTNAME: "127.0.0.1",
      PUBLIC_URL: "http://127.0.0.1:1",
      OIDC_ISSUER: web.provider.issuer,
      OIDC_CLIENT_ID: "crows-nest",
      SESSION_SECRET: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  proc.stdout.on("data", (c: Buffer) => (output += c.toString()));
  proc.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => proc.on("exit", resolve));
  expect(code).not.toBe(0);
  const refusal = output.split("\n").filter((l) => l.includes("refusing to start"));
  expect(refusal).toHaveLength(1);
  expect(refusal[0]).toContain("SESSION_SECRET");
});

test("a viewer sees no actions, and a forged action request gets 403", async ({ page }) => {
  await signIn(page, "viewer", objectPath);
  await expect(page.getByTestId("object-actions")).toBeVisible();
  await expect(page.getByRole("button", { name: "Reconcile now" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Suspend" })).toHaveCount(0);
  const forged = await page.request.post(`${web.baseUrl}/api/actions`, {
    headers: { origin: web.baseUrl, "content-type": "application/json" },
    data: {
      action: "reconcile",
      cluster: target.cluster,
      kind: "kustomization",
      namespace: target.namespace,
      name: target.name,
      csrfToken: "guessed",
    },
  });
  expect(forged.status()).toBe(403);
  expect((await page.request.get(`${web.baseUrl}/audit`)).status()).toBe(403);
});

test("an operator reconciles: the simulator shows the annotation and the audit entry is listed", async ({ page }) => {
  await signIn(page, "operator", objectPath);
  await page.getByRole("button", { name: "Reconcile now" }).click();
  await expect(page.getByRole("group", { name: "Confirm action" })).toContainText(`${target.namespace}/${target.name}`);
  await page.getByRole("button", { name: "Yes, reconcile now" }).click();
  const result = page.getByTestId("action-result");
  await expect(result).toContainText("reconciliation requested at ");
  const requestedAt = (await result.textContent())!.replace(/^.*reconciliation requested at /, "").trim();
  const path = `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${target.namespace}/kustomizations/${target.name}`;
  const live = await simulatorClient(target.cluster).getJson<{ metadata: { annotations?: Record<string, string> } }>(path);
  expect(live.metadata.annotations?.["reconcile.fluxcd.io/requestedAt"]).toBe(requestedAt);
  const row = page.getByTestId("audit-row").filter({ hasText: "Otto Operator" }).filter({ hasText: "reconcile" }).first();
  await expect(row).toContainText("ok");
  // Operators do not read the audit log.
  expect((await page.request.get(`${web.baseUrl}/audit`)).status()).toBe(403);
});

test("an admin reads the audit log with the operator's action and the sign-ins", async ({ page }) => {
  await signIn(page, "admin", "/audit");
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  await expect(page.getByTestId("audit-row").filter({ hasText: "Otto Operator" }).filter({ hasText: "reconcile" }).first()).toContainText(
    target.name,
  );
  await expect(page.getByTestId("audit-row").filter({ hasText: "Vera Viewer" }).filter({ hasText: "denied" }).first()).toBeVisible();
  await expect(page.getByTestId("audit-row").filter({ hasText: "sign-in" }).first()).toBeVisible();
});

test("a user in no allowed group cannot sign in", async ({ page }) => {
  await page.goto(`${web.baseUrl}/`);
  await page.getByRole("link", { name: /Sign in with/ }).click();
  await page.locator('input[name="login"]').fill("outsider");
  await page.locator('input[name="password"]').fill("x");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "none of the groups" })).toBeVisible();
  expect((await page.request.get(`${web.baseUrl}/api/fleet`)).status()).toBe(401);
});
