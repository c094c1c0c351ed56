// Refuses to start a server that would expose the fleet without sign-in, or that cannot complete a
// sign-in. Called from instrumentation.ts register() before the first request is served.
import { ConfigError, type Env } from "../env";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** True for addresses only this machine can reach. 0.0.0.0, :: and hostnames listen on the network. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  return LOOPBACK.has(h) || /^127(\.\d{1,3}){3}$/.test(h);
}

type AuthSettings = Pick<Env, "AUTH_MODE" | "HOSTNAME" | "OIDC_ISSUER" | "OIDC_CLIENT_ID" | "SESSION_SECRET" | "PUBLIC_URL">;

/** Throws a ConfigError naming what is wrong and how to fix it. */
export function assertSafeAuthConfig(settings: AuthSettings): void {
  if (settings.AUTH_MODE === "none") {
    if (!isLoopbackHost(settings.HOSTNAME)) {
      throw new ConfigError(
        `AUTH_MODE=none is allowed only when the server listens on localhost, but HOSTNAME=${settings.HOSTNAME}. ` +
          "Set AUTH_MODE=oidc with OIDC_ISSUER, OIDC_CLIENT_ID, SESSION_SECRET and PUBLIC_URL, or bind to 127.0.0.1.",
      );
    }
    return;
  }
  const missing = (["OIDC_ISSUER", "OIDC_CLIENT_ID", "SESSION_SECRET", "PUBLIC_URL"] as const).filter((k) => !settings[k]);
  if (missing.length > 0) {
    throw new ConfigError(
      `AUTH_MODE=oidc needs ${missing.join(", ")} (SESSION_SECRET: 32+ random characters; PUBLIC_URL: where browsers reach Crow's Nest)`,
    );
  }
}

/** For server start-up: an unsafe configuration stops the process with one clear line instead of serving 500s. */
export function enforceSafeAuthConfig(settings: AuthSettings): void {
  try {
    assertSafeAuthConfig(settings);
  } catch (err) {
    console.error(`crows-nest: refusing to start: ${(err as Error).message}`);
    process.exit(1);
  }
}
