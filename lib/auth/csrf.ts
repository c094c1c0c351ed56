// CSRF defence for state-changing requests: the session cookie is SameSite=Lax, the request's Origin must be
// our own, and the body must carry a token derived from the session id (a synchronizer token the server
// renders into the page; a cross-site page can neither read it nor guess it).
import { createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "./session";

export function csrfToken(sessionId: string, secret: string): string {
  return createHmac("sha256", deriveKey(secret, "csrf")).update(sessionId).digest("base64url");
}

export function csrfTokenMatches(sessionId: string, secret: string, token: unknown): boolean {
  if (typeof token !== "string") return false;
  const expected = Buffer.from(csrfToken(sessionId, secret));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * True when the request comes from one of our own pages. Browsers send Origin on every cross-origin
 * request and on same-origin POSTs; a missing Origin on a POST is treated as foreign. Behind a reverse
 * proxy the Host seen here may differ from the public one, so PUBLIC_URL's origin is accepted too.
 */
export function sameOrigin(headers: Headers, requestUrl: string, publicOrigin?: string): boolean {
  const origin = headers.get("origin");
  if (!origin || origin === "null") return false;
  const allowed = new Set<string>([new URL(requestUrl).origin]);
  if (publicOrigin) allowed.add(publicOrigin);
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (host) {
    const proto = headers.get("x-forwarded-proto") ?? new URL(requestUrl).protocol.replace(":", "");
    allowed.add(`${proto}://${host}`);
  }
  return allowed.has(origin);
}
