// Upgrades for managers, on the simulated fleet: the add-on matrix with standings and CSV, support
// deadlines and extended-support cost, kubelet skew, a removed-API blocker, and trends that move when
// the simulator upgrades a cluster.
//
// The simulated HelmRepositories name the real chart repositories, which this machine cannot reach. The
// simulator's chart mirror answers for them from its catalogue, and the collector reads them through it
// (UPSTREAM_MIRRORS), as it would through a mirror in an air-gapped network.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import semver from "semver";
import { HELM_ADDONS } from "../lib/simulator/fleet/catalogue";
import { createFleetModel, type ScenarioFacts } from "../lib/simulator/fleet";
import { E2E_FLEET } from "./fleet";

const databaseUrl = process.env.E2E_DATABASE_URL!;
const controlUrl = process.env.E2E_SIM_CONTROL_URL!;

let db: pg.Pool;
let facts: ScenarioFacts;

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const scalar = async <T>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows[0] as T | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const ports = JSON.parse(readFileSync(path.join(process.env.E2E_SIM_DIR!, "ports.json"), "utf8")) as { clusters: Record<string, number> };
  facts = createFleetModel({ ...E2E_FLEET, clusters: Object.keys(ports.clusters).length, epoch: 0 }).facts;
  expect(facts.extendedSupport, "the e2e fleet needs the extended-support spoke (at least 8 clusters)").toBeTruthy();
  expect(facts.nodeGroupSkew, "the e2e fleet needs the node-group-skew spoke (at least 9 clusters)").toBeTruthy();
  expect(facts.scheduledUpgrade, "the e2e fleet needs the scheduled-upgrade spoke (at least 10 clusters)").toBeTruthy();

  // Wait until the collector has seen HelmReleases, their sources and the EKS facts.
  await waitFor(
    "HelmReleases and node groups collected",
    async () => {
      const r = await scalar<{ releases: number; sources: number; nodegroups: number }>(
        `SELECT (SELECT count(*)::int FROM flux_object WHERE kind = 'HelmRelease' AND "chartName" IS NOT NULL) AS releases,
              (SELECT count(*)::int FROM flux_object WHERE kind IN ('HelmRepository', 'OCIRepository')) AS sources,
              (SELECT count(*)::int FROM node_group) AS nodegroups`,
      );
      return r && r.releases > 5 && r.sources > 5 && r.nodegroups > 0;
    },
    90_000,
  );

  // The collector reads the charts' latest versions through the simulator's chart mirror (UPSTREAM_MIRRORS).
  await waitFor(
    "latest upstream versions fetched by the collector",
    async () => {
      const r = await scalar<{ known: number }>(`SELECT count(*)::int AS known FROM chart_upstream WHERE "latestVersion" IS NOT NULL`);
      return r && r.known > 5;
    },
    90_000,
  );
});

test.afterAll(async () => {
  await db?.end();
});

function expectedStanding(applied: string, latest: string): string {
  const a = semver.coerce(applied, { includePrerelease: true })!.version;
  const l = semver.coerce(latest, { includePrerelease: true })!.version;
  if (semver.gte(a, l)) return "current";
  return semver.diff(a, l) === "major" ? "major" : semver.diff(a, l) === "minor" ? "minor" : "patch";
}

async function cellsOf(page: Page, addon: string) {
  const row = page.locator(`tr[data-addon="${addon}"][data-kind="helm"]`).first();
  return row.locator("td[data-cluster]").evaluateAll((tds) =>
    tds.map((td) => ({
      cluster: td.getAttribute("data-cluster")!,
      standing: td.getAttribute("data-standing")!,
      applied: td.querySelector(".font-mono")?.textContent ?? "",
    })),
  );
}

