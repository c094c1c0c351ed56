import { describe, expect, it } from "vitest";
import { NotFoundError } from "../errors";
import { hasMalformedEncoding, readRouteParams, routeParam } from "./route-params";

describe("routeParam", () => {
  it("keeps every name a cluster or Kubernetes object can have, as Next.js decoded it (never twice)", () => {
    for (const ok of [
      "prod-eu-1",
      "payments.txt",
      "flux-system",
      "a%41",
      "100%",
      "arn:aws:eks:eu-west-1:111122223333:cluster/prod",
      "ünïcode",
    ]) {
      expect(routeParam(ok)).toBe(ok);
    }
  });

  it("refuses what no name holds: NUL and other control characters, lone surrogates, overlong or empty values", () => {
    for (const bad of ["x\u0000", "\u0000", "a\tb", "a\nb", "a\u007fb", "a\ud800b", "", "a".repeat(513), undefined, ["a", "b"]]) {
      expect(routeParam(bad as string)).toBeNull();
    }
  });
});

describe("readRouteParams", () => {
  it("answers every param or a 404", async () => {
    expect(await readRouteParams(Promise.resolve({ cluster: "prod", name: "apps" }))).toEqual({ cluster: "prod", name: "apps" });
    await expect(readRouteParams(Promise.resolve({ cluster: "prod", name: "x\u0000" }))).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("hasMalformedEncoding", () => {
  it("spots percent sequences Next.js cannot decode, and nothing else", () => {
    for (const bad of [
      "/clusters/%FF",
      "/clusters/%C0%AF",
      "/clusters/%E2%82",
      "/clusters/%",
      "/clusters/%zz",
      "/api/objects/a/b/c/%ED%A0%80",
    ]) {
      expect(hasMalformedEncoding(bad), bad).toBe(true);
    }
    for (const ok of ["/", "/clusters/prod", "/clusters/a%2541", "/clusters/%E2%82%AC", "/clusters/x%00", "/clusters/a%20b"]) {
      expect(hasMalformedEncoding(ok), ok).toBe(false);
    }
  });
});
