// Cluster facts as a person sees them, at the simulator's t0 (this spec never moves the clock): clusters
// Crossplane is creating are "provisioning" (neither unreachable nor failing), the one it failed to create is
// a problem of its own on /failures with the hub Kustomization waiting on it nested, the spoke the EKS API
// refuses shows its version from Crossplane, the NotReady node is listed and counted, the hub HelmRelease
// applies to spoke 0 (and spoke 0 says it is managed from the hub), and /go takes an EKS ARN and says why a
// cluster was never reached.
import { expect, test, type Page } from "@playwright/test";
import { createFleetModel } from "../lib/simulator/fleet/index";
import { E2E_FLEET, e2eSimEpoch } from "./fleet";

test.describe.configure({ mode: "serial" });

const fleet = createFleetModel({ ...E2E_FLEET, epoch: e2eSimEpoch() });
const facts = fleet.facts;
const { creating, creatingUpjet, failing } = facts.provisioning;
const spoke0 = fleet.spokes[0];
const noEks = facts.noEksAccess!.cluster;
const notReady = facts.notReadyNode!.cluster;
const hubRelease = facts.hubToSpoke!;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/artifacts/cluster-facts-${name}.png`, fullPage: true });
}

/** Reloads until the collector has written what the check needs. */
async function eventually(page: Page, url: string, check: () => Promise<void>, timeout = 90_000) {
  await expect(async () => {
    await page.goto(url);
    await check();
  }).toPass({ timeout });
}

test("a cluster Crossplane is creating is provisioning: its Crossplane resource and desired version, no 'last known state'", async ({
  page,
}) => {
  await eventually(page, `/clusters/${creating}`, async () => {
    await expect(page.getByTestId("provisioning-banner")).toContainText("Crossplane is creating this cluster", { timeout: 1000 });
  });
  await expect(page.getByTestId("provisioning-banner")).toContainText("Kubernetes 1.35 asked for");
  await expect(page.locator('[data-health="provisioning"]').first()).toBeVisible();
  await expect(page.getByText("The collector cannot reach this cluster")).toHaveCount(0);
  await expect(page.getByText("last known state")).toHaveCount(0);
  const resource = page.getByTestId("provisioner").filter({ hasText: creating });
  await expect(resource).toHaveAttribute("data-state", "creating");
  await expect(resource).toContainText("published empty (no kubeconfig yet)");
  await expect(resource).toContainText("CREATING");
  // Its Event, kept from the hub that holds the resource.
  await expect(resource.getByRole("table", { name: `Events of Cluster ${creating}` })).toContainText("CreatedExternalResource");
  await expect(page.getByTestId("version-knowledge")).toHaveAttribute("data-knowledge", "desired");
  await shot(page, "provisioning");

  // The upjet one: its ClusterAuth failing on the missing CA is waiting, not failed.
  await page.goto(`/clusters/${creatingUpjet}`);
  await expect(page.getByTestId("provisioner").filter({ hasText: "ClusterAuth" })).toHaveAttribute("data-state", "waiting");
});

test("the fleet counts clusters being created apart from unreachable ones; /failures lists neither as unreachable", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("fleet-summary")).toContainText("3 provisioning");
  await expect(page.locator(`tr[data-cluster="${creating}"] [data-health="provisioning"]`)).toBeVisible();
  const failures = await (await page.request.get("/api/failures")).json();
  const unreachable = (failures.groups as Array<{ problem: string; members: Array<{ cluster: string }> }>)
    .filter((g) => g.problem === "unreachable")
    .flatMap((g) => g.members.map((m) => m.cluster));
  for (const name of [creating, creatingUpjet, failing]) expect(unreachable).not.toContain(name);
});

test("a Crossplane resource that failed to create is a problem of its own on /failures, with what waits on it nested", async ({ page }) => {
  await eventually(page, "/failures", async () => {
    await expect(page.locator('[data-testid="failure-group"][data-problem="create-failed"]')).toHaveCount(1, { timeout: 1000 });
  });
  const group = page.locator('[data-testid="failure-group"][data-problem="create-failed"]');
  await expect(group).toContainText("Crossplane failed to create the cluster");
  await expect(group).toContainText("InvalidParameterException: Subnets specified must be in at least two different AZs");
  await expect(group.getByRole("link", { name: failing, exact: true }).first()).toBeVisible();
  // The hub's bootstrap Kustomization, failing on the empty secret, follows it.
  await expect(group.getByRole("link", { name: `flux-system/bootstrap-${failing}` })).toBeVisible();
  await shot(page, "failures");
  await group.getByRole("link", { name: failing, exact: true }).last().click();
  await expect(page).toHaveURL(new RegExp(`/clusters/${failing}`));
  await expect(page.getByTestId("provisioning-banner")).toContainText("Crossplane failed to create this cluster");
  await expect(page.getByTestId("provisioner-problem")).toContainText("AsyncCreateFailure: async create failed");
});

test("the spoke the EKS API refuses shows its version, platform and node groups from Crossplane", async ({ page }) => {
  await eventually(page, `/clusters/${noEks}`, async () => {
    await expect(page.getByTestId("eks-version")).toContainText("(from Crossplane)", { timeout: 1000 });
  });
  const spec = fleet.spokeSpec(noEks)!;
  await expect(page.getByTestId("eks-version")).toContainText(spec.version);
  await expect(page.getByTestId("eks-version")).toContainText(/eks\.\d+/);
  await expect(page.getByTestId("eks-error")).toContainText("AccessDeniedException");
  await expect(page.getByTestId("version-knowledge")).toContainText("from Crossplane");
  await expect(page.locator('tr[data-nodegroup][data-source="crossplane"]')).toHaveCount(2);
  await shot(page, "no-eks-access");
});

test("a NotReady node is listed on its cluster's page and counted on the fleet page", async ({ page }) => {
  await eventually(page, `/clusters/${notReady}`, async () => {
    await expect(page.locator("tr[data-node]")).toHaveCount(1, { timeout: 1000 });
  });
  const row = page.locator("tr[data-node]");
  await expect(row).toContainText("Ready Unknown");
  await expect(row).toContainText("NodeStatusUnknown");
  await expect(row).toContainText("Kubelet stopped posting node status.");
  await expect(row).toContainText("system");
  await expect(row).toContainText(/v1\.\d+\.\d+-eks-/);
  // The NodeNotReady Event node-controller wrote (type Normal), kept by the collector under this cluster.
  await expect(row.getByTestId("node-events")).toContainText("Normal NodeNotReady (node-controller)");
  await expect(page.getByTestId("node-counts")).toContainText("1 NotReady");
  await shot(page, "not-ready-node");
  await page.goto("/");
  await expect(page.getByTestId("summary-notready-nodes")).toContainText("1");
  await expect(page.locator(`tr[data-cluster="${notReady}"] [data-testid="not-ready-nodes"]`)).toHaveText("1 node NotReady");
});

test("a hub HelmRelease applies to spoke 0 (linked), and spoke 0 is managed from the hub", async ({ page }) => {
  await eventually(page, `/clusters/hub/helmrelease/${hubRelease.namespace}/${hubRelease.name}`, async () => {
    await expect(page.getByTestId("applies-to")).toContainText(`applies to ${spoke0.name}`, { timeout: 1000 });
  });
  await page.getByTestId("applies-to").getByRole("link", { name: spoke0.name }).click();
  await expect(page).toHaveURL(`/clusters/${spoke0.name}`);
  const managed = page.getByRole("region", { name: "Managed from hub" });
  await expect(managed.getByRole("link", { name: `HelmRelease flux-system/${hubRelease.name}` })).toBeVisible();
  await shot(page, "managed-from");
});

test("/go takes an EKS cluster ARN as the cluster label, and says why a cluster was never reached", async ({ page }) => {
  const arn = `arn:aws:eks:${spoke0.region}:${spoke0.accountId}:cluster/${spoke0.name}`;
  const labels = new URLSearchParams({
    cluster: arn,
    customresource_kind: "Kustomization",
    exported_namespace: "flux-system",
    name: "apps",
  });
  const res = await page.request.get(`/go?${labels}`, { maxRedirects: 0 });
  expect(res.status()).toBe(302);
  expect(res.headers().location).toBe(`/clusters/${spoke0.name}/kustomization/flux-system/apps`);

  const expired = facts.expiredToken!.cluster;
  await expect(async () => {
    await page.goto(`/go?${new URLSearchParams({ cluster: expired, kind: "Kustomization", namespace: "flux-system", name: "apps" })}`);
    await expect(page.getByTestId("go-problem")).toContainText(`Cluster ${expired} was never reached:`, { timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId("go-problem")).toContainText(/since \d{4}-\d\d-\d\dT/);
  await shot(page, "go-never-reached");
});

test("a cluster page says how the collector reads the cluster: watched, changes within seconds", async ({ page }) => {
  await eventually(page, `/clusters/${spoke0.name}`, async () => {
    await expect(page.getByTestId("collection-mode")).toContainText("Watched: changes arrive within seconds.", { timeout: 1000 });
  });
});
