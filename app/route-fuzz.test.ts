// Property-based fuzz of every route handler in app/ (found by walking the folder, so a new route is fuzzed
// without anyone adding it here) and of the Flux webhook receiver with correctly signed hostile bodies.
// Properties: no input answers 5xx, and input that is refused (4xx) leaves nothing stored. A fixed seed
// and a bounded number of runs keep it deterministic and quick enough for every CI run.
import { createHmac } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeCluster, makeObject } from "@/lib/db/queries/test-factories";
import { resetEnvCache } from "@/lib/env";
import { useTestDatabase } from "@/lib/testing/db";

const db = useTestDatabase();

const SEED = 20261123;
/** Runs per route handler (each its own property), and for the signed webhook bodies. */
const RUNS_PER_HANDLER = 60;
const WEBHOOK_RUNS = 300;
const WEBHOOK_KEY = "fuzz-webhook-key-0123456789";

const APP = path.join(process.cwd(), "app");
function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === "route.ts" ? [path.join(dir, e.name)] : [],
  );
}
const ROUTES = routeFiles(APP).map((file) => {
  const route = `/${path.relative(APP, path.dirname(file)).split(path.sep).join("/")}`.replace(/\/\([^)]+\)/g, "");
  return { file, route, params: [...route.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]) };
});
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

// --- arbitraries -------------------------------------------------------------------------------------

const nasty = fc.constantFrom(
  "\u0000",
  "x\u0000y",
  "\ud800",
  "\udfff",
  "%FF",
  "%00",
  "%",
  "..",
  "../..",
  "/",
  "\\",
  " ",
  "\t",
  "\r\n",
  "a".repeat(600),
  "0000-01-01",
  "9999-12-31",
  "1999-12-31",
  "-1",
  "0",
  "1e309",
  "NaN",
  "null",
  "[]",
  "{}",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "é",
  "💩",
);
const plausible = fc.constantFrom(
  "prod-eu-1",
  "apps",
  "flux-system",
  "kustomization",
  "helmrelease",
  "gitrepository",
  "HelmRelease",
  "cluster",
  "env",
  "team",
  "failing",
  "stale",
  "json",
  "2026-11-20",
  "30",
  "1",
);
const text = fc.oneof(
  { weight: 3, arbitrary: plausible },
  { weight: 3, arbitrary: nasty },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
);
const QUERY_KEYS = [
  "group",
  "at",
  "kind",
  "standing",
  "skew",
  "q",
  "env",
  "team",
  "region",
  "health",
  "cluster",
  "problem",
  "sort",
  "limit",
  "members",
  "days",
  "format",
  "name",
  "namespace",
  "customresource_kind",
  "exported_namespace",
  "returnTo",
  "code",
  "state",
  "iss",
];
/** Values shaped for what a key holds (dates for `at`, counts for `limit`), plus anything at all. */
const day = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
  .map(([y, m, d]) => `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);
const count = fc.oneof(fc.integer().map(String), fc.constantFrom("0", "-1", "1e3", "1.5", "9007199254740993", "0x10", " 5"));
const TYPED_KEYS = ["at", "limit", "members", "days"];
function valueFor(key: string): fc.Arbitrary<string> {
  if (key === "at") return fc.oneof(day, fc.constantFrom("0000-01-01", "1999-12-31", "2026-11-20", "9999-12-31"), text);
  if (key === "limit" || key === "members" || key === "days") return fc.oneof(count, text);
  return text;
}
const query = fc
  .array(
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...TYPED_KEYS).chain((k) => valueFor(k).map((v): [string, string] => [k, v])) },
      { weight: 2, arbitrary: fc.constantFrom(...QUERY_KEYS).chain((k) => valueFor(k).map((v): [string, string] => [k, v])) },
      { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), text) },
    ),
    { maxLength: 6 },
  )
  .map((pairs) => {
    const p = new URLSearchParams();
    for (const [k, v] of pairs) p.append(k, v);
    return p;
  });
const body = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record({
      action: fc.oneof(fc.constantFrom("reconcile", "suspend", "resume"), text),
      cluster: text,
      kind: text,
      namespace: text,
      name: text,
      csrfToken: text,
    })
    .map((v) => JSON.stringify(v)),
  text,
);

// --- what "nothing stored" means -----------------------------------------------------------------------

const STORES = ["webhook_event", "collector_nudge", "operator_action", "deployment_secret"] as const;
async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of STORES) out[t] = Number((await db.pool().query(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
  // Refused operator actions are audited on purpose (result "denied"); anything else would be stored input.
  out.audit_not_denied = Number((await db.pool().query(`SELECT count(*) AS n FROM audit_entry WHERE result <> 'denied'`)).rows[0].n);
  return out;
}

beforeAll(async () => {
  process.env.WEBHOOK_HMAC_SECRET = WEBHOOK_KEY;
  resetEnvCache();
  const c = await makeCluster(db.prisma(), { name: "prod-eu-1" });
  await makeObject(db.prisma(), c.id, { name: "apps" });
  await makeObject(db.prisma(), c.id, { kind: "HelmRelease", apiVersion: "helm.toolkit.fluxcd.io/v2", namespace: "apps", name: "podinfo" });
});
afterAll(() => {
  delete process.env.WEBHOOK_HMAC_SECRET;
  resetEnvCache();
});

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

describe("every route handler", () => {
  it("finds the routes", () => expect(ROUTES.length).toBeGreaterThan(15));

  for (const { file, route, params } of ROUTES) {
    it(`${route}: ${RUNS_PER_HANDLER} fuzzed requests per method, no 5xx, nothing stored when refused`, async () => {
      const mod = (await import(file)) as Partial<Record<(typeof METHODS)[number], Handler>>;
      const handlers = METHODS.filter((m) => typeof mod[m] === "function");
      expect(handlers.length).toBeGreaterThan(0);
      for (const method of handlers) {
        await fc.assert(
          fc.asyncProperty(fc.array(text, { minLength: params.length, maxLength: params.length }), query, body, async (values, q, b) => {
            const before = await counts();
            const url = `http://localhost${route.replace(/\[[^\]]+\]/g, "x")}?${q.toString()}`;
            // Next.js hands route handlers a NextRequest (the sign-in routes read nextUrl and cookies).
            const request = new NextRequest(url, {
              method,
              headers: { "content-type": "application/json" },
              body: method === "GET" ? undefined : b,
            });
            const res = await mod[method]!(request, {
              params: Promise.resolve(Object.fromEntries(params.map((p, i) => [p, values[i]]))),
            });
            expect(res.status, `${method} ${route} ${JSON.stringify(values)} ?${q} → ${res.status}`).toBeLessThan(500);
            if (res.status >= 400) expect(await counts()).toEqual(before);
          }),
          { seed: SEED, numRuns: RUNS_PER_HANDLER, endOnFailure: true },
        );
      }
    });
  }
});

