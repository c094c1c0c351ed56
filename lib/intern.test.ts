import { describe, expect, it } from "vitest";
import { intern } from "./intern";

describe("intern", () => {
  it("returns one instance per content, and leaves null, undefined and long strings alone", () => {
    const a = JSON.parse('"main@sha1:0123456789abcdef"') as string;
    const b = JSON.parse('"main@sha1:0123456789abcdef"') as string;
    expect(intern(a)).toBe(a);
    expect(intern(b)).toBe(a);
    expect(intern(null)).toBeNull();
    expect(intern(undefined)).toBeUndefined();
    const long = "x".repeat(300);
    expect(intern(long)).toBe(long);
  });
});
