// Runs before every route: security headers, request size and rate limits, and sign-in. Pages without a
// session are redirected to sign-in, APIs answer 401; the audit log needs an admin. Public: /api/health,
// /metrics (when METRICS_PUBLIC), the signed webhook receivers and the sign-in routes themselves.
import { randomBytes } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { accessFor, allowed, maxBodyBytes, rateLimitBucket, type RateLimitBucket } from "./lib/auth/access";
import { authConfig } from "./lib/auth/config";
import { sessionFromCookie } from "./lib/auth/resolve";
import { clientKey, RateLimiter } from "./lib/auth/rate-limit";
import { SESSION_COOKIE } from "./lib/auth/session";
import { env } from "./lib/env";
import { securityHeaders } from "./lib/http/security-headers";

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
  const https = cfg.secureCookies || request.headers.get("x-forwarded-proto") === "https";
  const headers = securityHeaders({ nonce, https, dev: settings.NODE_ENV === "development" });
  const finish = (response: NextResponse | Response) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
  const access = accessFor(pathname, { metricsPublic: cfg.metricsPublic });
  const api = (access.kind === "session" && access.api) || pathname.startsWith("/api/") || request.headers.has("next-action");
  const refuse = (status: number, code: string, message: string, extra: Record<string, string> = {}) =>
    finish(
      api || status !== 403
        ? Response.json({ error: { code, message } }, { status, headers: extra })
        : new Response(forbiddenPage(message), { status, headers: { "content-type": "text/html; charset=utf-8" } }),
    );

  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBodyBytes(pathname, settings.WEBHOOK_MAX_BODY_BYTES)) return refuse(413, "too_large", "request body too large");

  const bucket = rateLimitBucket(pathname);
  if (bucket) {
    const wait = limiters[bucket].take(clientKey(request.headers));
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
  requestHeaders.set("content-security-policy", headers["Content-Security-Policy"]);
  return finish(NextResponse.next({ request: { headers: requestHeaders } }));
}

function forbiddenPage(message: string): string {
  const text = message.replace(/[<>&"]/g, "");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>403 · Crow's Nest</title></head><body style="font-family:system-ui;margin:4rem auto;max-width:36rem"><h1>403 Forbidden</h1><p>${text}.</p><p><a href="/">Back to the fleet</a></p></body></html>`;
}

export const config = {
  // Everything except build assets and the bundled font/icon files.
  matcher: ["/((?!_next/static|_next/image|.*\\.(?:svg|png|ico|woff2|txt)$).*)"],
};