test("the add-on matrix shows mixed chart versions with the right standings, hover details and a CSV export", async ({ page }) => {
  await page.goto("/addons");
  await expect(page.getByRole("heading", { level: 1, name: "Add-ons" })).toBeVisible();
  // The matrix scrolls inside its box; the page itself never scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
  const table = page.getByRole("table", { name: "Add-on versions by cluster" });
  await expect(table).toBeVisible();

  // Every Helm add-on of the catalogue: each installed cell's standing follows semver against the latest.
  let mixed = 0;
  let checked = 0;
  for (const addon of HELM_ADDONS) {
    const cells = await cellsOf(page, addon.chart);
    if (!cells.length) continue; // not every catalogue chart is installed in a small fleet
    checked++;
    const latest = addon.versions[0];
    for (const c of cells) {
      if (c.standing === "failing") continue;
      expect(`${addon.chart}@${c.cluster} ${c.applied}: ${c.standing}`).toBe(
        `${addon.chart}@${c.cluster} ${c.applied}: ${expectedStanding(c.applied, latest)}`,
      );
    }
    if (new Set(cells.map((c) => c.applied)).size > 1) mixed++;
  }
  expect(checked, "catalogue charts in the matrix").toBeGreaterThanOrEqual(5);
  expect(mixed, "some add-ons run different versions across clusters").toBeGreaterThan(0);
  await expect(table.locator('td[data-skewed="true"]').first()).toBeVisible();

  // Every standing shows as words, not colour alone.
  await expect(table.getByText(/behind by (minor|major)/).first()).toBeVisible();

  // Hover: desired, applied and latest versions.
  const someCell = table.locator('tr[data-addon="cert-manager"] td[data-standing]:not([data-standing="missing"]) [tabindex="0"]').first();
  await someCell.hover();
  const tip = someCell.getByRole("tooltip");
  await expect(tip).toBeVisible();
  await expect(tip).toContainText("Desired");
  await expect(tip).toContainText("Applied");
  await expect(tip).toContainText("Latest");
  await expect(tip).toContainText(HELM_ADDONS.find((a) => a.chart === "cert-manager")!.versions[0]);

  // Grouping by team keeps every cluster and adds the team headers.
  await page.goto("/addons?group=team");
  await expect(page.getByRole("columnheader", { name: "payments" })).toBeVisible();

  // CSV: the whole matrix.
  await page.goto("/addons");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^crows-nest-addons-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
  expect(csv[0]).toMatch(/^add-on,kind,repository,latest,latest source,skew,/);
  expect(csv[0]).toContain(facts.extendedSupport!.cluster);
  const certRow = csv.find((l) => l.startsWith("cert-manager,helm,https://charts.jetstack.io,"));
  expect(certRow).toBeTruthy();
  expect(certRow).toMatch(/\((current|behind by (patch|minor|major)|failing)\)/);
  await page.screenshot({ path: "e2e/artifacts/upgrades-addons.png", fullPage: true });
});

