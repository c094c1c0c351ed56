import { describe, expect, it } from "vitest";
import { roleFor } from "./credentials";

describe("roleFor", () => {
  it("prefers a per-cluster role over a per-region one", () => {
    const roles = ["eu-west-1=arn:aws:iam::111111111111:role/region", "prod-a=arn:aws:iam::222222222222:role/cluster"];
    expect(roleFor(roles, "prod-a", "eu-west-1")).toBe("arn:aws:iam::222222222222:role/cluster");
    expect(roleFor(roles, "prod-b", "eu-west-1")).toBe("arn:aws:iam::111111111111:role/region");
    expect(roleFor(roles, "prod-b", "us-east-1")).toBeNull();
    expect(roleFor(roles, null, "eu-west-1")).toBe("arn:aws:iam::111111111111:role/region");
  });
});
