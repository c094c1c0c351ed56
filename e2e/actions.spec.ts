// Operator actions in the default stack: no sign-in and no SESSION_SECRET, as in `npm run demo`. The CSRF
// key must be the same for the page that renders the token and the route that checks it.
import { expect, test } from "@playwright/test";
import pg from "pg";

test.describe.configure({ mode: "serial" });

const controlUrl = () => process.env.E2E_SIM_CONTROL_URL!;
let db: pg.Pool;

test.beforeAll(async () => {
  db = new pg.Pool({ connectionString: process.env.E2E_DATABASE_URL, max: 2 });
  db.on("error", (err) => console.warn(`e2e database pool: ${err.message}`));
});
test.afterAll(async () => {
  await db?.end();
});

interface Target {
  cluster: string;
  namespace: string;
  name: string;
}

/** A Kustomization, not suspended, in a reachable spoke the collector polled in the last minute. */
async function reachableKustomization(exclude: string[] = []): Promise<Target> {
  for (let i = 0; i < 120; i++) {
    const { rows } = await db.query<Target>(
      `SELECT c.name AS cluster, fo.namespace, fo.name FROM flux_object fo JOIN cluster c ON c.id = fo."clusterId"
        WHERE fo.kind = 'Kustomization' AND NOT fo.suspended AND fo."deletedAt" IS NULL AND c.role = 'spoke'
          AND c."lastSuccessAt" > now() - interval '1 minute' AND (c."lastErrorAt" IS NULL OR c."lastErrorAt" < c."lastSuccessAt")
          AND NOT (c.name = ANY($1::text[]))
        ORDER BY c.name, fo.namespace, fo.name LIMIT 1`,
      [exclude],
    );
    if (rows[0]) return rows[0];
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error("the collector stored no Kustomization of a reachable spoke within 2 minutes");
}

const pathOf = (t: Target) =>
  `/clusters/${encodeURIComponent(t.cluster)}/kustomization/${encodeURIComponent(t.namespace)}/${encodeURIComponent(t.name)}`;

test("Reconcile now works without SESSION_SECRET: the collector carries it out and the audit says ok", async ({ page }) => {
  const target = await reachableKustomization();
  const handledBefore = await db.query<{ handled: string | null }>(
    `SELECT fo."lastHandledReconcileAt" AS handled FROM flux_object fo JOIN cluster c ON c.id = fo."clusterId"
      WHERE c.name = $1 AND fo.kind = 'Kustomization' AND fo.namespace = $2 AND fo.name = $3`,
    [target.cluster, target.namespace, target.name],
  );
  await page.goto(pathOf(target));
  await page.getByRole("button", { name: "Reconcile now" }).click();
  await page.getByRole("button", { name: "Yes, reconcile now" }).click();
  const result = page.getByTestId("action-result");
  await expect(result).toContainText("reconciliation requested at ");
  await expect(result).not.toContainText("Failed");
  const requestedAt = (await result.textContent())!.replace(/^.*reconciliation requested at /, "").trim();
  await expect(page.getByTestId("audit-row").filter({ hasText: "reconcile" }).first()).toContainText("ok");
  // The simulated controller handles the request; the collector's next poll stores what it wrote.
  await expect
    .poll(
      async () =>
        (
          await db.query<{ handled: string | null }>(
            `SELECT fo."lastHandledReconcileAt" AS handled FROM flux_object fo JOIN cluster c ON c.id = fo."clusterId"
              WHERE c.name = $1 AND fo.kind = 'Kustomization' AND fo.namespace = $2 AND fo.name = $3`,
            [target.cluster, target.namespace, target.name],
          )
        ).rows[0]?.handled,
      { timeout: 30_000 },
    )
    .toBe(requestedAt);
  expect(handledBefore.rows[0]?.handled).not.toBe(requestedAt);
});

test("actions on an object of an unreachable cluster are disabled, with the reason", async ({ page, request }) => {
  const target = await reachableKustomization();
  const fault = await fetch(`${controlUrl()}/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ cluster: target.cluster, unreachable: true }),
  });
  expect(fault.ok).toBe(true);
  try {
    await expect
      .poll(
        async () =>
          (
            await db.query<{ down: boolean }>(`SELECT "lastErrorAt" > "lastSuccessAt" AS down FROM cluster WHERE name = $1`, [
              target.cluster,
            ])
          ).rows[0]?.down,
        { timeout: 30_000 },
      )
      .toBe(true);
    await page.goto(pathOf(target));
    await expect(page.getByRole("button", { name: "Reconcile now" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Suspend" })).toBeDisabled();
    await expect(page.getByTestId("actions-blocked")).toContainText(`${target.cluster} is unreachable`);
    // The API refuses too, whatever a page shows.
    const html = await (await request.get(pathOf(target))).text();
    const csrfToken = /"csrfToken":"([^"]+)"/.exec(html.replace(/\\"/g, '"'))?.[1];
    expect(csrfToken).toBeTruthy();
    const res = await request.post("/api/actions", {
      headers: { origin: new URL(page.url()).origin, "content-type": "application/json" },
      data: {
        action: "reconcile",
        cluster: target.cluster,
        kind: "kustomization",
        namespace: target.namespace,
        name: target.name,
        csrfToken,
      },
    });
    expect(res.status()).toBe(409);
    expect((await res.json()).error.code).toBe("cluster_unreachable");
  } finally {
    await fetch(`${controlUrl()}/faults/${encodeURIComponent(target.cluster)}`, { method: "DELETE" });
  }
});
