// Who is asking, for pages, route handlers and server actions. proxy.ts already turns away requests
// without a session; every page calls requirePageSession() and every route handler authorizeRequest()
// as well (app/session-checks.test.ts holds them to it), so a path the proxy does not see is still closed.
import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { authConfig, type AuthConfig } from "./config";
import { csrfToken, csrfTokenMatches, sameOrigin } from "./csrf";
import { csrfKey } from "./keys";
import { REQUEST_PATH_HEADER } from "./access";
import { safeReturnTo } from "./return-to";
import { roleAtLeast, type Role } from "./roles";
import { readCookie, sessionFromCookie } from "./resolve";
import { SESSION_COOKIE, SESSION_TTL_SECONDS, type Session } from "./session";

/** The session of the current request (server components, server actions, route handlers). */
export async function getSession(): Promise<Session | null> {
  const jar = await cookies();
  return sessionFromCookie(jar.get(SESSION_COOKIE)?.value);
}

/** For pages and layouts: the session, or a redirect to sign-in that comes back here afterwards. */
export async function requirePageSession(): Promise<Session> {
  const session = await getSession();
  if (!session) {
    const cfg = authConfig();
    const here = safeReturnTo((await headers()).get(REQUEST_PATH_HEADER), cfg.publicOrigin);
    redirect(`/auth/signin?returnTo=${encodeURIComponent(here)}`);
  }
  return session;
}

export function canAct(session: Session | null, cfg: AuthConfig = authConfig()): boolean {
  return !!session && cfg.actionsEnabled && roleAtLeast(session.role, "operator");
}

/** The token a page renders into forms and fetches of the current session. */
export async function csrfTokenFor(session: Session, cfg: AuthConfig = authConfig()): Promise<string> {
  return csrfToken(session.sid, await csrfKey(cfg));
}

export type ApiAuth = { ok: true; session: Session } | { ok: false; response: Response };

const deny = (status: 401 | 403, code: string, message: string): ApiAuth => ({
  ok: false,
  response: Response.json({ error: { code, message } }, { status }),
});

/** For route handlers: 401 without a session, 403 below `minimum`. */
export async function authorizeRequest(request: Request, minimum: Role): Promise<ApiAuth> {
  const cfg = authConfig();
  const session = await sessionFromCookie(readCookie(request.headers.get("cookie"), SESSION_COOKIE), cfg);
  if (!session) return deny(401, "unauthenticated", "sign in first");
  if (!roleAtLeast(session.role, minimum)) return deny(403, "forbidden", `this needs the ${minimum} role; you are ${session.role}`);
  return { ok: true, session };
}

/** For state-changing route handlers: same origin and the session's CSRF token. */
export async function checkCsrf(request: Request, session: Session, token: unknown): Promise<Response | null> {
  const cfg = authConfig();
  if (!sameOrigin(request.headers, request.url, cfg) || !csrfTokenMatches(session.sid, await csrfKey(cfg), token)) {
    return Response.json({ error: { code: "csrf", message: "request did not come from a Crow's Nest page" } }, { status: 403 });
  }
  return null;
}

export function sessionCookieOptions(cfg: AuthConfig = authConfig()) {
  return { httpOnly: true, sameSite: "lax" as const, secure: cfg.secureCookies, path: "/", maxAge: SESSION_TTL_SECONDS };
}
