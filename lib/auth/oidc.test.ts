// Sign-in against a real OpenID Connect provider running locally (oidc-provider), through its login form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithoutBrowser, startOidcProvider, TEST_CLIENT, TEST_GROUPS, type TestOidcProvider } from "../../e2e/oidc-provider";
import type { AuthConfig } from "./config";
import { beginSignIn, completeSignIn, SignInError } from "./oidc";
import { safeReturnTo } from "./return-to";
import { openSession, sealSession } from "./session";

const origin = "http://localhost:3999";
const SECRET = "session-secret-for-the-oidc-test-0123456789";
let provider: TestOidcProvider;
let cfg: AuthConfig;

beforeAll(async () => {
  provider = await startOidcProvider([`${origin}/auth/callback`]);
  cfg = {
    mode: "oidc",
    issuer: provider.issuer,
    clientId: TEST_CLIENT.id,
    clientSecret: TEST_CLIENT.secret,
    groupsClaim: "groups",
    roles: { adminGroups: [TEST_GROUPS.admin], operatorGroups: [TEST_GROUPS.operator], viewerGroups: [TEST_GROUPS.viewer] },
    secret: SECRET,
    publicOrigin: origin,
    secureCookies: false,
    actionsEnabled: true,
    metricsPublic: true,
    trustProxy: 0,
  };
});
afterAll(() => provider.stop());

async function signIn(login: string, returnTo = "/clusters/hub") {
  const { url, transaction } = await beginSignIn(cfg, returnTo);
  const callback = await signInWithoutBrowser(url.toString(), login);
  return { url, callback, transaction, result: () => completeSignIn(cfg, callback.searchParams, transaction) };
}

describe("OIDC sign-in", () => {
  it("uses the authorization code flow with PKCE S256, state and nonce", async () => {
    const { url } = await beginSignIn(cfg, "/");
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.get("redirect_uri")).toBe(`${origin}/auth/callback`);
  });

  it("maps each user's groups to a role and returns to the page asked for", async () => {
    for (const [login, role] of [
      ["viewer", "viewer"],
      ["operator", "operator"],
      ["admin", "admin"],
    ] as const) {
      const { result } = await signIn(login);
      const { session, returnTo } = await result();
      expect(session).toMatchObject({ role, sub: `${provider.issuer}#${login}` });
      expect(returnTo).toBe("/clusters/hub");
      expect(await openSession(await sealSession(session, SECRET), SECRET)).toEqual(session);
    }
    const { session } = await (await signIn("operator")).result();
    expect(session.name).toBe("Otto Operator");
  });

  it("refuses a user in no allowed group", async () => {
    const { result } = await signIn("outsider");
    await expect(result()).rejects.toMatchObject({ reason: "no-role", who: { name: "Olga Outsider" } });
  });

  it("refuses a callback whose state or transaction does not match", async () => {
    const first = await signIn("viewer");
    const second = await beginSignIn(cfg, "/");
    // The code of the first sign-in presented with the transaction cookie of another one.
    await expect(completeSignIn(cfg, first.callback.searchParams, second.transaction)).rejects.toBeInstanceOf(SignInError);
    await expect(completeSignIn(cfg, first.callback.searchParams, undefined)).rejects.toMatchObject({ reason: "transaction" });
    await expect(completeSignIn(cfg, first.callback.searchParams, "forged")).rejects.toMatchObject({ reason: "transaction" });
    // The original pair still works once, and a replayed code is refused by the provider.
    await expect(first.result()).resolves.toBeTruthy();
    await expect(first.result()).rejects.toMatchObject({ reason: "provider" });
  });
});

it("keeps return paths on this site", () => {
  expect(safeReturnTo("/clusters/a?x=1")).toBe("/clusters/a?x=1");
  for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "", null, "/auth/callback"]) {
    expect(safeReturnTo(bad)).toBe("/");
  }
});
