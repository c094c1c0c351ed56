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
import { E2E_FLEET, e2eSimEpoch } from "./fleet";

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
  db.on("error", (err) => console.warn(`e2e database pool: ${err.message}`));
  const ports = JSON.parse(readFileSync(path.join(process.env.E2E_SIM_DIR!, "ports.json"), "utf8")) as { clusters: Record<string, number> };
  facts = createFleetModel({ ...E2E_FLEET, clusters: Object.keys(ports.clusters).length, epoch: e2eSimEpoch() }).facts;
  expect(facts.removedApi, "the e2e fleet needs the removed-API spoke (at least 7 clusters)").toBeTruthy();
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
      applied: td.getAttribute("data-applied") ?? "",
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
      if (c.standing === "failing" || !c.applied) continue; // a failing release, or none installed yet
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

  // The simulator puts this spoke on the oldest version in extended support at its start date.
  const extended = facts.extendedSupport!;
  const ext = page.locator(`tr[data-cluster="${extended.cluster}"]`);
  await expect(ext).toContainText(extended.version);
  await expect(ext.locator("[data-support]")).toHaveText("Extended support");
  await expect(ext.getByTestId("cost")).toContainText("$365");
  await expect(page.getByTestId("stat-extended")).toContainText(/extra \$[\d,]+\/month, \$[\d,]+\/year/);

  // Mid-upgrade: the control plane is already on the new version, node group batch is still behind it.
  const ng = facts.nodeGroupSkew!;
  const behind = Number(ng.controlPlane.split(".")[1]) - Number(ng.nodegroupVersion.split(".")[1]);
  const skew = page.locator(`tr[data-cluster="${ng.cluster}"]`);
  await expect(skew.getByTestId("skew")).toContainText(`${behind} → ${behind + 1} minor(s)`);
  await expect(skew.getByTestId("skew")).toContainText(ng.nodegroupVersion);

  // The removed-API spoke stays on 1.31, past end of extended support since 2026-11-26: EKS will upgrade its
  // control plane to 1.32 by itself, and its inventory still holds flowcontrol v1beta3, which 1.32 no longer serves.
  const legacy = facts.removedApi!;
  const old = page.locator(`tr[data-cluster="${legacy.cluster}"]`);
  await expect(old.locator("[data-support]")).toHaveText("Unsupported");
  await old.getByRole("link", { name: legacy.cluster }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`${legacy.version} → ${legacy.removedIn}`);
  const blockers = page.getByTestId("blockers");
  await expect(blockers).toContainText(`${legacy.apiVersion} FlowSchema is removed in ${legacy.removedIn}`);
  const removed = page.getByTestId("removed-apis");
  await expect(removed).toContainText("FlowSchema platform-batch-jobs");
  await expect(page.getByTestId("checklist")).toContainText("aws eks update-cluster-version");
  // Billed at the extended-support rate until EKS upgrades it.
  await expect(page.getByTestId("cluster-cost")).toContainText("$365/month");
  await page.screenshot({ path: "e2e/artifacts/upgrades-cluster.png", fullPage: true });

  // The JSON API answers the same.
  const body = await (await page.request.get("/api/upgrades")).json();
  const byName = (name: string) => body.clusters.find((x: { name: string }) => x.name === name);
  expect(byName(extended.cluster)).toMatchObject({
    version: extended.version,
    versionStatus: "EXTENDED_SUPPORT",
    inExtendedSupport: true,
    monthlyExtendedSupportCostUSD: 365,
  });
  const c = byName(legacy.cluster);
  expect(c).toMatchObject({
    version: legacy.version,
    versionStatus: "UNSUPPORTED",
    pastExtendedSupport: true,
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

  // Other clusters on the new version, by what the collector stored: the timeline that upgrades this one
  // also lets others' versions become known (one whose EKS version is first read minutes in), and today's
  // point counts those too.
  const othersOnNewVersion = async () =>
    (
      await scalar<{ n: number }>(
        `SELECT count(*)::int AS n FROM cluster WHERE name <> $1 AND lifecycle = 'active'
           AND ("eksVersion" = $2 OR "kubernetesVersion" LIKE 'v' || $2 || '.%')`,
        [upgrade.cluster, upgrade.to],
      )
    )?.n ?? 0;
  const othersBefore = await othersOnNewVersion();
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
    // Today's count less the others that came: this cluster adds exactly one.
    await expect
      .poll(async () => (await todayCount(upgrade.to)) - ((await othersOnNewVersion()) - othersBefore), { timeout: 30_000 })
      .toBe(before + 1);
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

test("the matrix cell summarises every release: a failed install never hides the installed ones; one chart from OCI and HTTPS is one row", async ({
  page,
}) => {
  const failed = facts.failedInstall!;
  const dual = facts.dualSourceChart!;
  await waitFor(
    "the failed install and the OCI source collected",
    async () => {
      const r = await scalar<{ n: number }>(
        `SELECT count(*)::int AS n FROM flux_object o JOIN cluster c ON c.id = o."clusterId"
          WHERE c.name = $1 AND ((o.kind = 'HelmRelease' AND o.name = $2) OR (o.kind = 'HelmRepository' AND o.url = $3))`,
        [failed.cluster, failed.name, dual.ociUrl],
      );
      return r && r.n === 2;
    },
    90_000,
  );
  await page.goto("/addons");
  const table = page.getByRole("table", { name: "Add-on versions by cluster" });
  const row = table.locator(`tr[data-addon="${failed.chart}"][data-kind="helm"]`);
  await expect(row).toHaveCount(1);
  const broken = row.locator(`td[data-cluster="${failed.cluster}"]`);
  await expect(broken.locator("a.mx-summary")).toHaveText("1 not installed yet");
  await expect(broken).toHaveAttribute("data-standing", "failing");
  // The other clusters' cells still show their installed versions.
  const installed = await row
    .locator("td[data-cluster]")
    .evaluateAll((tds) => tds.filter((td) => td.getAttribute("data-standing") !== "failing").map((td) => td.getAttribute("data-applied")));
  expect(installed.length).toBeGreaterThan(3);
  expect(installed.every((v) => v && /^\d+\.\d+\.\d+$/.test(v))).toBe(true);
  // The cell links to its object.
  await broken.locator("[tabindex='0']").hover();
  await expect(broken.getByRole("tooltip")).toContainText(`HelmRelease ${failed.namespace}/${failed.name}`);

  // podinfo: one row whatever the repository, the OCI source shown on the spoke that uses it.
  const podinfo = table.locator(`tr[data-addon="${dual.chart}"][data-kind="helm"]`);
  await expect(podinfo).toHaveCount(1);
  await expect(podinfo.locator("th")).toContainText(dual.ociUrl);
  await expect(podinfo.locator("th")).toContainText(dual.httpsUrl.replace(/\/+$/, ""));
  await expect(podinfo.locator(`td[data-cluster="${dual.ociCluster}"]`)).toContainText(`from ${dual.ociUrl}`);
  await page.screenshot({ path: "e2e/artifacts/upgrades-matrix-cells.png", fullPage: true });
});

test("a hub HelmRelease deploying into a spoke counts in the spoke's column at its deployed version; a cluster without EKS API access shows Crossplane's version and says so", async ({
  page,
}) => {
  const agent = facts.hubToSpoke!;
  const noEks = facts.noEksAccess!.cluster;
  await waitFor(
    "the hub release's target and Crossplane's EKS facts collected",
    async () => {
      const r = await scalar<{ targeted: boolean; crossplane: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM flux_object o JOIN cluster t ON t.id = o."targetClusterId" WHERE o.name = $1 AND t.name = $2) AS targeted,
                EXISTS (SELECT 1 FROM cluster WHERE name = $3 AND "eksFactsSource" = 'crossplane' AND "eksError" IS NOT NULL) AS crossplane`,
        [agent.name, agent.spoke, noEks],
      );
      return r && r.targeted && r.crossplane;
    },
    90_000,
  );
  const deployed = (await scalar<{ v: string }>(
    `SELECT o."deployedChartVersion" AS v FROM flux_object o JOIN cluster c ON c.id = o."clusterId" WHERE c.name = $1 AND o.name = $2`,
    [agent.hub, agent.name],
  ))!.v;
  expect(deployed).toMatch(/^\d+\.\d+\.\d+$/);

  const row = page.getByRole("table", { name: "Add-on versions by cluster" }).locator(`tr[data-addon="prometheus"][data-kind="helm"]`);
  await expect
    .poll(
      async () => {
        await page.goto("/addons");
        return row.locator(`td[data-cluster="${agent.spoke}"]`).getAttribute("data-applied");
      },
      { timeout: 30_000 },
    )
    .toBe(deployed);
  const cell = row.locator(`td[data-cluster="${agent.spoke}"]`);
  await expect(cell).toContainText("from hub");
  // Not in the hub's column: the hub holds the object, the spoke runs the release.
  await expect(row.locator(`td[data-cluster="${agent.hub}"]`)).toHaveCount(0);
  await cell.locator("[tabindex='0']").hover();
  await expect(cell.getByRole("tooltip")).toContainText(`HelmRelease flux-system/${agent.name} (in ${agent.hub})`);

  // The EKS API refuses the collector for this spoke: its version comes from Crossplane, and the page says so.
  await page.goto("/upgrades?all=1");
  const version = page.locator(`tr[data-cluster="${noEks}"] [data-testid="version"]`);
  await expect(version).toHaveAttribute("data-from", "crossplane");
  await expect(version).toHaveAttribute("data-source", "observed");
  await expect(version.getByTestId("eks-facts-source")).toContainText("from Crossplane (EKS API refused:");
  await page.goto(`/upgrades/${noEks}`);
  await expect(page.getByTestId("eks-facts-source")).toContainText("from Crossplane (EKS API refused:");
  await page.screenshot({ path: "e2e/artifacts/upgrades-hub-release-and-crossplane.png", fullPage: true });
});

test("the date question on /upgrades: clusters to upgrade before a date, the cost, and the same answer as CSV and JSON", async ({
  page,
}) => {
  const old = facts.pastExtendedSupport!;
  await page.goto("/upgrades");
  // Default: 90 days from today.
  const expectedDefault = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 90 * 86_400_000).toISOString().slice(0, 10);
  await expect(page.getByTestId("deadline-date")).toHaveValue(expectedDefault);
  await page.getByTestId("deadline-date").fill("2027-12-31");
  await page.getByRole("form", { name: "Upgrade deadline" }).getByLabel("Environment").selectOption("staging");
  await page.getByRole("button", { name: "Ask" }).click();
  await expect(page).toHaveURL(/\/upgrades\?by=2027-12-31&env=staging/);
  const rows = page.getByTestId("deadline-table").locator("tbody tr");
  await expect(page.getByTestId("deadline-table").locator(`tr[data-deadline-cluster="${old.cluster}"]`)).toContainText(
    `due since ${old.endOfExtendedSupport}`,
  );
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-deadline-cluster")));
  expect(shown.length).toBeGreaterThan(0);
  // Every staging cluster ends standard support before the end of 2027 (1.35 ends 2027-03-27); one Crossplane
  // failed to create runs nothing, and one still being created has no support dates before it runs.
  expect(shown.sort()).toEqual(
    (
      await db.query<{ name: string }>(
        `SELECT name FROM cluster WHERE env = 'staging' AND lifecycle = 'active' AND provisioning IS NULL ORDER BY name`,
      )
    ).rows.map((r) => r.name),
  );
  await expect(page.getByTestId("deadline-cost")).toHaveText(/^\$[\d,]+$/);
  await expect(page.getByTestId("deadline-by-env")).toContainText("staging");
  await expect(page.getByTestId("deadline-by-team")).toBeVisible();

  // JSON and CSV hold exactly those rows.
  const json = await (await page.request.get("/api/upgrades/deadline?by=2027-12-31&env=staging")).json();
  expect(json.rows.map((r: { name: string }) => r.name).sort()).toEqual(shown.sort());
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("crows-nest-upgrades-before-2027-12-31.csv");
  const csv = readFileSync((await download.path())!, "utf8")
    .trim()
    .split("\r\n");
  expect(
    csv
      .slice(1, -1)
      .map((l) => l.split(",")[0])
      .sort(),
  ).toEqual(shown.sort());
  await page.screenshot({ path: "e2e/artifacts/upgrades-deadline.png", fullPage: true });
});

test("a campaign: created by an operator, its page shows waves from what the collector observes and a burn-down", async ({ page }) => {
  const old = facts.pastExtendedSupport!;
  await page.goto("/upgrades/campaigns");
  const form = page.getByRole("form", { name: "Create campaign" });
  await form.getByLabel("Name").fill("All clusters on 1.35 by 2027-03-01");
  await form.getByLabel("Target version").fill("1.35");
  await form.getByLabel("Due (UTC)").fill("2027-03-01");
  await form.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/upgrades\/campaigns\/all-clusters-on-1-35-by-2027-03-01$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("All clusters on 1.35 by 2027-03-01");
  for (const wave of ["dev", "staging", "prod"]) await expect(page.locator(`[data-wave="${wave}"]`)).toBeVisible();
  // The cluster left on 1.27 is in the staging wave, eight minors away, with what blocks its next step.
  const stuck = page.locator(`[data-wave="staging"] li[data-cluster="${old.cluster}"]`);
  await expect(stuck).toContainText("8 minor(s) to go");
  expect(["blocked", "not-started"]).toContain(await stuck.getAttribute("data-state"));
  // Counts add up to the fleet the other pages count.
  const total = Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM cluster WHERE lifecycle = 'active'`)).rows[0].n);
  const counts = await page.getByTestId("campaign-counts").locator("dd.text-xl").allTextContents();
  expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe(total);
  await expect(page.getByRole("figure")).toBeVisible();
  await page.getByText("The numbers per day").click();
  await expect(page.getByTestId("burn-down-table").locator("tbody tr").first()).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/upgrades-campaign.png", fullPage: true });

  // Editing is audited; the link stays the same.
  const edit = page.getByRole("form", { name: "Save" });
  await edit.getByLabel("Target version").fill("1.34");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/upgrades\/campaigns\/all-clusters-on-1-35-by-2027-03-01$/);
  await expect(page.locator("main, body").first()).toContainText("Every cluster on 1.34");
  const audit = await db.query<{ action: string }>(`SELECT action FROM audit_entry WHERE kind = 'UpgradeCampaign' ORDER BY id`);
  expect(audit.rows.map((r) => r.action)).toEqual(["campaign.create", "campaign.update"]);
});

