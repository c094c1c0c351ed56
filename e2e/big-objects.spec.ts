// Big objects stay usable: the huge-message spoke's `tenants` Kustomization carries a 32 KiB health-check
// message (in its Ready and Healthy conditions, its Events and its timeline) and the page shows it in full
// once, collapsed; the spoke's 130 objects are a cluster page of 100 rows, problems first, with exact
// counts and a next page. Does not move the simulated clock.
import { expect, test } from "@playwright/test";
import { createFleetModel } from "../lib/simulator/fleet/index";
import { E2E_FLEET, e2eSimEpoch } from "./fleet";

const facts = createFleetModel({ ...E2E_FLEET, epoch: e2eSimEpoch() }).facts;
const huge = facts.hugeMessage!;
const objectUrl = `/clusters/${huge.cluster}/kustomization/${huge.namespace}/${huge.name}`;
const apiUrl = `/api/objects/${huge.cluster}/kustomization/${huge.namespace}/${huge.name}`;

test("a 32 KiB condition message is on the object page once, collapsed, and expands", async ({ page, request }) => {
  // The collector's first poll of that spoke may still be running.
  let message = "";
  await expect(async () => {
    const res = await request.get(apiUrl);
    expect(res.status()).toBe(200);
    message = (await res.json()).object.readyMessage;
    expect(message.length).toBe(32_768);
  }).toPass({ timeout: 60_000 });
  // A piece from the middle of the message: only its full text contains it.
  const probe = message.slice(16_000, 16_120);

  await page.goto(objectUrl);
  await expect(page.getByTestId("object-health")).toContainText("failing");
  const full = page.getByTestId("ready-message").locator("details");
  await expect(full).toHaveCount(1);
  await expect(full).not.toHaveAttribute("open", "");
  await expect(full.locator("summary")).toContainText("show all 32,768 characters");
  // The text is in the page once: the Ready and Healthy conditions, the Events and the timeline show excerpts.
  const occurrences = await page.locator("main").evaluate((main, probe) => main.textContent!.split(probe).length - 1, probe);
  expect(occurrences).toBe(1);
  await expect(page.locator('tr[data-condition="Ready"] [data-excerpt]')).toContainText("the full message is above");
  await expect(page.locator('tr[data-condition="Healthy"] [data-excerpt]')).toBeVisible();
  const events = page.getByRole("table", { name: "Events kept for this object" });
  await expect(events.locator("[data-excerpt]").first()).toContainText("health check failed after 10m0.");
  // What the server sends carries it once as HTML and at most once in the React payload that hydrates it.
  const html = await (await request.get(objectUrl)).text();
  expect(html.split(probe.replace(/'/g, "&#x27;")).length - 1).toBe(1);
  expect(html.split(probe).length - 1).toBeLessThanOrEqual(1);

  await full.locator("summary").click();
  await expect(full).toHaveAttribute("open", "");
  await expect(full.locator("p")).toContainText(probe);
  await page.screenshot({ path: "e2e/artifacts/big-object.png" });
});

test("a cluster with more objects than a page shows problems first, exact counts and the rest on the next page", async ({ page }) => {
  await page.goto(`/clusters/${huge.cluster}`);
  const table = page.getByTestId("cluster-objects");
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(100);
  const all = page.locator('[data-kind-filter="all"]');
  await expect(all).toHaveText(/All kinds \((\d+)\)/);
  const total = Number((await all.textContent())!.match(/\((\d+)\)/)![1]);
  expect(total).toBeGreaterThan(100);
  await expect(table.getByRole("navigation")).toContainText(`Showing 1–100 of ${total} objects`);
  // Problems first: the failing `tenants` and `apps` Kustomizations head the list, ready objects follow.
  const first = await rows.evaluateAll((trs) => trs.slice(0, 2).map((tr) => tr.getAttribute("data-object")));
  expect(first.sort()).toEqual(["flux-system/apps", "flux-system/tenants"]);
  await expect(rows.nth(0).locator("[data-health]").first()).toHaveAttribute("data-health", "failing");
  await expect(rows.nth(99).locator("[data-health]").first()).toHaveAttribute("data-health", "ready");
  // The long message is one line in the list.
  await expect(table.locator('tr[data-object="flux-system/tenants"]')).not.toContainText("tenant-380");

  await table.getByRole("link", { name: "next →" }).click();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(rows).toHaveCount(total - 100);
  await expect(table.getByRole("navigation")).toContainText(`Showing 101–${total} of ${total} objects`);

  // A kind at a time, with its exact count.
  await page.locator('[data-kind-filter="HelmRelease"]').click();
  await expect(page).toHaveURL(/kind=helmrelease/);
  const helm = Number((await page.locator('[data-kind-filter="HelmRelease"]').textContent())!.match(/\((\d+)\)/)![1]);
  await expect(rows).toHaveCount(Math.min(100, helm));
  for (const kind of await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-kind")))) expect(kind).toBe("HelmRelease");
});
