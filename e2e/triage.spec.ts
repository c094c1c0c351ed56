// Triage and on-call against the real stack (simulator → collector → Postgres → web): the bad commit
// shows on /failures as one group, a /go link built from alert labels lands on the object, a signed
// webhook appears on its timeline, and after the fix the object turns ready with both transitions kept.
// The simulator clock starts stopped at t0, when the bad commit (pushed half an hour before) already
// fails in several clusters; this spec moves the clock (it assumes no earlier spec moved it).
import { createHmac } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createFleetModel } from "../lib/simulator/fleet/index";
import { E2E_FLEET, e2eSimEpoch } from "./fleet";

test.describe.configure({ mode: "serial" });
test.setTimeout(240_000);

const MINUTE = 60_000;
// The same fleet global-setup starts.
const facts = createFleetModel({ ...E2E_FLEET, epoch: e2eSimEpoch() }).facts;
const badClusters = facts.badCommit.clusters;
const cluster = badClusters[0];
const objectUrl = `/clusters/${cluster}/kustomization/flux-system/apps`;

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run through \`npm run test:e2e\``);
  return value;
}

async function simState(): Promise<{ simTime: string }> {
  const res = await fetch(`${env("E2E_SIM_CONTROL_URL")}/state`);
  return res.json();
}

/** Moves the simulated clock so that `target` ms have passed since this spec started it. */
let startedAt = 0;
async function advanceTo(target: number) {
  const now = Date.parse((await simState()).simTime);
  const ms = startedAt + target - now;
  if (ms > 0) {
    const res = await fetch(`${env("E2E_SIM_CONTROL_URL")}/advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ms }),
    });
    expect(res.ok).toBe(true);
  }
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/artifacts/triage-${name}.png`, fullPage: true });
}

test.beforeAll(async () => {
  startedAt = Date.parse((await simState()).simTime);
});

test("the fleet overview lists every cluster with reachability, counts and versions", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Fleet" })).toBeVisible();
  for (const name of badClusters) await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
  await expect(page.getByTestId("fleet-summary")).toContainText("Clusters");
  await shot(page, "fleet");
  // Filters live in the query string.
  await page.getByLabel("Environment").selectOption("staging");
  await expect(page).toHaveURL(/env=staging/);
  await expect(page.locator("tr[data-cluster]").first()).toHaveAttribute("data-env", "staging");
  await page.goto("/clusters");
  await expect(page.getByRole("heading", { level: 1, name: "Clusters" })).toBeVisible();
  await shot(page, "clusters");
});

