// The production build the demo serves: built once, reused while the web app's sources are unchanged.
// A content hash of those sources is stored beside the build; a different hash (or no build) rebuilds.
// The demo never serves `next dev`: its pages would not hydrate when opened at 127.0.0.1 or the machine's
// address (Next.js blocks its dev resources for other origins), and every first visit would compile.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { nextBin, startChild } from "./processes";

/** Where the demo keeps its own build, apart from `.next` (which `npm run build` and `next dev` use). */
export const DEMO_DIST_DIR = ".next-demo";
const HASH_FILE = "crows-nest-source-hash";

/** What goes into the web build: the app, the library it imports, and the files that configure the build. */
const SOURCE_DIRS = ["app", "lib", "public"];
const SOURCE_FILES = [
  "package.json",
  "package-lock.json",
  "next.config.js",
  "tsconfig.json",
  "postcss.config.mjs",
  "proxy.ts",
  "instrumentation.ts",
  "prisma/schema.prisma",
];
/** Never bundled into the web app (the house rules forbid app → collector; the simulator is its own process), tests, generated code. */
const SKIP = [/^lib\/collector\//, /^lib\/simulator\//, /^lib\/db\/generated\//, /\.test\.tsx?$/];

async function listFiles(root: string, dir: string): Promise<string[]> {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  const out: string[] = [];
  for (const entry of await readdir(full, { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await listFiles(root, rel)));
    else if (entry.isFile() && !SKIP.some((re) => re.test(rel))) out.push(rel);
  }
  return out;
}

/** SHA-256 over the paths and contents of every web source, in a stable order. */
export async function sourceHash(root: string): Promise<string> {
  const files = [
    ...(await Promise.all(SOURCE_DIRS.map((d) => listFiles(root, d)))).flat(),
    ...SOURCE_FILES.filter((f) => existsSync(path.join(root, f))),
  ];
  files.sort();
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await readFile(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** True when `distDir` holds a complete build made from sources with this hash. */
export async function buildIsCurrent(root: string, distDir: string, hash: string): Promise<boolean> {
  const dir = path.join(root, distDir);
  if (!existsSync(path.join(dir, "BUILD_ID"))) return false;
  const stored = await readFile(path.join(dir, HASH_FILE), "utf8").catch(() => "");
  return stored.trim() === hash;
}

export interface BuildResult {
  reused: boolean;
  seconds: number;
}

/** Reuses the build in `distDir` when its sources are unchanged, else runs `next build` into it. */
export async function ensureProductionBuild(opts: {
  root: string;
  distDir: string;
  verbose: boolean;
  onBuild: () => void;
}): Promise<BuildResult> {
  const started = Date.now();
  const hash = await sourceHash(opts.root);
  if (await buildIsCurrent(opts.root, opts.distDir, hash)) return { reused: true, seconds: 0 };
  opts.onBuild();
  const build = startChild(
    "build",
    process.execPath,
    [nextBin, "build"],
    { ...process.env, NEXT_DIST_DIR: opts.distDir, NEXT_TELEMETRY_DISABLED: "1" },
    {
      quiet: !opts.verbose,
    },
  );
  const code = await build.exited;
  if (code !== 0) {
    const last = build
      .lastLines()
      .slice(-8)
      .map((l) => `\n  ${l}`)
      .join("");
    throw new Error(`next build exited with code ${code}; its last output:${last}`);
  }
  // Written last: an interrupted build has no hash and is rebuilt next time.
  await writeFile(path.join(opts.root, opts.distDir, HASH_FILE), `${hash}\n`);
  return { reused: false, seconds: Math.round((Date.now() - started) / 1000) };
}

/** The addresses a browser on this machine (and, when listening on every interface, others) can open. */
export function browserAddresses(host: string, port: string): string[] {
  const h = host.trim().toLowerCase();
  if (h === "localhost" || h === "127.0.0.1") return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  if (h === "::1" || h === "[::1]") return [`http://[::1]:${port}`];
  if (h === "0.0.0.0" || h === "::") {
    const external = Object.values(os.networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal && i.family === "IPv4")
      .map((i) => `http://${i!.address}:${port}`);
    return [`http://localhost:${port}`, ...external];
  }
  return [`http://${host}:${port}`];
}
