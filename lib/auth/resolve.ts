// Turns a session cookie into a Session. No Next.js imports: used by proxy.ts, route handlers and tests.
import { authConfig, type AuthConfig } from "./config";
import { openSession, type Session } from "./session";

/** Without sign-in (AUTH_MODE=none, localhost only) everyone is this admin. */
export const LOCAL_SESSION: Session = {
  sid: "local-no-sign-in",
  sub: "local",
  name: "local user (sign-in off)",
  role: "admin",
  expiresAt: Number.MAX_SAFE_INTEGER,
};

export async function sessionFromCookie(value: string | undefined, cfg: AuthConfig = authConfig()): Promise<Session | null> {
  if (cfg.mode === "none") return LOCAL_SESSION;
  return cfg.secret ? openSession(value, cfg.secret) : null;
}

export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
