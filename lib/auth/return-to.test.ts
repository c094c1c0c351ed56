import { describe, expect, it } from "vitest";
import { RETURN_TO_BYPASSES } from "../testing/return-to-bypasses";
import { safeReturnTo } from "./return-to";

const origin = "https://crows-nest.example.com";

describe("safeReturnTo", () => {
  it("keeps paths on this site, query and fragment included", () => {
    for (const ok of [
      "/",
      "/clusters/a?x=1",
      "/clusters/prod-eu-1/kustomization/apps/payments.txt",
      "/failures?kind=kustomization&q=a%20b",
      "/go?cluster=prod&name=apps#top",
    ]) {
      expect(safeReturnTo(ok, origin)).toBe(ok);
    }
  });

  it.each(RETURN_TO_BYPASSES)("sends %j home", (bad) => {
    expect(safeReturnTo(bad, origin)).toBe("/");
    expect(safeReturnTo(bad)).toBe("/");
  });

  it("never returns anything a browser would resolve to another origin", () => {
    for (const bad of RETURN_TO_BYPASSES) {
      const back = safeReturnTo(bad, origin);
      expect(new URL(back, origin).origin).toBe(origin);
    }
  });

  it("sends sign-in pages home (no loop) and refuses what it cannot read", () => {
    expect(safeReturnTo("/auth/callback?code=x", origin)).toBe("/");
    expect(safeReturnTo(null)).toBe("/");
    expect(safeReturnTo(undefined)).toBe("/");
    expect(safeReturnTo("/" + "a".repeat(3000))).toBe("/");
  });
});
