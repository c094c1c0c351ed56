// Rate limits and forwarded headers against real `next start` servers: without TRUST_PROXY a client
// cannot pick its rate-limit bucket with X-Forwarded-For; with TRUST_PROXY=1 (one ingress) each client
// the ingress reports has its own bucket, whatever it prepends to the header itself.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { startOidcWeb, type OidcWeb } from "./auth-stack";

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

/** Sign-in allows a burst of 10 per client, then one every 6 s. */
const BURST = 10;

async function signInStatuses(request: APIRequestContext, web: OidcWeb, forwardedFor: (i: number) => string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < BURST + 3; i++) {
    const res = await request.get(`${web.baseUrl}/auth/login?returnTo=/`, {
      maxRedirects: 0,
      headers: { "x-forwarded-for": forwardedFor(i) },
    });
    statuses.push(res.status());
  }
  return statuses;
}

test("without TRUST_PROXY, a new X-Forwarded-For per request does not walk through the sign-in limit", async ({ request }) => {
  const web = await startOidcWeb();
  try {
    const statuses = await signInStatuses(request, web, (i) => `198.51.100.${i}`);
    expect(statuses.slice(0, BURST).every((s) => s === 303)).toBe(true);
    expect(statuses.slice(BURST)).toEqual([429, 429, 429]);
  } finally {
    await web.stop();
  }
});

test("with TRUST_PROXY=1, clients the proxy names get their own buckets; what they prepend changes nothing", async ({ request }) => {
  const web = await startOidcWeb({ TRUST_PROXY: "1" });
  try {
    const distinct = await signInStatuses(request, web, (i) => `198.51.100.${i}`);
    expect(distinct.every((s) => s === 303)).toBe(true);
    const spoofing = await signInStatuses(request, web, (i) => `10.9.8.${i}, 203.0.113.7`);
    expect(spoofing.slice(BURST)).toEqual([429, 429, 429]);
  } finally {
    await web.stop();
  }
});
