import { describe, expect, it } from "vitest";
import { clustersOfEvent, clustersOfPayload, concernsCluster, concernsClusterFilter, sseEvent } from "./changes";

describe("change events", () => {
  it("reads the collector's payload: names, deduplicated; '*' or nothing means anything", () => {
    expect(clustersOfPayload("a,b,a")).toEqual(["a", "b"]);
    expect(clustersOfPayload("a,*")).toEqual(["*"]);
    expect(clustersOfPayload("")).toEqual(["*"]);
  });

  it("round-trips through an event, and reads anything unreadable as anything changed", () => {
    expect(sseEvent("change", { clusters: ["a"] })).toBe('event: change\ndata: {"clusters":["a"]}\n\n');
    expect(clustersOfEvent('{"clusters":["a","b"]}')).toEqual(["a", "b"]);
    expect(clustersOfEvent("not json")).toEqual(["*"]);
    expect(clustersOfEvent('{"clusters":[]}')).toEqual(["*"]);
    expect(clustersOfEvent('{"clusters":[1]}')).toEqual(["*"]);
  });

  it("a cluster page cares about its own cluster and fleet-wide changes only", () => {
    expect(concernsCluster(["a", "b"], "b")).toBe(true);
    expect(concernsCluster(["*"], "b")).toBe(true);
    expect(concernsCluster(["a"], "b")).toBe(false);
  });

  it("failures filtered by cluster care about the clusters the filter matches (any case) and fleet-wide changes", () => {
    expect(concernsClusterFilter(["spoke-0007"], "spoke-0007")).toBe(true);
    expect(concernsClusterFilter(["hub", "Prod-EU-1"], "eu")).toBe(true);
    expect(concernsClusterFilter(["spoke-0008"], "spoke-0007")).toBe(false);
    expect(concernsClusterFilter(["*"], "spoke-0007")).toBe(true);
    // No filter: every change may add or clear a group.
    expect(concernsClusterFilter(["spoke-0008"], undefined)).toBe(true);
    expect(concernsClusterFilter(["spoke-0008"], "")).toBe(true);
  });
});
