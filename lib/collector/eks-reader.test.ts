import type pg from "pg";
import { describe, expect, it } from "vitest";
import type { EksApi } from "../aws/eks";
import { eksClusterInfo } from "../aws/eks.testing";
import { logger } from "../logger";
import { EksReader, isDue } from "./eks-reader";

describe("isDue", () => {
  const interval = 300_000;
  it("reads a cluster never read, and again once most of the interval has passed", () => {
    expect(isDue(undefined, interval, 0)).toBe(true);
    expect(isDue(1_000_000, interval, 1_000_000 + 60_000)).toBe(false);
    expect(isDue(1_000_000, interval, 1_000_000 + 269_000)).toBe(false);
    // A timer running every 300 s asks a little less than 300 s after the read it caused: still due.
    expect(isDue(1_000_000, interval, 1_000_000 + 295_000)).toBe(true);
    expect(isDue(1_000_000, interval, 1_000_000 + 300_000)).toBe(true);
  });
});

describe("EksReader.clusterNames", () => {
  const reader = (intervalSeconds: number) =>
    new EksReader({} as pg.Pool, {
      aws: null,
      regions: [],
      timeoutMs: 1_000,
      intervalSeconds,
      onRequest: () => undefined,
      onDescribeFailed: () => undefined,
      log: logger,
    });

  it("lists a region once per EKS interval, and again at once after a failed list", async () => {
    let calls = 0;
    let fail = false;
    const api = {
      region: "eu-west-1",
      listClusters: async () => {
        calls++;
        if (fail) throw new Error("throttled");
        return [`c${calls}`];
      },
    };
    const hourly = reader(3600);
    expect(await hourly.clusterNames(api)).toEqual(["c1"]);
    expect(await hourly.clusterNames(api)).toEqual(["c1"]); // within the interval: the last answer
    expect(calls).toBe(1);

    const always = reader(0); // an interval already passed: every call lists
    fail = true;
    await expect(always.clusterNames(api)).rejects.toThrow("throttled");
    fail = false;
    expect(await always.clusterNames(api)).toEqual(["c3"]);
    expect(await always.clusterNames(api)).toEqual(["c4"]);
    // Regions are kept apart.
    expect(await hourly.clusterNames({ ...api, region: "us-east-1" })).toEqual(["c5"]);
  });
});

describe("EksReader.describe", () => {
  it("keeps an unchanged answer's object when it reads again, and hands over a changed one", async () => {
    const reader = new EksReader({} as pg.Pool, {
      aws: null,
      regions: [],
      timeoutMs: 1_000,
      intervalSeconds: 300,
      onRequest: () => undefined,
      onDescribeFailed: () => undefined,
      log: logger,
    });
    let version = "1.31";
    let calls = 0;
    const api = {
      region: "eu-west-1",
      describeCluster: async () => {
        calls++;
        return eksClusterInfo("prod-1", { version }); // a new object on every call, as the SDK's answers are
      },
    } as unknown as EksApi;
    const first = await reader.describe(api, "prod-1", 0);
    const again = await reader.describe(api, "prod-1", 0);
    expect(calls).toBe(2);
    expect(again).toBe(first); // read again, equal: the same object (discovery compares by identity)
    version = "1.32";
    const upgraded = await reader.describe(api, "prod-1", 0);
    expect(upgraded).not.toBe(first);
    expect(upgraded.version).toBe("1.32");
    expect(await reader.describe(api, "prod-1")).toBe(upgraded); // within its age: from the cache, no call
    expect(calls).toBe(3);
  });
});
