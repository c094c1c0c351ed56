// Runs before every route: security headers, request size and rate limits, and sign-in. Pages without a
// session are redirected to sign-in, APIs answer 401; the audit log needs an admin. Public: /api/health,
// /metrics (when METRICS_PUBLIC), the signed webhook receivers, the sign-in routes themselves and the
// files in public/ by exact path. Pages and route handlers check the session again themselves.
import { randomBytes } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { accessFor, allowed, maxBodyBytes, rateLimitBucket, REQUEST_PATH_HEADER, type RateLimitBucket } from "./lib/auth/access";
import { authConfig } from "./lib/auth/config";
import { sessionFromCookie } from "./lib/auth/resolve";
import { RateLimiter } from "./lib/auth/rate-limit";
import { SESSION_COOKIE } from "./lib/auth/session";
import { isLoopbackHost } from "./lib/auth/startup-guard";
import { env } from "./lib/env";
import { clientAddress } from "./lib/http/forwarded";
import { peerAddressInstalled } from "./lib/http/peer-address";
import { listPublicFiles } from "./lib/http/public-files";
import { hasMalformedEncoding } from "./lib/http/route-params";
import { securityHeaders } from "./lib/http/security-headers";

const publicFiles = listPublicFiles();

const limiters: Record<RateLimitBucket, RateLimiter> = {
  // A person signs in a few times a day; 10 tries then one a minute stops credential stuffing loops.
  "sign-in": new RateLimiter({ capacity: 10, refillPerSecond: 1 / 6 }),
  // notification-controller sends bursts when many objects change at once.
  webhook: new RateLimiter({ capacity: 120, refillPerSecond: 10 }),
};

export async function proxy(request: NextRequest) {
  const settings = env();
  const cfg = authConfig();
  const { pathname, search } = request.nextUrl;
  const nonce = randomBytes(16).toString("base64");
  // X-Forwarded-Proto counts only from a trusted proxy (lib/http/peer-address.ts drops it otherwise).
  const https = cfg.secureCookies || (cfg.trustProxy > 0 && request.headers.get("x-forwarded-proto") === "https");
  const headers = securityHeaders({ nonce, https, dev: settings.NODE_ENV === "development" });
  const finish = (response: NextResponse | Response) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
  const access = accessFor(pathname, { metricsPublic: cfg.metricsPublic, publicFiles });
  const api = (access.kind === "session" && access.api) || pathname.startsWith("/api/") || request.headers.has("next-action");
  const refuse = (status: number, code: string, message: string, extra: Record<string, string> = {}) =>
    finish(
      api || status !== 403
        ? Response.json({ error: { code, message } }, { status, headers: extra })
        : new Response(forbiddenPage(message), { status, headers: { "content-type": "text/html; charset=utf-8" } }),
    );

  // A percent sequence that is not UTF-8 makes Next.js answer a bare 500 after this proxy; answer 400 here.
  if (hasMalformedEncoding(pathname)) return refuse(400, "bad_request", "the URL has a malformed percent-encoded sequence");

  // Without sign-in, only addresses of this machine: a page elsewhere that points its own name at 127.0.0.1
  // (DNS rebinding) could otherwise read the fleet and the CSRF token from the browser of whoever runs it.
  if (cfg.mode === "none" && !loopbackHostHeader(request.headers.get("host")))
    return refuse(421, "misdirected", "without sign-in Crow's Nest answers only at localhost or 127.0.0.1");

  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBodyBytes(pathname, settings.WEBHOOK_MAX_BODY_BYTES)) return refuse(413, "too_large", "request body too large");

  const bucket = rateLimitBucket(pathname);
  if (bucket) {
    // The socket address, or the one a trusted proxy reports (TRUST_PROXY); never a header a client picks.
    const key = peerAddressInstalled() ? clientAddress(request.headers, cfg.trustProxy) : "unknown";
    const wait = limiters[bucket].take(key);
    if (wait > 0) return refuse(429, "rate_limited", "too many requests; try again later", { "retry-after": String(wait) });
  }

  if (access.kind === "session") {
    const session = await sessionFromCookie(request.cookies.get(SESSION_COOKIE)?.value, cfg);
    if (!session) {
      if (api || request.method !== "GET") return refuse(401, "unauthenticated", "sign in first");
      const signIn = new URL("/auth/signin", request.url);
      signIn.searchParams.set("returnTo", `${pathname}${search}`);
      return finish(NextResponse.redirect(signIn, 307));
    }
    if (!allowed(access, session.role))
      return refuse(403, "forbidden", `this page needs the ${access.minimum} role; you are signed in as ${session.role}`);
  }

  // Next.js reads the nonce from the request's CSP header and puts it on the scripts it renders.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set(REQUEST_PATH_HEADER, `${pathname}${search}`);
  requestHeaders.set("content-security-policy", headers["Content-Security-Policy"]);
  return finish(NextResponse.next({ request: { headers: requestHeaders } }));
}

function loopbackHostHeader(host: string | null): boolean {
  if (!host) return false;
  try {
    return isLoopbackHost(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

function forbiddenPage(message: string): string {
  const text = message.replace(/[<>&"]/g, "");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>403 · Crow's Nest</title></head><body style="font-family:system-ui;margin:4rem auto;max-width:36rem"><h1>403 Forbidden</h1><p>${text}.</p><p><a href="/">Back to the fleet</a></p></body></html>`;
}

export const config = {
  // Everything except Next.js' own build assets: /_next/static/ followed by plain names only (no dot
  // segment, no percent sequence, which could lead somewhere else once resolved). Files in public/ go
  // through here and are let through by exact path (publicFiles above), never by a pattern on the name.
  matcher: ["/((?!_next/static/(?:[\\w-]+/)*[\\w-][\\w.-]*$).*)"],
};
