import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { burnDown, campaignProgress, campaignSlug, parseCampaignForm, type CampaignClusterInput } from "./campaign";
import type { HistoryCluster } from "./fleet-history";
import { versionKnowledge } from "./known-version";

const now = new Date("2026-11-23T15:00:00Z");

function makeCluster(
  name: string,
  env: string | null,
  version: string | null,
  over: Partial<CampaignClusterInput> = {},
): CampaignClusterInput {
  return {
    name,
    env,
    team: "platform",
    region: "us-east-1",
    labels: {},
    knowledge: versionKnowledge(
      {
        reachability: version ? "reachable" : "pending",
        version,
        lastSuccessAt: now,
        lastErrorKind: null,
        lastError: null,
        eksAccess: true,
      },
      now,
    ),
    eksStatus: "ACTIVE",
    blockers: [],
    versionAtStart: version,
    ...over,
  };
}

describe("campaign input", () => {
  it("validates and defaults the waves to env: dev → staging → prod", () => {
    expect(parseCampaignForm({ name: "All on 1.35", targetVersion: "1.35", deadline: "2027-03-01", waveOrder: "" })).toEqual({
      name: "All on 1.35",
      targetVersion: "1.35",
      deadline: "2027-03-01",
      waveLabel: "env",
      waveOrder: ["dev", "staging", "prod"],
    });
    expect(
      parseCampaignForm({
        name: "Teams",
        targetVersion: "1.35",
        deadline: "2027-03-01",
        waveLabel: "team",
        waveOrder: "data, platform → payments",
      }).waveOrder,
    ).toEqual(["data", "platform", "payments"]);
    expect(() => parseCampaignForm({ name: "x", targetVersion: "latest", deadline: "soon" })).toThrow(ZodError);
    expect(campaignSlug("All clusters on 1.35 by 2027-03-01!")).toBe("all-clusters-on-1-35-by-2027-03-01");
  });
});

describe("campaign progress from what the collector observes", () => {
  const blocker = { kind: "removed-api" as const, title: "batch/v1beta1 CronJob is removed in 1.25", detail: "" };
  const clusters = [
    makeCluster("dev-1", "dev", "1.35"),
    makeCluster("dev-2", "dev", "1.34", { eksStatus: "UPDATING" }),
    makeCluster("stg-1", "staging", "1.34", { versionAtStart: "1.33" }), // moved since the start: upgrading
    makeCluster("stg-2", "staging", "1.27", { blockers: [blocker] }),
    makeCluster("prod-1", "prod", "1.34"),
    makeCluster("prod-2", "prod", null), // never reached: counted apart
    makeCluster("sandbox", null, "1.35"),
  ];
  const p = campaignProgress({ targetVersion: "1.35", waveLabel: "env", waveOrder: ["dev", "staging", "prod"] }, clusters);

  it("groups clusters in waves by the ordered label, the rest last", () => {
    expect(p.waves.map((w) => [w.value, w.clusters.map((c) => c.name)])).toEqual([
      ["dev", ["dev-2", "dev-1"]],
      ["staging", ["stg-2", "stg-1"]],
      ["prod", ["prod-2", "prod-1"]],
      [null, ["sandbox"]],
    ]);
  });

  it("per wave: done / upgrading / blocked (with the blockers) / not started, unknown apart", () => {
    expect(p.waves[0].counts).toMatchObject({ done: 1, upgrading: 1 });
    expect(p.waves[1].clusters.map((c) => [c.name, c.state, c.minorsToGo])).toEqual([
      ["stg-2", "blocked", 8],
      ["stg-1", "upgrading", 1],
    ]);
    expect(p.waves[1].clusters[0].blockers).toEqual([blocker]);
    expect(p.waves[2].clusters.map((c) => c.state)).toEqual(["unknown", "not-started"]);
    expect(p.counts).toEqual({ done: 2, upgrading: 2, blocked: 1, "not-started": 1, unknown: 1 });
    expect(p.total).toBe(7);
  });

  it("waves by any cluster label", () => {
    const byTier = campaignProgress({ targetVersion: "1.35", waveLabel: "tier", waveOrder: ["canary"] }, [
      makeCluster("a", "prod", "1.34", { labels: { tier: "canary" } }),
      makeCluster("b", "prod", "1.34"),
    ]);
    expect(byTier.waves.map((w) => [w.value, w.clusters.map((c) => c.name)])).toEqual([
      ["canary", ["a"]],
      [null, ["b"]],
    ]);
  });
});

describe("burn-down from the version history", () => {
  const h = (
    name: string,
    version: string | null,
    changes: [string, string, string][] = [],
    firstSeenAt = "2026-11-01T00:00:00Z",
  ): HistoryCluster => ({
    id: 0,
    name,
    env: null,
    team: null,
    region: null,
    firstSeenAt: new Date(firstSeenAt),
    goneAt: null,
    version,
    versionChanges: changes.map(([at, from, to]) => ({ at: new Date(at), from, to })),
    fluxVersion: null,
    fluxChanges: [],
  });
  it("counts clusters not yet on the target each day, with the ideal line from the campaign's start to the deadline", () => {
    const points = burnDown(
      [
        h("a", "1.35", [["2026-11-21T10:00:00Z", "1.34", "1.35"]]),
        h("b", "1.35", [["2026-11-22T10:00:00Z", "1.34", "1.35"]]),
        h("c", "1.34"),
        h("d", null, [], "2026-11-22T12:00:00Z"),
      ],
      { targetVersion: "1.35", deadline: "2026-11-27", createdAt: new Date("2026-11-21T09:00:00Z") },
      new Date("2026-11-20T00:00:00Z"),
      now,
    );
    expect(points.map((p) => [p.date, p.remaining, p.done, p.ideal])).toEqual([
      ["2026-11-20", 3, 0, null],
      ["2026-11-21", 2, 1, 2],
      ["2026-11-22", 2, 2, 1.7],
      ["2026-11-23", 2, 2, 1.3],
    ]);
  });
});
