// Who is asking, for pages, route handlers and server actions. The proxy already turned away requests
// without a session; these helpers decide what a signed-in user may see and do.
import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { authConfig, type AuthConfig } from "./config";
import { csrfToken, csrfTokenMatches, sameOrigin } from "./csrf";
import { roleAtLeast, type Role } from "./roles";
import { readCookie, sessionFromCookie } from "./resolve";
import { SESSION_COOKIE, SESSION_TTL_SECONDS, type Session } from "./session";

/** The session of the current request (server components, server actions, route handlers). */
export async function getSession(): Promise<Session | null> {
  const jar = await cookies();
  return sessionFromCookie(jar.get(SESSION_COOKIE)?.value);
}

export async function requireSession(returnTo = "/"): Promise<Session> {
  const session = await getSession();
  if (!session) redirect(`/auth/signin?returnTo=${encodeURIComponent(returnTo)}`);
  return session;
}

export function canAct(session: Session | null, cfg: AuthConfig = authConfig()): boolean {
  return !!session && cfg.actionsEnabled && roleAtLeast(session.role, "operator");
}

/** The token a page renders into forms and fetches of the current session. */
export function csrfTokenFor(session: Session, cfg: AuthConfig = authConfig()): string {
  return csrfToken(session.sid, cfg.secret);
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
export function checkCsrf(request: Request, session: Session, token: unknown): Response | null {
  const cfg = authConfig();
  if (!sameOrigin(request.headers, request.url, cfg.publicOrigin) || !csrfTokenMatches(session.sid, cfg.secret, token)) {
    return Response.json({ error: { code: "csrf", message: "request did not come from a Crow's Nest page" } }, { status: 403 });
  }
  return null;
}

export function sessionCookieOptions(cfg: AuthConfig = authConfig()) {
  return { httpOnly: true, sameSite: "lax" as const, secure: cfg.secureCookies, path: "/", maxAge: SESSION_TTL_SECONDS };
}
