// Defence in depth: proxy.ts turns away requests without a session, and every page, layout and route
// handler checks the session itself too, so a path the proxy does not see (a matcher mistake, a Next.js
// normalisation quirk) still needs sign-in. A new page or route that forgets the check fails here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const APP = path.join(process.cwd(), "app");

/** Public on purpose: probes, the HMAC-signed webhook, the sign-in flow itself, and the root layout (no data). */
const PUBLIC = new Set([
  "api/health/route.ts",
  "api/webhooks/flux/[cluster]/route.ts",
  "auth/callback/route.ts",
  "auth/login/route.ts",
  "auth/logout/route.ts",
  "auth/signin/page.tsx",
  "layout.tsx",
]);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [path.relative(APP, full).split(path.sep).join("/")];
  });
}

const all = files(APP);
const pages = all.filter((f) => /(^|\/)(page|layout)\.tsx$/.test(f));
const routes = all.filter((f) => /(^|\/)route\.ts$/.test(f));
const source = (f: string) => readFileSync(path.join(APP, f), "utf8");

describe("every page, layout and route checks the session itself", () => {
  it("finds the app's pages and routes", () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(routes.length).toBeGreaterThan(10);
  });

  it.each(pages.filter((f) => !PUBLIC.has(f)))("%s calls requirePageSession()", (file) => {
    expect(source(file)).toMatch(/\bawait requirePageSession\(/);
  });

  it.each(routes.filter((f) => !PUBLIC.has(f)))("%s calls authorizeRequest() in every handler", (file) => {
    const text = source(file);
    const handlers = [...text.matchAll(/export async function (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g)].map((m) => m[1]);
    expect(handlers.length).toBeGreaterThan(0);
    expect(text.match(/\bawait authorizeRequest\(/g)?.length ?? 0).toBeGreaterThanOrEqual(handlers.length);
  });

  it("keeps the public list short and real", () => {
    for (const f of PUBLIC) expect(all, f).toContain(f);
  });
});
