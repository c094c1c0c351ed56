// The app works at whatever address the browser uses: the pages hydrate (a filter changes the URL and
// the table, relative times tick) at 127.0.0.1 and at localhost, and, with sign-in, at the machine's own
// network address, reached here through a plain TCP relay on that address (the servers listen on
// 127.0.0.1 only). Without sign-in that address is refused with a reason (DNS rebinding), never served as
// a page that silently does not work. Under `next dev` the pages at 127.0.0.1 would not hydrate; the demo
// and `npm start` serve the production build.
import net from "node:net";
import os from "node:os";
import { expect, test, type Page } from "@playwright/test";
import { startOidcWeb, type OidcWeb } from "./auth-stack";

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

/** A TCP relay from `host`:<free port> to the server at `to`. */
async function relay(host: string, to: string): Promise<{ url: string; close: () => Promise<void> }> {
  const target = new URL(to);
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
  await expect(page.locator("tr[data-cluster]").first()).toHaveAttribute("data-env", "staging");
  // Argo CD's spokes are named argo-<env>-…: the environment, not the name, is what the filter matches.
  for (const row of await page.locator("tr[data-cluster]").all()) await expect(row).toHaveAttribute("data-env", "staging");
}

test("pages hydrate at 127.0.0.1 and at localhost", async ({ page }) => {
  const port = new URL(env("E2E_BASE_URL")).port;
  await expectHydrated(page, `http://127.0.0.1:${port}`);
  await expectHydrated(page, `http://localhost:${port}`);
});

test("without sign-in the machine's network address is refused with a reason", async ({ request }) => {
  for (const host of networkAddresses()) {
    const r = await relay(host, env("E2E_BASE_URL"));
    try {
      const res = await request.get(`${r.url}/`);
      expect(res.status()).toBe(421);
      expect((await res.json()).error.message).toContain("answers only at localhost or 127.0.0.1");
    } finally {
      await r.close();
    }
  }
});

test.describe("with sign-in", () => {
  let web: OidcWeb;
  test.beforeAll(async () => {
    web = await startOidcWeb();
  });
  test.afterAll(async () => {
    await web?.stop();
  });

  test("pages hydrate at the machine's network address", async ({ page, context }) => {
    await page.goto(`${web.baseUrl}/`);
    await page.getByRole("link", { name: /Sign in with/ }).click();
    await page.locator('input[name="login"]').fill("viewer");
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.waitForURL(`${web.baseUrl}/`);
    const session = await context.cookies(web.baseUrl);
    for (const host of networkAddresses()) {
      const r = await relay(host, web.baseUrl);
      try {
        // Signed in at this address too (the session cookie is per host, as a browser keeps it).
        await context.addCookies(session.map(({ name, value }) => ({ name, value, url: r.url })));
        await expectHydrated(page, r.url);
        // The live islands poll their JSON routes at the same address.
        await page.goto(`${r.url}/failures`);
        await expect(page.getByTestId("failure-group").first()).toBeVisible();
      } finally {
        await r.close();
      }
    }
  });
});
