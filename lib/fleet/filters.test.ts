import { describe, expect, it } from "vitest";
import { parseFailureFilters, parseFleetFilters, toQueryString } from "./filters";

describe("filters", () => {
  it("parses the fleet filters and drops unknown values", () => {
    expect(parseFleetFilters({ env: "prod", health: "bogus", q: "  eu ", team: ["a", "b"] })).toEqual({
      env: "prod",
      team: "a",
      region: undefined,
      health: undefined,
      q: "eu",
    });
  });
  it("parses failure filters from a query string", () => {
    expect(parseFailureFilters(new URLSearchParams("kind=helmrelease&problem=stalled&sort=clusters"))).toMatchObject({
      kind: "HelmRelease",
      problem: "stalled",
      sort: "clusters",
    });
    expect(parseFailureFilters({ kind: "Deployment" }).kind).toBeUndefined();
  });
  it("builds query strings", () => {
    expect(toQueryString({ env: "prod", team: undefined, q: "" })).toBe("?env=prod");
    expect(toQueryString({})).toBe("");
  });
});
