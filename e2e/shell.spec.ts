import { expect, test } from "@playwright/test";

test.describe("the shell", () => {
  test("shows navigation, data freshness and the fleet", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const label of ["Fleet", "Failures", "Add-ons", "Upgrades", "Clusters"]) {
      await expect(nav.getByRole("link", { name: label })).toBeVisible();
    }
    await expect(nav.getByRole("link", { name: "Fleet" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { level: 1, name: "Fleet" })).toBeVisible();
    // The collector has polled the simulated fleet by now: the header says how fresh the data is.
    await expect(page.getByTestId("freshness").first()).toContainText(/clusters reachable/);
    await page.screenshot({ path: "e2e/artifacts/shell-fleet.png", fullPage: true });
  });

  test("dark mode is remembered across pages", async ({ page }) => {
    await page.goto("/");
    await page.emulateMedia({ colorScheme: "light" });
    const toggle = page.getByRole("button", { name: "Dark mode" });
    await toggle.click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Failures" }).click();
    await expect(page).toHaveURL(/\/failures/);
    await page.reload();
    await expect(page.locator("html")).toHaveClass(/dark/);
  });

  test("answers health with database status and migration version", async ({ request }) => {
    const res = await request.get("/api/health");
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.status).toBe("ok");
    expect(body.database.status).toBe("up");
    expect(body.database.migration).toMatch(/^\d{14}_/);
  });
});
