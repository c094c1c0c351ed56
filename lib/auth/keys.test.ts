import pg from "pg";
import { describe, expect, it } from "vitest";
import { getOrCreateSecret } from "../db/secrets";
import { useTestDatabase } from "../testing/db";
import { authConfig } from "./config";
import { csrfToken } from "./csrf";
import { csrfKey } from "./keys";

const db = useTestDatabase();

describe("csrfKey", () => {
  it("is SESSION_SECRET when one is set", async () => {
    expect(await csrfKey({ ...authConfig(), secret: "s".repeat(40) })).toBe("s".repeat(40));
  });

  it("without SESSION_SECRET, is one random key per deployment, kept in the database", async () => {
    const key = await csrfKey({ ...authConfig(), secret: null });
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await csrfKey({ ...authConfig(), secret: null })).toBe(key);
    const { rows } = await db.pool().query<{ value: string }>(`SELECT value FROM deployment_secret WHERE name = 'csrf'`);
    expect(rows).toEqual([{ value: key }]);
  });

  it("gives web replicas starting at once the same key, so a token one renders the other accepts", async () => {
    const replicas = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: db.url(), max: 1 }));
    try {
      const keys = await Promise.all(replicas.map((pool) => getOrCreateSecret("race-test", pool)));
      expect(new Set(keys).size).toBe(1);
      expect(csrfToken("sid", keys[0])).toBe(csrfToken("sid", keys[3]));
    } finally {
      await Promise.all(replicas.map((p) => p.end()));
    }
  });
});
