// CSRF defence for state-changing requests: the session cookie is SameSite=Lax, the request's Origin must be
// our own, and the body must carry a token derived from the session id (a synchronizer token the server
// renders into the page; a cross-site page can neither read it nor guess it).
import { createHmac, timingSafeEqual } from "node:crypto";
import { requestOrigin } from "../http/forwarded";
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
 * request and on same-origin POSTs; a missing Origin on a POST is treated as foreign. Our origin is the
 * one the browser used (Host, or X-Forwarded-Host only behind a trusted proxy) or PUBLIC_URL's.
 */
export function sameOrigin(headers: Headers, requestUrl: string, trust: { publicOrigin?: string; trustProxy: number }): boolean {
  const origin = headers.get("origin");
  if (!origin || origin === "null") return false;
  return origin === trust.publicOrigin || origin === requestOrigin(headers, requestUrl, trust.trustProxy);
}