describe("Flux webhook receiver with correctly signed bodies", () => {
  const objectName = fc.oneof({ weight: 3, arbitrary: fc.constantFrom("apps", "podinfo", "missing") }, { weight: 1, arbitrary: text });
  const timestamp = fc.oneof(
    fc
      .date({ min: new Date("2026-01-01T00:00:00Z"), max: new Date("2026-11-23T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString()),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    fc.constantFrom("0000-01-01T00:00:00Z", "-000001-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", "2026-02-30T00:00:00Z", "yesterday", ""),
    text,
  );
  const event = fc.record(
    {
      involvedObject: fc.record(
        {
          kind: fc.oneof(fc.constantFrom("Kustomization", "HelmRelease"), text),
          namespace: fc.oneof(fc.constantFrom("flux-system", "apps"), text),
          name: objectName,
        },
        { requiredKeys: [] },
      ),
      severity: fc.oneof(fc.constantFrom("info", "error"), text),
      timestamp,
      message: fc.oneof(text, fc.string({ maxLength: 500 })),
      reason: text,
      metadata: fc.dictionary(text, text, { maxKeys: 4 }),
      reportingController: text,
    },
    { requiredKeys: [] },
  );
  const payload = fc.oneof(
    { weight: 4, arbitrary: event.map((e) => JSON.stringify(e)) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: text },
  );

  it(`${WEBHOOK_RUNS} signed bodies: no 5xx, a refused one stores nothing, an accepted one exactly one event and nudge`, async () => {
    const { POST } = await import("./api/webhooks/flux/[cluster]/route");
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 5, arbitrary: fc.constant("prod-eu-1") }, { weight: 1, arbitrary: text }),
        payload,
        async (cluster, raw) => {
          const before = await counts();
          const signature = `sha256=${createHmac("sha256", WEBHOOK_KEY).update(raw).digest("hex")}`;
          const request = new Request(`http://localhost/api/webhooks/flux/x`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-signature": signature },
            body: raw,
          });
          const res = await POST(request, { params: Promise.resolve({ cluster }) });
          expect(res.status, `${cluster} ${raw.slice(0, 300)} → ${res.status}`).toBeLessThan(500);
          const after = await counts();
          if (res.status === 202) {
            accepted++;
            expect(after.webhook_event).toBe(before.webhook_event + 1);
            expect(after.collector_nudge).toBe(before.collector_nudge + 1);
          } else {
            expect(after).toEqual(before);
          }
        },
      ),
      { seed: SEED, numRuns: WEBHOOK_RUNS, endOnFailure: true },
    );
    // The generator reaches the storing path too, or the property above would prove little.
    expect(accepted).toBeGreaterThan(10);
  });
});
