// The collector as production runs it: one ES module compiled ahead of time by esbuild, its packages left
// to node_modules. Run through tsx instead, the process also holds tsx's compiled copies and source maps of
// every module it loads: at start, 294 MB RSS and 71 MB of heap against 149 MB and 39 MB for the bundle
// (measured importing the collector's modules and nothing else; docs/benchmarks.md).
import { build } from "esbuild";
import path from "node:path";

/** Where `npm run build` writes the collector the Helm chart and the image run (`node dist/collector.mjs`). */
export const COLLECTOR_BUNDLE = "dist/collector.mjs";

/**
 * Bundles `entry` (a TypeScript file of this repository) into `outfile`, an ES module for Node.js 20, with a
 * source map beside it (`node --enable-source-maps` maps stack traces back to the sources). `outfile` must lie
 * inside the repository: the bundle imports its packages from `node_modules` by name.
 */
export async function bundleForNode(entry: string, outfile: string): Promise<void> {
  const root = process.cwd();
  const relative = path.relative(root, path.resolve(outfile));
  if (relative.startsWith("..") || path.isAbsolute(relative))
    throw new Error(`${outfile} is outside ${root}: the bundle could not find node_modules`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    logLevel: "warning",
  });
}
