// The files in public/, as the URL paths Next.js serves them at. proxy.ts lets exactly these through
// without a session: a pattern ("anything ending in .txt") would also let through an object page whose
// name ends that way. Read from the folder when the server starts, so a file added to public/ needs no
// list kept by hand, and nothing outside the folder can ever match.
import { readdirSync } from "node:fs";
import path from "node:path";

export function listPublicFiles(dir: string = path.join(process.cwd(), "public")): ReadonlySet<string> {
  try {
    const entries = readdirSync(/* turbopackIgnore: true */ dir, { recursive: true, withFileTypes: true });
    return new Set(
      entries
        .filter((e) => e.isFile())
        .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).map(encodeURIComponent).join("/"))
        .map((p) => `/${p}`),
    );
  } catch {
    return new Set(); // no public folder: nothing is public
  }
}
