import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAddresses, buildIsCurrent, sourceHash } from "./web-build";

let root = "";
const write = async (file: string, text: string) => {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
};

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "crows-nest-web-build-"));
  await write("package.json", "{}");
  await write("app/page.tsx", "export default function Page() { return null; }");
  await write("lib/fleet/status.ts", "export const a = 1;");
  await write("lib/fleet/status.test.ts", "test");
  await write("lib/simulator/main.ts", "simulator");
  await write("docs/readme.md", "docs");
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("sourceHash", () => {
  it("changes when a web source or the lockfile changes, not for tests, docs or the simulator", async () => {
    const before = await sourceHash(root);
    expect(await sourceHash(root)).toBe(before);
    await write("lib/fleet/status.test.ts", "another test");
    await write("lib/simulator/main.ts", "another simulator");
    await write("docs/readme.md", "more docs");
    expect(await sourceHash(root)).toBe(before);
    await write("lib/fleet/status.ts", "export const a = 2;");
    const afterSource = await sourceHash(root);
    expect(afterSource).not.toBe(before);
    await write("package-lock.json", "{}");
    expect(await sourceHash(root)).not.toBe(afterSource);
  });

  it("tells a build of these sources from a missing, stale or interrupted one", async () => {
    const hash = await sourceHash(root);
    expect(await buildIsCurrent(root, ".next-demo", hash)).toBe(false);
    await write(".next-demo/BUILD_ID", "abc");
    // Interrupted: a build without its hash is rebuilt.
    expect(await buildIsCurrent(root, ".next-demo", hash)).toBe(false);
    await write(".next-demo/crows-nest-source-hash", `${hash}\n`);
    expect(await buildIsCurrent(root, ".next-demo", hash)).toBe(true);
    // The build folder is not a source: writing into it keeps the hash.
    expect(await sourceHash(root)).toBe(hash);
    await write("app/page.tsx", "changed");
    expect(await buildIsCurrent(root, ".next-demo", await sourceHash(root))).toBe(false);
  });
});

describe("browserAddresses", () => {
  it("offers localhost and 127.0.0.1 for a loopback server, the machine's addresses for 0.0.0.0", () => {
    expect(browserAddresses("localhost", "3000")).toEqual(["http://localhost:3000", "http://127.0.0.1:3000"]);
    expect(browserAddresses("127.0.0.1", "3000")).toEqual(["http://localhost:3000", "http://127.0.0.1:3000"]);
    const all = browserAddresses("0.0.0.0", "3000");
    expect(all[0]).toBe("http://localhost:3000");
    for (const url of all.slice(1)) expect(url).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:3000$/);
    expect(browserAddresses("crows-nest.internal", "80")).toEqual(["http://crows-nest.internal:80"]);
  });
});
