// A DescribeCluster answer for tests: an active cluster in eu-west-1, with what a test cares about given.
import type { EksClusterInfo } from "./eks";

export function eksClusterInfo(name: string, overrides: Partial<EksClusterInfo> = {}): EksClusterInfo {
  return {
    name,
    arn: `arn:aws:eks:eu-west-1:111122223333:cluster/${name}`,
    region: "eu-west-1",
    accountId: "111122223333",
    endpoint: `https://${name}.example`,
    caData: null,
    version: "1.31",
    platformVersion: "eks.7",
    status: "ACTIVE",
    supportType: "STANDARD",
    health: [],
    tags: {},
    ...overrides,
  };
}
