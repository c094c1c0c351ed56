// Argo CD triage against the real stack: the add-on Degraded in every prod cluster is one failure group
// counting those clusters; its member opens the Application's page (Argo CD's health and sync, sources,
// destination), the destination link opens the spoke with what its Argo CD cluster secret says; a spoke
// reached only through an exec plugin says why it is not read; Argo CD notification fields land on the
// Application through /go. Holds at any simulated time from t0 on.
import { expect, test } from "@playwright/test";
import { createFleetModel } from "../lib/simulator/fleet/index";
import { E2E_FLEET, e2eSimEpoch } from "./fleet";

test.setTimeout(120_000);

const fleet = createFleetModel({ ...E2E_FLEET, epoch: e2eSimEpoch() });
const argo = fleet.facts.argocd!;
const degraded = argo.degradedAddon.applications;
// A destination that is also a Flux spoke: it has both ways in.
const app = degraded.find((name) => argo.fluxSpokes.some((spoke) => name === `addon-${spoke}-aws-load-balancer-controller`))!;
const destination = argo.fluxSpokes.find((spoke) => app === `addon-${spoke}-aws-load-balancer-controller`)!;
const appUrl = `/clusters/hub/application/argocd/${app}`;

test("a Degraded add-on is one failure group; its Application page leads to the destination cluster", async ({ page }) => {
  await expect(async () => {
    await page.goto("/failures?kind=application");
    const group = page.locator('[data-testid="failure-group"][data-reason="Degraded"]').filter({ hasText: app });
    await expect(group).toHaveCount(1, { timeout: 1000 });
    await expect(group).toHaveAttribute("data-cluster-count", String(degraded.length), { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  const group = page.locator('[data-testid="failure-group"][data-reason="Degraded"]').filter({ hasText: app });
  for (const name of degraded) await expect(group.locator(`a[href="/clusters/hub/application/argocd/${name}"]`).first()).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/argocd-failures.png", fullPage: true });

  await group.locator(`a[href="${appUrl}"]`).first().click();
  await expect(page).toHaveURL(appUrl);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`argocd/${app}`);
  const section = page.locator(`section[aria-labelledby="argocd-title"]`);
  await expect(section).toContainText("Degraded");
  await expect(section).toContainText("Synced");
  await expect(section).toContainText("aws-load-balancer-controller");
  await expect(page.getByTestId("applies-to")).toContainText(destination);
  // Argo CD writes no observed generation: the page says so instead of "? of N observed".
  await expect(page.getByText("the controller reports no observed generation")).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/argocd-application.png", fullPage: true });

  await section.getByRole("link", { name: destination, exact: true }).click();
  await expect(page).toHaveURL(`/clusters/${destination}`);
  await expect(page.getByRole("heading", { level: 1, name: destination })).toBeVisible();
  const secret = page.locator(`section[aria-labelledby="argocd-secret-title"]`);
  await expect(secret).toContainText(`argocd/${destination}`);
  await expect(secret).toContainText("an EKS token for cluster");
  await expect(secret).toContainText("aws_load_balancer_controller");
});

test("the fleet counts Argo CD apps beside Flux objects, where they live", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("columnheader", { name: "Argo CD apps" })).toBeVisible();
  const hub = page.locator('tr[data-cluster="hub"]');
  const column = await page.getByRole("columnheader").allTextContents();
  const argoCell = hub.locator("td").nth(column.indexOf("Argo CD apps") - 1);
  await expect(argoCell).toContainText("failing");
  await expect(argoCell).toContainText("ready");
});

test("a spoke reached only through an exec plugin says why it is not read", async ({ page }) => {
  const exec = argo.argoOnly.find((s) => s.auth === "exec")!.name;
  await page.goto(`/clusters/${exec}`);
  await expect(page.locator(`section[aria-labelledby="argocd-secret-title"]`).getByRole("alert")).toContainText('exec plugin "tsh"');
});

test("Argo CD notification fields land on the Application through /go", async ({ page }) => {
  await page.goto(`/go?${new URLSearchParams({ cluster: "hub", app, app_namespace: "argocd" })}`);
  await expect(page).toHaveURL(appUrl);
});
