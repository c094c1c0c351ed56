// The app works at whatever address the browser uses: the pages hydrate (a filter changes the URL and
// the table, relative times tick) at 127.0.0.1, at localhost, and at the machine's own network address,
// reached here through a plain TCP relay on that address (the server itself listens on 127.0.0.1 only,
// as the demo does without sign-in). Under `next dev` the last two would not hydrate; the demo and
// `npm start` serve the production build.
import net from "node:net";
import os from "node:os";
import { expect, test, type Page } from "@playwright/test";

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run through \`npm run test:e2e\``);
  return value;
}

/** The machine's non-loopback IPv4 addresses; another loopback address when it has none. */
function networkAddresses(): string[] {
  const external = Object.values(os.networkInterfaces())
    .flat()
    .filter((i) => i && !i.internal && i.family === "IPv4")
    .map((i) => i!.address);
  return external.length ? external.slice(0, 1) : ["127.0.0.2"];
}

/** A TCP relay from `host`:<free port> to the server under test. */
async function relay(host: string): Promise<{ url: string; close: () => Promise<void> }> {
  const target = new URL(env("E2E_BASE_URL"));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function expectHydrated(page: Page, base: string) {
  // The collector's first cycle may still be running when this spec starts.
  await expect(async () => {
    await page.goto(`${base}/`);
    await expect(page.locator("tr[data-cluster]").first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  // Relative times are rendered as absolute UTC on the server and turn relative once hydrated.
  await expect(page.getByTestId("freshness").first()).toContainText(/ago|just now/);
  // A filter is a client component: only a hydrated page changes the URL and the table.
  await page.getByLabel("Environment").selectOption("staging");
  await expect(page).toHaveURL(new RegExp(`^${base.replace(/[.]/g, "\\.")}/\\?.*env=staging`));
  await expect(page.locator("tr[data-cluster]").first()).toHaveAttribute("data-cluster", /^staging-/);
  for (const row of await page.locator("tr[data-cluster]").all()) await expect(row).toHaveAttribute("data-cluster", /^staging-/);
}

test("pages hydrate at 127.0.0.1 and at localhost", async ({ page }) => {
  const port = new URL(env("E2E_BASE_URL")).port;
  await expectHydrated(page, `http://127.0.0.1:${port}`);
  await expectHydrated(page, `http://localhost:${port}`);
});

test("pages hydrate at the machine's network address", async ({ page }) => {
  for (const host of networkAddresses()) {
    const r = await relay(host);
    try {
      await expectHydrated(page, r.url);
      // An object page too: its live island polls the JSON route at the same address.
      await page.goto(`${r.url}/failures`);
      await expect(page.getByTestId("failure-group").first()).toBeVisible();
    } finally {
      await r.close();
    }
  }
});
