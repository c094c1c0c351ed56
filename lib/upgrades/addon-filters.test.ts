import { describe, expect, it } from "vitest";
import { atInstant, clusterMatches, columnPage, MATRIX_PAGE_COLUMNS, parseAddonFilters, rowMatches } from "./addon-filters";

describe("add-on filters", () => {
  it("parses the query string with defaults", () => {
    expect(parseAddonFilters(new URLSearchParams("group=team&at=2026-11-10&standing=minor&q=cert"))).toEqual({
      group: "team",
      at: "2026-11-10",
      standing: "minor",
      q: "cert",
    });
    expect(parseAddonFilters({ group: ["env", "team"], at: "" })).toEqual({ group: "env" });
  });
  it.each(["2026-13-40", "yesterday", "2026-11-1", "0000-01-01", "1999-12-31"])("rejects at=%s", (at) => {
    expect(() => parseAddonFilters({ at })).toThrow();
  });
  it("at means the end of that UTC day, or now for today", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    expect(atInstant("2026-11-20", now)?.toISOString()).toBe("2026-11-20T23:59:59.999Z");
    expect(atInstant("2026-11-21", now)).toBeUndefined();
    expect(atInstant(undefined, now)).toBeUndefined();
  });
  it("row filters", () => {
    const row = {
      kind: "helm",
      label: "cert-manager",
      repository: "https://charts.jetstack.io",
      skew: true,
      counts: { minor: 1, current: 0 },
    };
    expect(rowMatches(row, { group: "none", kind: "helm", q: "jetstack" })).toBe(true);
    expect(rowMatches(row, { group: "none", standing: "current" })).toBe(false);
    expect(rowMatches({ ...row, skew: false }, { group: "none", skew: "1" })).toBe(false);
  });
});

describe("matrix columns", () => {
  it("filters clusters by env, team and region from the query string", () => {
    const f = parseAddonFilters(new URLSearchParams("env=prod&team=web&page=2"));
    expect(f).toMatchObject({ env: "prod", team: "web", page: 2 });
    expect(clusterMatches({ env: "prod", team: "web", region: "x" }, f)).toBe(true);
    expect(clusterMatches({ env: "prod", team: "data", region: "x" }, f)).toBe(false);
    expect(() => parseAddonFilters({ page: "0" })).toThrow();
  });
  it("pages the columns, clamping the page", () => {
    const names = Array.from({ length: 2 * MATRIX_PAGE_COLUMNS + 5 }, (_, i) => `c${i}`);
    expect(columnPage(names, undefined)).toMatchObject({ page: 1, pages: 3 });
    expect(columnPage(names, 3).shown).toEqual(names.slice(2 * MATRIX_PAGE_COLUMNS));
    expect(columnPage(names, 99).page).toBe(3);
    expect(columnPage([], 1)).toEqual({ shown: [], page: 1, pages: 1 });
  });
});
