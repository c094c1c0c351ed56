// A person looking at /failures sees a new failure appear without touching anything: a spoke stops
// answering (a simulator fault), the collector records it and notifies, the change stream tells the open
// page, and the page fetches the failures again in place. No reload happens, and the page heard the change
// on its stream (the poll stays as the fallback, so the proof is the event, not a stopwatch).
import { expect, type Page, test } from "@playwright/test";
import pg from "pg";

// A spoke no other spec needs unreachable; it is reachable again before this spec ends.
const CLUSTER = "prod-use1-009";

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run through \`npm run test:e2e\``);
  return value;
}

let db: pg.Pool;
test.beforeAll(() => {
  db = new pg.Pool({ connectionString: env("E2E_DATABASE_URL"), max: 2 });
});
test.afterAll(async () => {
  await db.end();
});

/** Reached, and its last poll or watch worked (null while the collector has not seen it). */
const reachable = async () =>
  (
    await db.query<{ reachable: boolean }>(
      `SELECT "lastSuccessAt" IS NOT NULL AND NOT COALESCE("lastErrorAt" > "lastSuccessAt", false) AS reachable FROM cluster WHERE name = $1`,
      [CLUSTER],
    )
  ).rows[0]?.reachable ?? null;

test.setTimeout(180_000);

test("a new failure appears on an open /failures page without a reload", async ({ page }) => {
  await expect.poll(reachable, { timeout: 60_000 }).toBe(true);
  await page.goto("/failures?problem=unreachable");
  const totals = page.getByTestId("failures-totals");
  await expect(totals).toHaveAttribute("data-stream", "open");
  const group = page.locator('[data-testid="failure-group"][data-problem="unreachable"]');
  await expect(group.getByRole("link", { name: CLUSTER, exact: true })).toHaveCount(0);
  const eventsBefore = Number(await totals.getAttribute("data-change-events"));
  // Anything that reloads or navigates the page would lose this mark and count a navigation.
  await page.evaluate(() => ((window as unknown as { liveMark: string }).liveMark = "still here"));
  let navigations = 0;
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) navigations++;
  });

  const fault = await fetch(`${env("E2E_SIM_CONTROL_URL")}/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ cluster: CLUSTER, unreachable: true }),
  });
  expect(fault.ok).toBe(true);
  try {
    await expect(group.getByRole("link", { name: CLUSTER, exact: true })).toBeVisible({ timeout: 90_000 });
    expect(navigations).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { liveMark?: string }).liveMark)).toBe("still here");
    // The page heard it on the change stream (not only through its fallback poll).
    expect(Number(await totals.getAttribute("data-change-events"))).toBeGreaterThan(eventsBefore);
    await expect(totals).toHaveAttribute("data-stream", "open");
  } finally {
    await fetch(`${env("E2E_SIM_CONTROL_URL")}/faults/${encodeURIComponent(CLUSTER)}`, { method: "DELETE" });
  }
  // The failure clears the same way, and the next spec finds the fleet as it was.
  await expect(group.getByRole("link", { name: CLUSTER, exact: true })).toHaveCount(0, { timeout: 90_000 });
  expect(navigations).toBe(0);
  await expect.poll(reachable, { timeout: 60_000 }).toBe(true);
});

// A browser opens at most six HTTP/1.1 connections to one host: with a stream per tab the seventh tab would
// never load. Tabs share one stream (the tab holding a Web Lock opens it and passes what it hears on).
test("eight tabs share one change stream: every tab loads, and a change reaches the last one opened", async ({ context }) => {
  await expect.poll(reachable, { timeout: 60_000 }).toBe(true);
  const { rows } = await db.query<{ namespace: string; name: string }>(
    `SELECT o.namespace, o.name FROM flux_object o JOIN cluster c ON c.id = o."clusterId"
      WHERE c.name = $1 AND o.kind = 'Kustomization' AND o.health = 'ready' AND NOT o.suspended AND o."deletedAt" IS NULL
      ORDER BY o.namespace, o.name LIMIT 1`,
    [CLUSTER],
  );
  expect(rows).toHaveLength(1);
  const target = rows[0];
  const pages: Page[] = [];
  for (let i = 0; i < 8; i++) {
    const tab = await context.newPage();
    await tab.goto(`/failures?cluster=${CLUSTER}`, { timeout: 30_000 });
    await expect(tab.getByTestId("failures-totals")).toHaveAttribute("data-stream", "open");
    pages.push(tab);
  }
  const last = pages[pages.length - 1];
  const totals = last.getByTestId("failures-totals");
  const eventsBefore = Number(await totals.getAttribute("data-change-events"));
  const link = last.locator(`a[href="/clusters/${CLUSTER}/kustomization/${target.namespace}/${target.name}"]`);
  await expect(link).toHaveCount(0);

  const churn = (expected: string) =>
    fetch(`${env("E2E_SIM_CONTROL_URL")}/churn/object`, {
      method: "POST",
      body: JSON.stringify({ cluster: CLUSTER, kind: "Kustomization", namespace: target.namespace, name: target.name }),
    }).then(async (r) => {
      expect(r.ok).toBe(true);
      expect(((await r.json()) as { change: string }).change).toBe(expected);
    });
  await churn("failed");
  try {
    await expect(link.first()).toBeAttached({ timeout: 30_000 });
    expect(Number(await totals.getAttribute("data-change-events"))).toBeGreaterThan(eventsBefore);
  } finally {
    await churn("recovered");
  }
  await expect(link).toHaveCount(0, { timeout: 30_000 });
  for (const tab of pages) await tab.close();
});
