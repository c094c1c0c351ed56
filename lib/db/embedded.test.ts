// Started by root, the embedded PostgreSQL runs as the unprivileged `postgres` user: a folder that user
// cannot enter must end in one clear line naming it, not in the library's raw `spawn initdb EACCES`.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DatabaseStartError } from "../errors";
import { closedFolderOnPath, embeddedServerPid, startEmbeddedPostgres, type FolderMode } from "./embedded";

const postgres = { uid: 101, gid: 104 };
const folders = (modes: Record<string, FolderMode>) => async (folder: string) => {
  const mode = modes[folder];
  if (!mode) throw new Error(`no such folder in this test: ${folder}`);
  return mode;
};
const rootOwned = (mode: number): FolderMode => ({ mode, uid: 0, gid: 0 });

describe("closedFolderOnPath", () => {
  it("finds the first folder the user may not enter, checking the owner, group or other bits that apply", async () => {
    const modes = { "/": rootOwned(0o755), "/root": rootOwned(0o700), "/root/clone": rootOwned(0o755) };
    expect(await closedFolderOnPath("/root/clone", postgres, folders(modes))).toEqual({ folder: "/root", mode: rootOwned(0o700) });
    const open = { ...modes, "/root": rootOwned(0o711) };
    expect(await closedFolderOnPath("/root/clone", postgres, folders(open))).toBeNull();
    const groupOnly = { ...modes, "/root": { mode: 0o710, uid: 0, gid: postgres.gid } };
    expect(await closedFolderOnPath("/root/clone", postgres, folders(groupOnly))).toBeNull();
    const ownedButClosed = { ...modes, "/root/clone": { mode: 0o070, uid: postgres.uid, gid: postgres.gid } };
    expect(await closedFolderOnPath("/root/clone", postgres, folders({ ...ownedButClosed, "/root": rootOwned(0o755) }))).toMatchObject({
      folder: "/root/clone",
    });
  });
});

const asRoot = process.getuid?.() === 0;
if (!asRoot) console.info("embedded.test.ts: the mode-700 check runs only as root (the server then runs as the postgres user)");

describe("startEmbeddedPostgres as root", () => {
  const made: string[] = [];
  afterAll(async () => {
    for (const dir of made) await rm(dir, { recursive: true, force: true });
  });

  it.runIf(asRoot)("refuses a data folder under a mode-700 folder with one line naming that folder", async () => {
    const locked = await mkdtemp(path.join(os.tmpdir(), "crows-nest-locked-"));
    made.push(locked);
    // mkdtemp makes it mode 700: the postgres user cannot enter it.
    const started = startEmbeddedPostgres({ dataDir: path.join(locked, "data"), port: 1, ephemeral: true });
    await expect(started).rejects.toThrow(DatabaseStartError);
    await expect(started).rejects.toThrow(new RegExp(`cannot enter ${locked} \\(drwx------ uid 0\\).*set DATABASE_URL$`));
    const message = await started.catch((err: Error) => err.message);
    expect(message).not.toContain("\n");
  });
});

describe("embeddedServerPid", () => {
  it("reads the running server's pid from its data folder; null when none runs there", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "crows-nest-pid-"));
    try {
      expect(await embeddedServerPid(dir)).toBeNull();
      await mkdir(path.join(dir, "postgres"));
      // postmaster.pid: the pid, the data folder, the start time, the port…
      const pidFile = (pid: number) => `${pid}\n${dir}/postgres\n1700000000\n54321\n`;
      await writeFile(path.join(dir, "postgres", "postmaster.pid"), pidFile(process.pid));
      expect(await embeddedServerPid(dir)).toBe(process.pid);
      // A pid no process has (a server that was killed and left its file behind).
      await writeFile(path.join(dir, "postgres", "postmaster.pid"), pidFile(2 ** 22 + 1));
      expect(await embeddedServerPid(dir)).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
