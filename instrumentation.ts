// Runs once when the Next.js server starts. `npm start` / `npm run demo` have already migrated the
// database; a server started some other way (a container running `next start`) migrates here, so the
// schema is always current before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("./lib/env");
  const settings = env();
  (await import("./lib/auth/startup-guard")).enforceSafeAuthConfig(settings); // no unsigned access off localhost
  // Stamp each request with its socket address before Next.js sees it, and drop forwarded headers no
  // trusted proxy set (rate limits, CSRF and HSTS decisions read only what the socket or TRUST_PROXY says).
  (await import("./lib/http/peer-address")).installPeerAddress(settings.TRUST_PROXY);
  const { logger } = await import("./lib/logger");
  if (settings.DATABASE_URL) {
    const { migrate } = await import("./lib/db/migrate");
    const result = await migrate(settings.DATABASE_URL);
    if (result.applied.length) logger.info({ applied: result.applied }, "database migrated");
  } else {
    logger.warn("DATABASE_URL is not set: start the web app with `npm start` or `npm run demo`");
  }
}