test("/upgrades shows the cluster in extended support with its cost, the skewed cluster, and a removed-API blocker", async ({ page }) => {
  await page.goto("/upgrades");
  await expect(page.getByRole("heading", { level: 1, name: "Upgrades" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);

  const ext = page.locator(`tr[data-cluster="${facts.extendedSupport!.cluster}"]`);
  await expect(ext).toContainText("1.31");
  await expect(ext.locator("[data-support]")).toHaveText("Extended support");
  await expect(ext.getByTestId("cost")).toContainText("$365");
  await expect(page.getByTestId("stat-extended")).toContainText(/extra \$[\d,]+\/month, \$[\d,]+\/year/);

  // Mid-upgrade: the control plane is already on the new version, node group batch is still behind it.
  const ng = facts.nodeGroupSkew!;
  const behind = Number(ng.controlPlane.split(".")[1]) - Number(ng.nodegroupVersion.split(".")[1]);
  const skew = page.locator(`tr[data-cluster="${ng.cluster}"]`);
  await expect(skew.getByTestId("skew")).toContainText(`${behind} → ${behind + 1} minor(s)`);
  await expect(skew.getByTestId("skew")).toContainText(ng.nodegroupVersion);

  // The extended-support spoke's inventory still holds flowcontrol v1beta3, removed in 1.32.
  await ext.getByRole("link", { name: facts.extendedSupport!.cluster }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("1.31 → 1.32");
  const blockers = page.getByTestId("blockers");
  await expect(blockers).toContainText("flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is removed in 1.32");
  const removed = page.getByTestId("removed-apis");
  await expect(removed).toContainText("FlowSchema platform-batch-jobs");
  await expect(page.getByTestId("checklist")).toContainText("aws eks update-cluster-version");
  await expect(page.getByTestId("cluster-cost")).toContainText("$365/month");
  await page.screenshot({ path: "e2e/artifacts/upgrades-cluster.png", fullPage: true });

  // The JSON API answers the same numbers.
  const body = await (await page.request.get("/api/upgrades")).json();
  const c = body.clusters.find((x: { name: string }) => x.name === facts.extendedSupport!.cluster);
  expect(c).toMatchObject({
    version: "1.31",
    versionStatus: "EXTENDED_SUPPORT",
    inExtendedSupport: true,
    monthlyExtendedSupportCostUSD: 365,
  });
  expect(c.blockers.some((b: { kind: string }) => b.kind === "removed-api")).toBe(true);
});

test("trends move after the simulator upgrades a cluster", async ({ page }) => {
  // The e2e collector re-reads versions every 5 s (COLLECTOR_FACTS_INTERVAL_SECONDS in global-setup).
  test.setTimeout(3 * 60_000);
  const upgrade = facts.scheduledUpgrade!;
  const versionOf = async () =>
    (
      await scalar<{ v: string | null }>(`SELECT concat_ws(' ', "eksVersion", "kubernetesVersion") AS v FROM cluster WHERE name = $1`, [
        upgrade.cluster,
      ])
    )?.v ?? null;
  const todayCount = async (version: string) => {
    await page.goto("/upgrades/trends?days=7");
    await page.getByText("The numbers per day").click();
    const cell = page.getByTestId("trend-table").locator("tbody tr").first().locator(`td[data-version="${version}"]`);
    return (await cell.count()) ? Number(await cell.textContent()) : 0;
  };

  const already = (await versionOf())?.includes(upgrade.to) ?? false;
  const before = await todayCount(upgrade.to);
  if (!already) {
    // The scheduled upgrade runs 5–9 minutes into the timeline (node groups 10–14): move the clock past it.
    for (let i = 0; i < 16; i++)
      await fetch(`${controlUrl}/advance`, {
        method: "POST",
        body: JSON.stringify({ ms: 60_000 }),
        headers: { "content-type": "application/json" },
      });
    await waitFor("the collector to see the upgraded control plane", async () => (await versionOf())?.includes(upgrade.to), 120_000);
    await expect.poll(() => todayCount(upgrade.to), { timeout: 30_000 }).toBe(before + 1);
  }
  // The upgrade is in the history, and today's point counts the cluster on the new version.
  const change = await scalar<{ n: number }>(
    `SELECT count(*)::int AS n FROM cluster_version_change v JOIN cluster c ON c.id = v."clusterId" WHERE c.name = $1 AND v.component IN ('kubernetes', 'eks')`,
    [upgrade.cluster],
  );
  expect(change?.n).toBeGreaterThan(0);
  expect(await todayCount(upgrade.to)).toBeGreaterThan(0);
  await expect(page.getByRole("figure").first()).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/upgrades-trends.png", fullPage: true });

  // "What ran where on date X": the matrix as of today's date answers from history.
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel("What ran where on").fill(today);
  await page.getByRole("button", { name: "Show matrix" }).click();
  await expect(page).toHaveURL(new RegExp(`/addons\\?at=${today}`));
  await expect(page.getByRole("table", { name: "Add-on versions by cluster" })).toBeVisible();
});
