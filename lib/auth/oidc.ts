// OpenID Connect sign-in: authorization code flow with PKCE (S256), state and nonce, via openid-client.
// The short-lived transaction (verifier, state, nonce, return path) travels in its own encrypted cookie.
import * as client from "openid-client";
import { z } from "zod";
import type { AuthConfig } from "./config";
import { groupsFromClaims, roleFromGroups, type Role } from "./roles";
import { safeReturnTo } from "./return-to";
import { newSessionId, seal, SESSION_TTL_SECONDS, unseal, type Session } from "./session";
import { isLoopbackHost } from "./startup-guard";

export const TRANSACTION_COOKIE = "crows_nest_oidc";
export const TRANSACTION_TTL_SECONDS = 10 * 60;
export const CALLBACK_PATH = "/auth/callback";

const transactionSchema = z.object({ verifier: z.string(), state: z.string(), nonce: z.string(), returnTo: z.string() });

export class SignInError extends Error {
  override name = "SignInError";
  constructor(
    message: string,
    readonly reason: "transaction" | "provider" | "no-role",
    readonly who?: { sub: string; name: string },
  ) {
    super(message);
  }
}

let discovered: { key: string; config: Promise<client.Configuration> } | undefined;

/** Discovery once per process (and again after a failure). */
export function oidcConfiguration(cfg: AuthConfig): Promise<client.Configuration> {
  if (!cfg.issuer || !cfg.clientId) throw new SignInError("OIDC is not configured", "provider");
  const key = `${cfg.issuer}|${cfg.clientId}`;
  if (discovered?.key !== key) {
    const issuer = new URL(cfg.issuer);
    const auth = cfg.clientSecret ? client.ClientSecretBasic(cfg.clientSecret) : client.None();
    // Plain HTTP only for an issuer on this machine (a local test provider); anything else must be HTTPS.
    const execute = issuer.protocol === "http:" && isLoopbackHost(issuer.hostname) ? [client.allowInsecureRequests] : [];
    const config = client.discovery(issuer, cfg.clientId, undefined, auth, { execute, timeout: 10 });
    config.catch(() => {
      if (discovered?.config === config) discovered = undefined;
    });
    discovered = { key, config };
  }
  return discovered.config;
}

/** SESSION_SECRET, which sign-in cannot do without (the server refuses to start without it anyway). */
export function sessionSecret(cfg: AuthConfig): string {
  if (!cfg.secret) throw new SignInError("SESSION_SECRET is not set", "provider");
  return cfg.secret;
}

export function redirectUri(cfg: AuthConfig): string {
  if (!cfg.publicOrigin) throw new SignInError("PUBLIC_URL is not set", "provider");
  return `${cfg.publicOrigin}${CALLBACK_PATH}`;
}

export async function beginSignIn(cfg: AuthConfig, returnTo: string): Promise<{ url: URL; transaction: string }> {
  const config = await oidcConfiguration(cfg);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(cfg),
    scope: "openid profile email groups",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  const expiresAt = Math.floor(Date.now() / 1000) + TRANSACTION_TTL_SECONDS;
  const transaction = await seal(
    { verifier, state, nonce, returnTo: safeReturnTo(returnTo, cfg.publicOrigin) },
    sessionSecret(cfg),
    "oidc-transaction",
    expiresAt,
  );
  return { url, transaction };
}

export interface SignInResult {
  session: Session;
  returnTo: string;
}

/** Exchanges the code, checks state, nonce and PKCE, maps groups to a role. */
export async function completeSignIn(
  cfg: AuthConfig,
  callbackQuery: URLSearchParams,
  transactionCookie: string | undefined,
): Promise<SignInResult> {
  const payload = transactionCookie ? await unseal(transactionCookie, sessionSecret(cfg), "oidc-transaction") : null;
  const tx = transactionSchema.safeParse(payload);
  if (!tx.success) throw new SignInError("the sign-in took too long or was started in another browser; please try again", "transaction");
  const config = await oidcConfiguration(cfg);
  const currentUrl = new URL(redirectUri(cfg));
  currentUrl.search = callbackQuery.toString();
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: tx.data.verifier,
      expectedState: tx.data.state,
      expectedNonce: tx.data.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    throw new SignInError(`the identity provider refused the sign-in: ${describe(err)}`, "provider");
  }
  const claims = tokens.claims();
  if (!claims) throw new SignInError("the identity provider returned no ID token", "provider");
  let groups = groupsFromClaims(claims, cfg.groupsClaim);
  if (groups.length === 0 && tokens.access_token) {
    // Many providers put groups only in the userinfo response.
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => undefined);
    if (info) groups = groupsFromClaims(info, cfg.groupsClaim);
  }
  const name = stringClaim(claims.name) ?? stringClaim(claims.preferred_username) ?? stringClaim(claims.email) ?? claims.sub;
  const sub = `${claims.iss}#${claims.sub}`;
  const role: Role | null = roleFromGroups(groups, cfg.roles);
  if (!role) throw new SignInError("your account is in none of the groups allowed to use Crow's Nest", "no-role", { sub, name });
  const session: Session = {
    sid: newSessionId(),
    sub,
    name,
    email: stringClaim(claims.email),
    role,
    expiresAt: Math.floor(Date.now() / 1000) + SESSION_TTL_SECONDS,
  };
  return { session, returnTo: tx.data.returnTo };
}

function stringClaim(v: unknown): string | undefined {
  return typeof v === "string" && v.length > 0 ? v : undefined;
}

/** Error text from the provider without anything that could be a token. */
function describe(err: unknown): string {
  const e = err as { error?: string; error_description?: string; message?: string };
  const text = e.error ? `${e.error}${e.error_description ? ` (${e.error_description})` : ""}` : (e.message ?? String(err));
  return text.replace(/[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}[.A-Za-z0-9_-]*/g, "[token]").slice(0, 300);
}
