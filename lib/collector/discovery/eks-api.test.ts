import { describe, expect, it } from "vitest";
import { candidateFromEks } from "./eks-api";

describe("discovery through the EKS API", () => {
  it("takes the ARN, account and endpoint from DescribeCluster and env/team from its tags", () => {
    const c = candidateFromEks("prod-a", "eu-west-1", {
      name: "prod-a",
      region: "eu-west-1",
      caData: null,
      version: "1.34",
      platformVersion: "eks.9",
      status: "ACTIVE",
      supportType: "STANDARD",
      health: [],
      arn: "arn:aws:eks:eu-west-1:123456789012:cluster/prod-a",
      accountId: "123456789012",
      endpoint: "https://ABC.gr7.eu-west-1.eks.amazonaws.com",
      tags: { environment: "prod", team: "payments" },
    });
    expect(c).toMatchObject({
      name: "prod-a",
      via: "eks",
      path: { via: "eks", region: "eu-west-1" },
      eksArn: "arn:aws:eks:eu-west-1:123456789012:cluster/prod-a",
      eksName: "prod-a",
      region: "eu-west-1",
      env: "prod",
      team: "payments",
    });
  });
});