test("a cluster we cannot reach keeps its last known version with its age and is never summed as $0", async ({ page }) => {
  const dark = facts.unreachable!.cluster;
  // The unreachable spoke stops answering 3 minutes into the timeline (the trends test moved the clock past it).
  await waitFor(
    "the collector to find the spoke unreachable",
    async () => {
      const r = await scalar<{ down: boolean }>(
        `SELECT ("lastErrorAt" IS NOT NULL AND ("lastSuccessAt" IS NULL OR "lastErrorAt" > "lastSuccessAt")) AS down FROM cluster WHERE name = $1`,
        [dark],
      );
      return r?.down;
    },
    120_000,
  );
  await expect
    .poll(
      async () => {
        await page.goto("/upgrades?all=1");
        return page.locator(`tr[data-cluster="${dark}"] [data-testid="version"]`).getAttribute("data-source");
      },
      { timeout: 30_000 },
    )
    .toBe("last-known");
  const row = page.locator(`tr[data-cluster="${dark}"]`);
  await expect(row.getByTestId("version")).toContainText(/\(last known, \d+ (s|min|h) ago\)/);
  await expect(page.getByTestId("unknown-cost")).toContainText(/\+ \d+ cluster\(s\) of unknown cost/);
  await expect(page.getByTestId("unknown-cost")).toContainText(dark);
  const body = await (await page.request.get("/api/upgrades")).json();
  expect(body.totals.unknownCost.names).toContain(dark);
});
