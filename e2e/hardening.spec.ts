// What a hostile or careless client sends, against the real `next start`: odd paths, malformed percent
// sequences, NUL, dates PostgreSQL cannot hold, open-redirect forms, a foreign Host. Nothing answers 5xx,
// nothing lands anywhere but on this site, and a stored nonsense date never breaks a page.
import { createHmac } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import fc from "fast-check";
import pg from "pg";
import { RETURN_TO_BYPASSES } from "../lib/testing/return-to-bypasses";

test.describe.configure({ mode: "serial" });

let db: pg.Pool;
let target: { cluster: string; namespace: string; name: string };
const base = () => process.env.E2E_BASE_URL!;

test.beforeAll(async () => {
  db = new pg.Pool({ connectionString: process.env.E2E_DATABASE_URL, max: 2 });
  db.on("error", (err) => console.warn(`e2e database pool: ${err.message}`));
  for (let i = 0; i < 120 && !target; i++) {
    const { rows } = await db.query<typeof target>(
      `SELECT c.name AS cluster, fo.namespace, fo.name FROM flux_object fo JOIN cluster c ON c.id = fo."clusterId"
        WHERE fo.kind = 'Kustomization' AND fo."deletedAt" IS NULL ORDER BY c.name, fo.name LIMIT 1`,
    );
    if (rows[0]) target = rows[0];
    else await new Promise((r) => setTimeout(r, 1000));
  }
  expect(target, "the collector stored no Kustomization within 2 minutes").toBeTruthy();
});
test.afterAll(async () => {
  await db?.end();
});

async function status(request: APIRequestContext, path: string, headers: Record<string, string> = {}): Promise<number> {
  return (await request.get(path, { maxRedirects: 0, headers })).status();
}

test("/auth/signin without sign-in sends every known open-redirect form home", async ({ request }) => {
  for (const bad of RETURN_TO_BYPASSES) {
    const res = await request.get(`/auth/signin?returnTo=${encodeURIComponent(bad)}`, { maxRedirects: 0 });
    expect(res.status(), bad).toBeGreaterThanOrEqual(300);
    expect(res.status(), bad).toBeLessThan(400);
    const location = res.headers().location;
    expect(new URL(location, base()).origin, `${JSON.stringify(bad)} → ${location}`).toBe(new URL(base()).origin);
    expect(new URL(location, base()).pathname, `${JSON.stringify(bad)} → ${location}`).toBe("/");
  }
  const ok = await request.get(`/auth/signin?returnTo=${encodeURIComponent("/failures?kind=kustomization")}`, { maxRedirects: 0 });
  expect(ok.headers().location).toMatch(/\/failures\?kind=kustomization$/);
});

test("malformed percent-encoding answers 400 on every route family, NUL in a name 404, never 5xx", async ({ request }) => {
  const { cluster, namespace, name } = target;
  const families = [
    (s: string) => `/clusters/${s}`,
    (s: string) => `/clusters/${cluster}/kustomization/${namespace}/${s}`,
    (s: string) => `/upgrades/${s}`,
    (s: string) => `/api/clusters/${s}`,
    (s: string) => `/api/upgrades/${s}`,
    (s: string) => `/api/objects/${cluster}/kustomization/${namespace}/${s}`,
    (s: string) => `/api/objects/${s}/kustomization/${namespace}/${name}`,
  ];
  for (const path of families) {
    for (const malformed of ["%FF", "%C0%AF", "%E2%82", "%", "%zz", "a%ED%A0%80"]) {
      expect(await status(request, path(malformed)), path(malformed)).toBe(400);
    }
    for (const nul of ["x%00", "%00", "a%01b", "a%7Fb"]) expect(await status(request, path(nul)), path(nul)).toBe(404);
  }
  const webhook = await request.post(`/api/webhooks/flux/%FF`, { data: "{}" });
  expect(webhook.status()).toBe(400);
});

test("query strings PostgreSQL would choke on answer 4xx or a page, never 5xx", async ({ request }) => {
  expect(await status(request, "/api/addons?at=0000-01-01")).toBe(400);
  expect(await status(request, "/api/addons/csv?at=0000-01-01")).toBe(400);
  expect(await status(request, "/addons?at=0000-01-01")).toBe(200);
  expect(await status(request, "/go?name=%00")).toBe(302);
  expect(await status(request, "/go?name=%00&format=json")).toBe(404);
  expect(await status(request, "/go/results?name=%00")).toBe(404);
  for (const q of ["q=%00", "env=%00", "q=%FF", "kind=%00", "limit=-1", "members=abc", "sort=%00"]) {
    for (const path of [
      "/",
      "/failures",
      "/api/fleet",
      "/api/failures",
      "/api/upgrades/trends",
      "/upgrades/trends",
      "/audit",
      "/clusters",
    ]) {
      expect(await status(request, `${path}?${q}`), `${path}?${q}`).toBeLessThan(500);
    }
  }
});

test("a signed webhook with NUL or a year-0 timestamp is refused and stores nothing", async ({ request }) => {
  const count = async () => Number((await db.query(`SELECT count(*) AS n FROM webhook_event`)).rows[0].n);
  const before = await count();
  const event = {
    involvedObject: { kind: "Kustomization", namespace: target.namespace, name: target.name },
    severity: "info",
    reason: "ReconciliationSucceeded",
    message: "applied",
    timestamp: new Date().toISOString(),
  };
  for (const body of [
    { ...event, message: "nul \u0000 here" },
    { ...event, metadata: { "a\u0000": "b" } },
    { ...event, timestamp: "0000-01-01T00:00:00Z" },
  ]) {
    const raw = JSON.stringify(body);
    const signature = `sha256=${createHmac("sha256", process.env.E2E_WEBHOOK_SECRET!).update(raw).digest("hex")}`;
    const res = await request.post(`/api/webhooks/flux/${encodeURIComponent(target.cluster)}`, {
      headers: { "content-type": "application/json", "x-signature": signature },
      data: raw,
    });
    expect(res.status(), raw).toBe(400);
  }
  expect(await count()).toBe(before);
});

