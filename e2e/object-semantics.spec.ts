// Objects as the Flux controllers really leave them, as a person sees them: a static OCI HelmRepository is
// healthy with an empty status, a HelmRelease no controller picked up says so (and is a problem), a drifted
// release shows its drift and DriftDetected Event without counting as failing, the stalled upgrade reads
// "deployed · failed", a cluster's first poll leaves no timeline noise, a routine reconcile (Ready Unknown and
// back) neither, the source chain shows each link, and a removed release's page answers from history with
// its Events.
// The simulator clock starts stopped; this spec moves it to 1 min 50 s, before the bad commit at 2:00 that
// triage.spec.ts (which runs later and measures from its own start) expects to see.
import { expect, test, type Page } from "@playwright/test";
import { createFleetModel } from "../lib/simulator/fleet/index";
import { SEMANTICS } from "../lib/simulator/fleet/object-semantics";
import { E2E_FLEET, e2eSimEpoch } from "./fleet";

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

const model = createFleetModel({ ...E2E_FLEET, epoch: e2eSimEpoch() });
const spoke = (index: number) => model.spokes[index].name;
const objectUrl = (cluster: string, kind: string, namespace: string, name: string) => `/clusters/${cluster}/${kind}/${namespace}/${name}`;
const controlUrl = () => {
  const url = process.env.E2E_SIM_CONTROL_URL;
  if (!url) throw new Error("E2E_SIM_CONTROL_URL is not set: run through `npm run test:e2e`");
  return url;
};

async function simTime(): Promise<number> {
  return Date.parse(((await (await fetch(`${controlUrl()}/state`)).json()) as { simTime: string }).simTime);
}

let startedAt = 0;
/** Moves the simulated clock to `target` ms after this spec started, never back. */
async function advanceTo(target: number) {
  const ms = startedAt + target - (await simTime());
  if (ms <= 0) return;
  const res = await fetch(`${controlUrl()}/advance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ms }),
  });
  expect(res.ok).toBe(true);
}

/** Reloads until the check passes: the collector polls every 2 s. */
async function eventually(page: Page, url: string, check: () => Promise<void>) {
  await expect(async () => {
    await page.goto(url);
    await check();
  }).toPass({ timeout: 60_000 });
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/artifacts/semantics-${name}.png`, fullPage: true });
}

test.beforeAll(async () => {
  startedAt = await simTime();
});

test("an OCI HelmRepository with status {} is healthy and static, never progressing or a problem", async ({ page }) => {
  const url = objectUrl(spoke(0), "helmrepository", "flux-system", "podinfo-oci");
  await eventually(page, url, async () => {
    await expect(page.getByTestId("object-health").locator('[data-health="ready"]')).toBeVisible({ timeout: 1000 });
  });
  await expect(page.getByTestId("object-health").locator('[data-health-detail="static"]')).toHaveText(/static/);
  await expect(page.getByTestId("notice-static")).toContainText("status: {}");
  await shot(page, "static-oci");
  await page.goto(`/clusters/${spoke(0)}`);
  const row = page.locator('tr[data-object="flux-system/podinfo-oci"]');
  await expect(row.locator('[data-health="ready"]')).toBeVisible();
  await expect(row.locator('[data-health-detail="static"]')).toBeVisible();
  const failures = await (await page.request.get("/api/failures")).json();
  const names = failures.groups.flatMap((g: { members: Array<{ name: string }> }) => g.members.map((m) => m.name));
  expect(names).not.toContain("podinfo-oci");
});

test("a HelmRelease its controller never picked up says so, and is counted as a problem", async ({ page }) => {
  const cluster = spoke(SEMANTICS.unclaimed.spoke);
  const url = objectUrl(cluster, "helmrelease", "kube-system", "aws-node-termination-handler");
  await eventually(page, url, async () => {
    await expect(page.getByTestId("object-health").locator('[data-health="unclaimed"]')).toHaveText(/not picked up/, { timeout: 1000 });
  });
  await expect(page.getByTestId("waiting-for")).toContainText(/not picked up by its controller for \d+ min/);
  await expect(page.getByTestId("notice-unclaimed")).toContainText("status: {observedGeneration: -1}");
  await expect(page.getByTestId("notice-unclaimed")).toContainText("helm-controller");
  await shot(page, "unclaimed");
  await page.goto("/failures?problem=unclaimed");
  const group = page.locator('[data-testid="failure-group"][data-reason="NotReconciled"]');
  await expect(group).toHaveCount(1);
  await expect(group).toContainText("Not picked up by its controller: no status written since it was created");
  await expect(group).toContainText(/longest waiting \d+ min/);
  await expect(group.locator(`a[href="${url}"]`)).toBeVisible();
});

