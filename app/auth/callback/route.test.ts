// The whole sign-in round trip through the real route handlers and a real OIDC provider, with every known
// open-redirect form as `returnTo`: the browser always lands on this site.
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithoutBrowser, startOidcProvider, TEST_CLIENT, TEST_ROLE_ENV, type TestOidcProvider } from "@/e2e/oidc-provider";
import { resetEnvCache } from "@/lib/env";
import { RETURN_TO_BYPASSES } from "@/lib/testing/return-to-bypasses";
import { useTestDatabase } from "@/lib/testing/db";
import { GET as login } from "../login/route";
import { GET as callback } from "./route";

useTestDatabase();

const origin = "http://localhost:3998";
let provider: TestOidcProvider;
const saved: Record<string, string | undefined> = {};
const settings = (issuer: string): Record<string, string> => ({
  AUTH_MODE: "oidc",
  OIDC_ISSUER: issuer,
  OIDC_CLIENT_ID: TEST_CLIENT.id,
  OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
  SESSION_SECRET: "callback-test-session-secret-0123456789",
  PUBLIC_URL: origin,
  ...TEST_ROLE_ENV,
});

beforeAll(async () => {
  provider = await startOidcProvider([`${origin}/auth/callback`]);
  for (const [k, v] of Object.entries(settings(provider.issuer))) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  resetEnvCache();
});
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
  await provider.stop();
});

/** /auth/login?returnTo=… → provider → /auth/callback; the callback's Location. */
async function signInReturningTo(returnTo: string): Promise<string> {
  const started = await login(new NextRequest(`${origin}/auth/login?returnTo=${encodeURIComponent(returnTo)}`));
  expect(started.status).toBe(303);
  const transaction = /crows_nest_oidc=([^;]+)/.exec(started.headers.get("set-cookie") ?? "")?.[1];
  expect(transaction).toBeTruthy();
  const back = await signInWithoutBrowser(started.headers.get("location")!, "viewer");
  const done = await callback(new NextRequest(back, { headers: { cookie: `crows_nest_oidc=${transaction}` } }));
  expect(done.status).toBe(303);
  expect(done.headers.get("set-cookie")).toContain("crows_nest_session=");
  return done.headers.get("location")!;
}

describe("OIDC callback redirect", () => {
  it("returns to the page asked for", async () => {
    expect(await signInReturningTo("/clusters/prod-eu-1?tab=objects")).toBe(`${origin}/clusters/prod-eu-1?tab=objects`);
  });

  it.each(RETURN_TO_BYPASSES)("lands on this site for returnTo=%j", async (bad) => {
    const location = await signInReturningTo(bad);
    expect(new URL(location).origin).toBe(origin);
    expect(location).toBe(`${origin}/`);
  });
});
