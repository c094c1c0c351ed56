import { describe, expect, it } from "vitest";
import { groupsFromClaims, roleAtLeast, roleFromGroups } from "./roles";

const mapping = { adminGroups: ["ops-admins"], operatorGroups: ["oncall"], viewerGroups: ["eng"] };

describe("roleFromGroups", () => {
  it("grants the highest role any group maps to", () => {
    expect(roleFromGroups(["eng", "oncall"], mapping)).toBe("operator");
    expect(roleFromGroups(["oncall", "ops-admins"], mapping)).toBe("admin");
    expect(roleFromGroups(["eng"], mapping)).toBe("viewer");
  });
  it("refuses users in no allowed group when viewer groups are configured", () => {
    expect(roleFromGroups(["marketing"], mapping)).toBeNull();
    expect(roleFromGroups([], mapping)).toBeNull();
  });
  it("makes every signed-in user a viewer when no viewer groups are configured", () => {
    expect(roleFromGroups([], { ...mapping, viewerGroups: [] })).toBe("viewer");
  });
});

describe("groupsFromClaims", () => {
  it("reads arrays, single strings and dotted paths", () => {
    expect(groupsFromClaims({ groups: ["a", 3, "b"] }, "groups")).toEqual(["a", "b"]);
    expect(groupsFromClaims({ roles: "a" }, "roles")).toEqual(["a"]);
    expect(groupsFromClaims({ realm_access: { roles: ["x"] } }, "realm_access.roles")).toEqual(["x"]);
    expect(groupsFromClaims({ "cognito:groups": ["c"] }, "cognito:groups")).toEqual(["c"]);
    expect(groupsFromClaims({}, "groups")).toEqual([]);
  });
});

it("orders roles viewer < operator < admin", () => {
  expect(roleAtLeast("admin", "operator")).toBe(true);
  expect(roleAtLeast("operator", "operator")).toBe(true);
  expect(roleAtLeast("viewer", "operator")).toBe(false);
});
