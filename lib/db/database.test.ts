// Start-up failures end in one line and a non-zero exit, and leave nothing half-written behind.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { freePort } from "./embedded";

const run = promisify(execFile);

/** Runs `npm run db:migrate`'s script with the given environment, as a user would. */
async function migrateScript(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !["DATABASE_URL", "CROWS_NEST_DATA_DIR", "EMBEDDED_PG_PORT"].includes(k)),
  );
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], {
      env: { ...clean, ...env } as NodeJS.ProcessEnv,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const errorLines = (stderr: string) => stderr.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("npm warn"));

describe("start-up errors", () => {
  it("an unreachable DATABASE_URL", async () => {
    const port = await freePort();
    const r = await migrateScript({ DATABASE_URL: `postgresql://app:secret@127.0.0.1:${port}/crows` });
    expect(r.code).toBe(1);
    expect(errorLines(r.stderr)).toEqual([
      `crows-nest: cannot reach the database at 127.0.0.1:${port}/crows: connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
    expect(r.stderr).not.toContain("secret");
  });

  it("a DATABASE_URL with a wrong password", async () => {
    const url = new URL(inject("pgAdminUrl"));
    url.password = "wrong-password";
    const r = await migrateScript({ DATABASE_URL: url.toString() });
    expect(r.code).toBe(1);
    const lines = errorLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^crows-nest: cannot reach the database at 127\.0\.0\.1:\d+\/postgres: password authentication failed for user "postgres"$/,
    );
    expect(r.stderr).not.toContain("wrong-password");
  });

  it("a malformed DATABASE_URL", async () => {
    const r = await migrateScript({ DATABASE_URL: "not a url" });
    expect(r.code).toBe(1);
    expect(errorLines(r.stderr)).toEqual(["crows-nest: invalid configuration: DATABASE_URL: Invalid URL"]);
  });

  it("the embedded database's port already in use", async () => {
    const server = net.createServer().listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const port = (server.address() as net.AddressInfo).port;
    const dir = await mkdtemp(path.join(os.tmpdir(), "cn-port-"));
    try {
      const r = await migrateScript({ CROWS_NEST_DATA_DIR: dir, EMBEDDED_PG_PORT: String(port) });
      expect(r.code).toBe(1);
      expect(errorLines(r.stderr)).toEqual([
        `crows-nest: port ${port} is already in use by another process; set EMBEDDED_PG_PORT to a free port or DATABASE_URL to an existing database`,
      ]);
      // Nothing initialised, nothing left half-written.
      expect(await readdir(dir)).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("a data directory that cannot be written", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "cn-file-"));
    const file = path.join(dir, "not-a-directory");
    await writeFile(file, "x");
    const r = await migrateScript({ CROWS_NEST_DATA_DIR: path.join(file, "data"), EMBEDDED_PG_PORT: String(await freePort()) });
    expect(r.code).toBe(1);
    const lines = errorLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^crows-nest: data directory ${path.join(file, "data")} is not writable: ENOTDIR`));
  });

  it("starts an embedded database, keeps its data across restarts", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "cn-embedded-"));
    const port = String(await freePort());
    const first = await migrateScript({ CROWS_NEST_DATA_DIR: dir, EMBEDDED_PG_PORT: port });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/database ready \(embedded\), migration \d{14}_\w+, applied now: [1-9]/);
    expect(existsSync(path.join(dir, "postgres", "PG_VERSION"))).toBe(true);
    const second = await migrateScript({ CROWS_NEST_DATA_DIR: dir, EMBEDDED_PG_PORT: port });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/applied now: 0$/m);
  });
});
