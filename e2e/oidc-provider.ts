// A real OpenID Connect provider (the `oidc-provider` package) started locally for tests, with three users
// whose groups map to Crow's Nest's roles, and one user in no allowed group. Sign-in uses the provider's
// own login form; any password is accepted, the login name picks the user.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type ProviderContext } from "oidc-provider";

export const TEST_CLIENT = { id: "crows-nest", secret: "test-client-secret-not-used-anywhere-else" };

/** Group names as a provider would send them, and the ROLE_*_GROUPS settings that map them. */
export const TEST_GROUPS = { admin: "platform-admins", operator: "platform-oncall", viewer: "engineering" };
export const TEST_ROLE_ENV = {
  ROLE_ADMIN_GROUPS: TEST_GROUPS.admin,
  ROLE_OPERATOR_GROUPS: TEST_GROUPS.operator,
  ROLE_VIEWER_GROUPS: TEST_GROUPS.viewer,
};

const USERS: Record<string, { name: string; email: string; groups: string[] }> = {
  viewer: { name: "Vera Viewer", email: "vera@example.com", groups: [TEST_GROUPS.viewer] },
  operator: { name: "Otto Operator", email: "otto@example.com", groups: [TEST_GROUPS.viewer, TEST_GROUPS.operator] },
  admin: { name: "Ada Admin", email: "ada@example.com", groups: [TEST_GROUPS.admin] },
  outsider: { name: "Olga Outsider", email: "olga@example.com", groups: ["marketing"] },
};

export interface TestOidcProvider {
  issuer: string;
  stop: () => Promise<void>;
}

/** Starts the provider on a free port of 127.0.0.1; `redirectUris` are the callbacks it accepts. */
export async function startOidcProvider(redirectUris: string[]): Promise<TestOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: "test" }] },
    cookies: { keys: ["test-cookie-key-one", "test-cookie-key-two"] },
    scopes: ["openid", "profile", "email", "groups"],
    claims: { openid: ["sub"], profile: ["name", "preferred_username"], email: ["email"], groups: ["groups"] },
    // Scope claims in the ID token too, as Keycloak, Dex and Entra ID do by default.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, id: string) {
      const user = USERS[id];
      if (!user) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, preferred_username: id, ...user }) };
    },
    // First-party client: no consent screen.
    async loadExistingGrant(ctx: ProviderContext) {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope("openid profile email groups");
      grant.addOIDCClaims(["name", "preferred_username", "email", "groups"]);
      await grant.save();
      return grant;
    },
    ttl: { Session: 3600, Interaction: 600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Follows an authorization URL through the provider's login form without a browser, as `login`, and
 * returns the redirect to the client's callback (with code, state and iss).
 */
export async function signInWithoutBrowser(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const remember = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  let url = new URL(authorizationUrl);
  const issuerOrigin = url.origin;
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      method: body ? "POST" : "GET",
      body,
      headers: { cookie: cookie(), ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      redirect: "manual",
    });
    remember(res);
    body = undefined;
    const location = res.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== issuerOrigin) return next;
      url = next;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action || !html.includes('name="login"')) throw new Error(`unexpected provider page (${res.status}): ${html.slice(0, 200)}`);
    url = new URL(action, url);
    body = new URLSearchParams({ prompt: "login", login, password: "any" });
  }
  throw new Error("too many redirects at the provider");
}
