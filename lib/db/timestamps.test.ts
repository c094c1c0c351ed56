import { describe, expect, it } from "vitest";
import { parseTimestamp } from "./timestamps";

describe("parseTimestamp (timestamp without time zone, stored as UTC)", () => {
  it("reads what PostgreSQL prints", () => {
    expect(parseTimestamp("2026-11-21 10:00:00").toISOString()).toBe("2026-11-21T10:00:00.000Z");
    expect(parseTimestamp("2026-11-21 10:00:00.123").toISOString()).toBe("2026-11-21T10:00:00.123Z");
    expect(parseTimestamp("2026-11-21 10:00:00.5").toISOString()).toBe("2026-11-21T10:00:00.500Z");
  });

  it("gives a valid Date for every value PostgreSQL can hold: BC years, far future, ±infinity", () => {
    expect(parseTimestamp("0001-01-01 00:00:00 BC").toISOString()).toBe("0000-01-01T00:00:00.000Z");
    expect(parseTimestamp("0044-03-15 12:00:00 BC").toISOString()).toBe("-000043-03-15T12:00:00.000Z");
    expect(parseTimestamp("4713-11-24 00:00:00 BC").getUTCFullYear()).toBe(-4712);
    expect(parseTimestamp("12345-06-07 08:09:10").toISOString()).toBe("+012345-06-07T08:09:10.000Z");
    expect(parseTimestamp("infinity").getTime()).toBe(8.64e15);
    expect(parseTimestamp("-infinity").getTime()).toBe(-8.64e15);
  });
});