test("a drifted HelmRelease shows its drift and DriftDetected Event, and counts as ready, not failing", async ({ page }) => {
  const cluster = spoke(3);
  const url = objectUrl(cluster, "helmrelease", "ingress-nginx", "ingress-nginx");
  await eventually(page, url, async () => {
    await expect(page.getByTestId("object-health").locator('[data-health-detail="drifted"]')).toBeVisible({ timeout: 1000 });
  });
  await expect(page.getByTestId("object-health").locator('[data-health="ready"]')).toBeVisible();
  await expect(page.getByTestId("failing-for")).toHaveCount(0);
  await expect(page.getByTestId("notice-drift")).toContainText("Deployment/ingress-nginx/ingress-nginx-controller changed");
  const events = page.getByRole("table", { name: "Events kept for this object" });
  await expect(events.getByRole("row").filter({ hasText: "DriftDetected" })).toContainText("Warning");
  await shot(page, "drift");
  // In the cluster's list: a badge beside "ready".
  await page.goto(`/clusters/${cluster}`);
  await expect(page.locator('tr[data-object="ingress-nginx/ingress-nginx"] [data-health-detail="drifted"]')).toBeVisible();
  // Not a failure; listed by the fleet-wide drift filter, which lives in the query string.
  const failures = await (await page.request.get("/api/failures")).json();
  expect(JSON.stringify(failures.groups)).not.toContain('"name":"ingress-nginx"');
  await page.goto("/");
  await page.getByTestId("fleet-drifted").getByRole("link").click();
  await expect(page).toHaveURL(/\/failures\?problem=drifted/);
  const drift = page.locator('[data-testid="failure-group"][data-kind="HelmRelease"][data-reason="DriftDetected"]');
  await expect(drift).toHaveCount(1);
  // Argo CD's OutOfSync with automated sync off is drift too (cluster-policies on the hub), in a group of its own.
  await expect(
    page.locator('[data-testid="failure-group"][data-kind="Application"]').locator('a[href$="/cluster-policies"]'),
  ).toBeVisible();
  await expect(drift.locator(`a[href="${url}"]`)).toBeVisible();
  await expect(page.getByTestId("failures-totals")).toContainText("drifted");
  await shot(page, "drift-filter");
});

test("a Kustomization in its routine reconcile stays ready, says it is reconciling, and leaves no timeline entry", async ({ page }) => {
  // kustomize-controller flips Ready to Unknown at the start of every reconcile and back at its end.
  const r = SEMANTICS.routineReconcile;
  const url = objectUrl(spoke(r.spoke), "kustomization", "flux-system", r.name);
  const health = page.getByTestId("object-health");
  await advanceTo(r.from + 5_000);
  await eventually(page, url, async () => {
    await expect(health.locator('[data-health-detail="reconciling"]')).toHaveText(/reconciling/, { timeout: 1000 });
  });
  await expect(health.locator('[data-health="ready"]')).toBeVisible();
  await expect(page.getByTestId("notice-reconciling")).toContainText("Reconciling the revision it applied");
  await shot(page, "routine-reconcile");
  await advanceTo(r.until + 2_000);
  await eventually(page, url, async () => {
    await expect(health.locator('[data-health-detail="reconciling"]')).toHaveCount(0, { timeout: 1000 });
  });
  await expect(health.locator('[data-health="ready"]')).toBeVisible();
  // Ready went Unknown and back: nothing but the first poll's entry.
  await expect(page.getByTestId("timeline").locator('li[data-type="transition"]:not([data-change="first-seen"])')).toHaveCount(0);
  await expect(page.getByTestId("timeline").locator('li[data-type="transition"][data-change="first-seen"]')).toHaveCount(1);
});