test("a stored year-1 BC or infinite timestamp never breaks the object's page or JSON", async ({ page, request }) => {
  const { rows } = await db.query<{ cid: number; oid: string }>(
    `SELECT c.id AS cid, fo.id AS oid FROM flux_object fo JOIN cluster c ON c.id = fo."clusterId"
      WHERE c.name = $1 AND fo.kind = 'Kustomization' AND fo.namespace = $2 AND fo.name = $3`,
    [target.cluster, target.namespace, target.name],
  );
  const { cid, oid } = rows[0];
  await db.query(
    `INSERT INTO webhook_event ("clusterId", "objectId", "dedupeKey", "involvedKind", "involvedNamespace", "involvedName", severity, reason, message, "eventTime")
     VALUES ($1, $2, 'e2e-year-one', 'Kustomization', $3, $4, 'error', 'Ancient', 'from year 1 BC', '0001-01-01 00:00:00 BC'),
            ($1, $2, 'e2e-infinity', 'Kustomization', $3, $4, 'error', 'Forever', 'from the end of time', 'infinity')`,
    [cid, oid, target.namespace, target.name],
  );
  await db.query(
    `INSERT INTO audit_entry (at, actor, role, action, result, "clusterName", kind, namespace, name)
     VALUES ('0001-01-01 00:00:00 BC', 'e2e', 'admin', 'reconcile', 'ok', $1, 'Kustomization', $2, $3)`,
    [target.cluster, target.namespace, target.name],
  );
  try {
    const path = `/clusters/${encodeURIComponent(target.cluster)}/kustomization/${encodeURIComponent(target.namespace)}/${encodeURIComponent(target.name)}`;
    const json = await request.get(`/api/objects/${path.slice("/clusters/".length)}`);
    expect(json.status()).toBe(200);
    expect((await json.json()).timeline.map((t: { reason?: string }) => t.reason)).toEqual(expect.arrayContaining(["Ancient", "Forever"]));
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    await expect(page.getByText("from year 1 BC")).toBeVisible();
    await expect(page.getByText("year 1 BC (out of range)").first()).toBeAttached();
  } finally {
    await db.query(`DELETE FROM webhook_event WHERE "dedupeKey" IN ('e2e-year-one', 'e2e-infinity')`);
    await db.query(`DELETE FROM audit_entry WHERE actor = 'e2e' AND at < '1000-01-01'`);
  }
});

test("without sign-in, a Host that is not this machine is refused (DNS rebinding)", async ({ request }) => {
  expect(await status(request, "/", { host: "evil.example" })).toBe(421);
  expect(await status(request, "/api/fleet", { host: "evil.example:3000" })).toBe(421);
  expect(await status(request, "/", { host: "localhost" })).toBe(200);
});

// Paths made of the route templates with fuzzed segments: percent sequences (valid and not), NUL and
// other control characters, dot segments, unicode, long runs. Fixed seed, bounded count.
const PATH_FUZZ_RUNS = 150;
test(`path fuzz: ${PATH_FUZZ_RUNS} odd paths against next start, none answers 5xx`, async ({ request }) => {
  const pieces = [
    "%",
    "%00",
    "%FF",
    "%C0%AF",
    "%E2%82",
    "%E2%82%AC",
    "%2F",
    "%2e%2e",
    "..",
    ".",
    "%zz",
    "%25",
    "%u0041",
    "payments.txt",
    "a.svg",
    "~",
    "%0A",
    "%09",
    "é",
    "%F0%9F%92%A9",
    "%ED%A0%80",
  ];
  const segment = fc.oneof(
    fc.constantFrom(...pieces),
    fc.stringMatching(/^[a-z0-9.-]{1,20}$/),
    fc.array(fc.constantFrom(...pieces, "a", "-", "1"), { minLength: 1, maxLength: 6 }).map((p) => p.join("")),
    fc.string({ unit: "grapheme", maxLength: 8 }).map((s) => encodeURIComponent(s) || "x"),
    fc.constant("x".repeat(600)),
  );
  const templates: Array<(s: string[]) => string> = [
    (s) => `/clusters/${s[0]}`,
    (s) => `/clusters/${s[0]}/${s[1]}/${s[2]}/${s[3]}`,
    (s) => `/clusters/${target.cluster}/kustomization/${s[0]}/${s[1]}`,
    (s) => `/api/objects/${s[0]}/${s[1]}/${s[2]}/${s[3]}`,
    (s) => `/api/clusters/${s[0]}`,
    (s) => `/upgrades/${s[0]}`,
    (s) => `/api/upgrades/${s[0]}`,
    (s) => `/_next/static/${s[0]}/${s[1]}`,
    (s) => `/${s[0]}`,
    (s) => `/${s[0]}/${s[1]}`,
    (s) => `/go/${s[0]}`,
    (s) => `/auth/${s[0]}`,
  ];
  const seen: string[] = [];
  await fc.assert(
    fc.asyncProperty(fc.nat(templates.length - 1), fc.array(segment, { minLength: 4, maxLength: 4 }), async (t, segments) => {
      const path = templates[t](segments);
      seen.push(path);
      const res = await request.fetch(`${base()}${path}`, { maxRedirects: 0, failOnStatusCode: false });
      return res.status() < 500;
    }),
    { seed: 20261123, numRuns: PATH_FUZZ_RUNS, endOnFailure: true },
  );
  expect(seen.length).toBeGreaterThanOrEqual(PATH_FUZZ_RUNS);
});
