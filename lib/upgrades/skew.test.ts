import { describe, expect, it } from "vitest";
import { kubeletGroupsFromCounts, skewReport } from "./skew";

describe("kubelet skew", () => {
  it.each([
    // control plane, kubelet, behind now, behind next, violates now, blocks next
    ["1.33", "v1.33.4-eks-1", 0, 1, false, false],
    ["1.33", "v1.32.9-eks-1", 1, 2, false, false],
    ["1.33", "v1.31.1-eks-1", 2, 3, false, false], // N-2: allowed before N→N+1
    ["1.33", "v1.30.14-eks-1", 3, 4, false, true], // legal today, blocks the upgrade
    ["1.33", "v1.29.0", 4, 5, true, true],
    ["1.33", "v1.34.1-eks-1", -1, 0, true, false], // newer than the API server
    ["v1.33.4-eks-3025e55", "1.33.5-20261110", 0, 1, false, false], // AMI release version
  ])("cp %s, kubelet %s", (cp, kubelet, behindNow, behindNext, violatesNow, blocksNext) => {
    const r = skewReport(cp, [{ source: "ng", version: kubelet, nodes: 2 }])!;
    expect(r.groups[0]).toMatchObject({ behindNow, behindNext, violatesNow, blocksNext });
    expect(r.minimumForNext).toBe("1.31");
  });
  it("reads stored kubelet counts and reports the largest skew", () => {
    const groups = kubeletGroupsFromCounts({ "v1.33.4-eks-1": 3, "v1.32.9-eks-1": 2, bogus: 1 });
    expect(groups).toHaveLength(2);
    const r = skewReport("1.33", groups)!;
    expect(r).toMatchObject({ controlPlane: "1.33", next: "1.34", maxBehindNow: 1, maxBehindNext: 2 });
    expect(kubeletGroupsFromCounts(null)).toEqual([]);
    expect(skewReport("n/a", groups)).toBeNull();
  });
});