test("a removed release's page answers from history, with the Events kept after it was gone", async ({ page }) => {
  // The release is removed at 1:00 and the upgrade's first attempt fails at 1:40 and is rolled back at 1:45.
  await advanceTo(110_000);
  const cluster = spoke(SEMANTICS.removed.spoke);
  const url = objectUrl(cluster, "helmrelease", "kube-system", "aws-node-termination-handler");
  await eventually(page, url, async () => {
    await expect(page.getByTestId("historical")).toContainText("deleted", { timeout: 1000 });
  });
  const events = page.getByRole("table", { name: "Events kept for this object" });
  const uninstall = events.getByRole("row").filter({ hasText: "UninstallSucceeded" });
  await expect(uninstall).toContainText("Helm uninstall succeeded for release kube-system/aws-node-termination-handler.v1");
  await expect(uninstall).toContainText("0.27.2");
  await expect(events.getByRole("row").filter({ hasText: "HelmChartDeleted" })).toBeVisible();
  await shot(page, "deleted");
});

test("the stalled upgrade reads deployed · failed, in the cluster's list and on its page", async ({ page }) => {
  const stall = model.facts.helmUpgradeStall!;
  const url = objectUrl(stall.cluster, "helmrelease", stall.namespace, stall.name);
  await eventually(page, `/clusters/${stall.cluster}`, async () => {
    await expect(page.locator(`tr[data-object="${stall.namespace}/${stall.name}"] [data-testid="helm-versions"]`)).toHaveText(
      "77.14.0 deployed · 79.5.0 failed",
      { timeout: 1000 },
    );
  });
  await page.goto(url);
  await expect(page.getByTestId("helm-versions")).toHaveText("77.14.0 deployed · 79.5.0 failed");
  // The timeline's failure names the attempted revision, not the one still deployed.
  const failure = page.getByTestId("timeline").locator('li[data-type="transition"][data-health="failing"]').first();
  await expect(failure).toContainText("revision 79.5.0");
  await shot(page, "deployed-failed");
});

test("a cluster's first poll leaves no timeline noise: first seen once, no retry entries", async ({ page }) => {
  const chain = model.facts.dependencyChain!;
  // The root of the dependency chain retries every 2 minutes with a new /tmp/kustomization-<N> in its message.
  await page.goto(objectUrl(chain.cluster, "kustomization", "flux-system", "infra-controllers"));
  const transitions = page.getByTestId("timeline").locator('li[data-type="transition"]');
  await expect(transitions).toHaveCount(1);
  await expect(transitions.first()).toHaveAttribute("data-change", "first-seen");
  await expect(transitions.first()).toContainText("first seen");
  // The failure shows the revision that failed, and the last good one comes from the object's own history.
  await expect(page.getByTestId("last-good-from")).toContainText("from the object's status history");
  // The cluster's recent transitions leave first-seen entries out.
  await page.goto(`/clusters/${chain.cluster}`);
  await expect(page.getByTestId("cluster-transitions").or(page.getByText("No transitions recorded yet."))).toBeVisible();
  await expect(page.locator('[data-testid="cluster-transitions"] li').filter({ hasText: "first seen" })).toHaveCount(0);
  await shot(page, "first-seen");
});

test("the source chain shows each link's health, and a ready release whose repository fails says so", async ({ page }) => {
  const cluster = spoke(SEMANTICS.failingRepository.spoke);
  await page.goto(objectUrl(cluster, "helmrelease", "monitoring", "kube-prometheus-stack"));
  const chain = page.getByTestId("source-chain");
  await expect(chain.locator('[data-chain-kind="HelmChart"]')).toHaveAttribute("data-health", "ready");
  await expect(chain.locator('[data-chain-kind="HelmChart"]')).toContainText("flux-system/monitoring-kube-prometheus-stack");
  await expect(chain.locator('[data-chain-kind="HelmRepository"]')).toHaveAttribute("data-health", "failing");
  const notice = page.getByTestId("notice-source-trouble");
  await expect(notice).toContainText("HelmRepository flux-system/prometheus-community");
  await expect(notice).toContainText("429 Too Many Requests");
  await shot(page, "source-chain");
});
