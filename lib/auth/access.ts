// Which requests need what, decided from the path alone (pure, used by proxy.ts and tested).
import { roleAtLeast, type Role } from "./roles";

export type Access = { kind: "public" } | { kind: "session"; minimum: Role; api: boolean };

/** Signed webhook receivers (HMAC checked by the route) live under this prefix. */
export const WEBHOOK_PREFIX = "/api/webhooks/";

export interface AccessOptions {
  metricsPublic: boolean;
  /** URL paths of the files in public/ (lib/http/public-files.ts): public by exact path, never by pattern. */
  publicFiles?: ReadonlySet<string>;
}

export function accessFor(pathname: string, options: AccessOptions): Access {
  if (pathname === "/api/health" || pathname.startsWith("/auth/") || options.publicFiles?.has(pathname)) return { kind: "public" };
  if (pathname.startsWith(WEBHOOK_PREFIX)) return { kind: "public" };
  if (pathname === "/metrics" || pathname === "/api/metrics")
    return options.metricsPublic ? { kind: "public" } : { kind: "session", minimum: "viewer", api: true };
  const api = pathname.startsWith("/api/");
  if (pathname === "/audit" || pathname.startsWith("/audit/") || pathname.startsWith("/api/audit"))
    return { kind: "session", minimum: "admin", api };
  return { kind: "session", minimum: "viewer", api };
}

export function allowed(access: Access, role: Role | undefined): boolean {
  if (access.kind === "public") return true;
  return role !== undefined && roleAtLeast(role, access.minimum);
}

export type RateLimitBucket = "sign-in" | "webhook";

export function rateLimitBucket(pathname: string): RateLimitBucket | null {
  if (pathname === "/auth/login" || pathname === "/auth/callback") return "sign-in";
  if (pathname.startsWith(WEBHOOK_PREFIX)) return "webhook";
  return null;
}

/** Largest request body accepted per path; anything bigger is refused before it is read. */
export function maxBodyBytes(pathname: string, webhookMax: number): number {
  if (pathname.startsWith(WEBHOOK_PREFIX)) return webhookMax;
  if (pathname.startsWith("/api/")) return 16 * 1024;
  return 1024 * 1024; // server actions (Next.js' own default limit)
}

/** Set by proxy.ts on every request it passes on: the path and query, for the way back after sign-in. */
export const REQUEST_PATH_HEADER = "x-crows-nest-path";