test("from t0 the bad commit shows on /failures as one group with the right cluster count", async ({ page }) => {
  // The bad commit was pushed 30 min before t0: the first page already shows it failing in every bad-commit spoke.
  await expect(async () => {
    await page.goto("/failures?kind=kustomization");
    const group = page.locator('[data-testid="failure-group"][data-reason="HealthCheckFailed"]').filter({ hasText: "checkout-api" });
    await expect(group).toHaveCount(1, { timeout: 1000 });
    await expect(group).toHaveAttribute("data-cluster-count", String(badClusters.length), { timeout: 1000 });
    for (const name of badClusters)
      await expect(
        group
          .getByRole("link", { name: "flux-system/apps" })
          .and(group.locator(`[href="/clusters/${name}/kustomization/flux-system/apps"]`)),
      ).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  await page.goto("/failures");
  await expect(page.getByTestId("failures-totals")).toContainText("clusters");
  await shot(page, "failures");
  // Same data as JSON for scripts.
  const api = await (await page.request.get("/api/failures?kind=kustomization")).json();
  const group = api.groups.find(
    (g: { reason: string; message: string }) => g.reason === "HealthCheckFailed" && g.message.includes("checkout-api"),
  );
  expect(group.clusterCount).toBe(badClusters.length);
  expect(group.firstFailedAt).toMatch(/^\d{4}-/);
  expect(group.members.map((m: { url: string }) => m.url).sort()).toEqual(
    badClusters.map((c) => `/clusters/${c}/kustomization/flux-system/apps`).sort(),
  );
});

test("a /go link built from alert labels lands on the object", async ({ page }) => {
  const labels = new URLSearchParams({
    cluster,
    customresource_kind: "Kustomization",
    exported_namespace: "flux-system",
    namespace: "monitoring",
    name: "apps",
  });
  const res = await page.request.get(`/go?${labels}`, { maxRedirects: 0 });
  expect(res.status()).toBe(302);
  expect(res.headers().location).toBe(objectUrl);
  await page.goto(`/go?${labels}`);
  await expect(page).toHaveURL(objectUrl);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("flux-system/apps");
  await expect(page.getByTestId("object-health")).toContainText("failing");
  await expect(page.getByTestId("failing-for")).toContainText(/failing for \d/);
  await expect(page.getByTestId("ready-message")).toContainText("checkout-api");
  await shot(page, "object-failing");
  await page.setViewportSize({ width: 412, height: 915 });
  await shot(page, "object-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Ambiguous labels → a chooser; unknown → 404 with the nearest matches.
  await page.goto("/go?kind=ks&name=apps");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Which object");
  await expect(page.getByRole("list", { name: "Matching objects" }).getByRole("link").first()).toBeVisible();
  await shot(page, "go-chooser");
  const missing = await page.goto(`/go?cluster=${cluster}&kind=Kustomization&namespace=flux-system&name=aps`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("list", { name: "Nearest matches" }).locator(`a[href="${objectUrl}"]`)).toBeVisible();
  await shot(page, "go-not-found");
});

test("a signed webhook appears on the object's timeline", async ({ page, request }) => {
  const message = `e2e webhook ${Date.now()}: health check failed`;
  const body = JSON.stringify({
    involvedObject: { apiVersion: "kustomize.toolkit.fluxcd.io/v1", kind: "Kustomization", name: "apps", namespace: "flux-system" },
    severity: "error",
    timestamp: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    message,
    reason: "HealthCheckFailed",
    metadata: { revision: "main@sha1:0000000000000000000000000000000000000000" },
    reportingController: "kustomize-controller",
  });
  const signature = `sha256=${createHmac("sha256", env("E2E_WEBHOOK_SECRET")).update(body).digest("hex")}`;
  const res = await request.post(`/api/webhooks/flux/${cluster}`, {
    data: body,
    headers: { "content-type": "application/json", "x-signature": signature },
  });
  expect(res.status()).toBe(202);
  const bad = await request.post(`/api/webhooks/flux/${cluster}`, {
    data: body,
    headers: { "content-type": "application/json", "x-signature": "sha256=" + "0".repeat(64) },
  });
  expect(bad.status()).toBe(401);
  await page.goto(objectUrl);
  await expect(page.getByTestId("timeline").locator('li[data-type="webhook"]').filter({ hasText: message })).toBeVisible();
});

test("open object and cluster pages follow the fix without a reload: status, conditions and timeline together", async ({
  page,
  context,
}) => {
  await page.goto(objectUrl);
  await expect(page.getByTestId("object-health")).toContainText("failing");
  const ready = page.locator('tr[data-condition="Ready"]');
  await expect(ready).toHaveAttribute("data-status", "False");
  await expect(page.getByTestId("ready-message")).toContainText("checkout-api");
  const transitions = page.getByTestId("timeline").locator('li[data-type="transition"]');
  const before = await transitions.count();
  const clusterPage = await context.newPage();
  await clusterPage.goto(`/clusters/${cluster}`);
  const appsRow = clusterPage.locator('tr[data-object="flux-system/apps"][data-kind="Kustomization"]');
  await expect(appsRow.locator("[data-health]").first()).toHaveAttribute("data-health", "failing");
  // A reload would drop these marks: they prove the pages changed in place.
  for (const p of [page, clusterPage]) await p.evaluate(() => Object.assign(window, { __sameDocument: true }));

  // the fix lands at 15 min; sources fetch within 5 min; the fixed revision passes health checks in 25 s.
  await advanceTo(22 * MINUTE);
  // Every section moves with the badge: the collector polls every 2 s, the page checks its version every 15 s.
  await expect(page.getByTestId("object-health")).toContainText("ready", { timeout: 60_000 });
  await expect(page.getByTestId("failing-for")).toHaveCount(0);
  await expect(ready).toHaveAttribute("data-status", "True");
  await expect(page.getByTestId("ready-message")).not.toContainText("checkout-api");
  await expect(transitions.first()).toHaveAttribute("data-health", "ready");
  expect(await transitions.count()).toBeGreaterThan(before);
  await expect(appsRow.locator("[data-health]").first()).toHaveAttribute("data-health", "ready", { timeout: 60_000 });
  await expect(clusterPage.getByTestId("cluster-transitions").locator('li[data-health="ready"]').first()).toBeVisible();
  for (const p of [page, clusterPage]) expect(await p.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await clusterPage.close();
});

test("after the fix the object turns ready and its timeline shows both transitions", async ({ page }) => {
  // the fix lands at 15 min; sources fetch within 5 min; the fixed revision passes health checks in 25 s.
  await advanceTo(22 * MINUTE);
  await expect(async () => {
    await page.goto(objectUrl);
    await expect(page.getByTestId("object-health")).toContainText("ready", { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  const transitions = page.getByTestId("timeline").locator('li[data-type="transition"]');
  await expect(transitions.first()).toHaveAttribute("data-health", "ready");
  await expect(transitions.first()).not.toHaveAttribute("data-previous-health", "ready");
  await expect(transitions.and(page.locator('[data-health="failing"]'))).not.toHaveCount(0);
  await shot(page, "object-fixed");
  await page.goto(`/clusters/${cluster}`);
  await expect(page.getByRole("heading", { level: 2, name: "Recent transitions" })).toBeVisible();
  await shot(page, "cluster");
  const failures = await (await page.request.get("/api/failures?kind=kustomization")).json();
  expect(failures.groups.some((g: { message: string }) => g.message.includes("checkout-api"))).toBe(false);
});
