import { describe, expect, it } from "vitest";
import { answerDeadline, deadlineCsv, deadlineDate, parseDeadlineQuery, type DeadlineInput } from "./deadline";
import { versionKnowledge } from "./known-version";
import { supportInfo } from "./support";

const now = new Date("2026-11-23T15:00:00Z");

function makeCluster(name: string, version: string | null, over: Partial<DeadlineInput> & { reachable?: boolean } = {}): DeadlineInput {
  const { reachable = true, ...rest } = over;
  const knowledge = versionKnowledge(
    {
      reachability: reachable ? "reachable" : version ? "unreachable" : "pending",
      version,
      lastSuccessAt: reachable ? now : version ? "2026-11-23T12:00:00Z" : null,
      lastErrorKind: reachable ? null : "timeout",
      lastError: null,
      eksAccess: true,
    },
    now,
  );
  return {
    name,
    env: "prod",
    team: "payments",
    region: "us-east-1",
    knowledge,
    support: knowledge.version ? supportInfo(knowledge.version, null, now) : null,
    supportType: "EXTENDED",
    ...rest,
  };
}

const fleet: DeadlineInput[] = [
  makeCluster("old", "1.27", { env: "staging" }), // past end of extended support since 2025-07-24
  makeCluster("ext", "1.31", { team: "search" }), // extended until 2026-11-26
  makeCluster("soon", "1.34"), // standard ends 2026-12-02
  makeCluster("auto", "1.34", { supportType: "STANDARD", team: "search" }), // EKS upgrades it on 2026-12-02
  makeCluster("fine", "1.35"), // standard until 2027-03-27
  makeCluster("dark", "1.34", { reachable: false }), // last known 1.34, 3 h old
  makeCluster("never", null, { reachable: false, env: "dev" }), // never reached
];

describe("which clusters must be upgraded before a date, and what it costs if not", () => {
  it("defaults to 90 days from today and reads a shareable query string", () => {
    expect(deadlineDate(parseDeadlineQuery({}).query, now).toISOString()).toBe("2027-02-21T00:00:00.000Z");
    expect(parseDeadlineQuery(new URLSearchParams("by=2027-01-01&env=prod")).query).toEqual({ by: "2027-01-01", env: "prod" });
    expect(parseDeadlineQuery({ by: "next tuesday" }).error).toContain("by: expected YYYY-MM-DD");
  });

  const a = answerDeadline(fleet, {}, now);

  it("lists clusters whose standard support ends before it, those EKS upgrades itself, and those we cannot see", () => {
    expect(a.date).toBe("2027-02-21");
    expect(a.rows.map((r) => r.name)).toEqual(["old", "ext", "auto", "soon", "dark", "never"]);
    expect(a.rows.find((r) => r.name === "old")).toMatchObject({
      autoUpgradeAt: "2025-07-24T00:00:00.000Z",
      autoUpgradeBefore: true,
      autoUpgradeOverdue: true,
    });
    expect(a.rows.find((r) => r.name === "auto")).toMatchObject({ autoUpgradeAt: "2026-12-02T00:00:00.000Z", accruedUSD: 0 });
    expect(a.rows.find((r) => r.name === "dark")).toMatchObject({ versionSource: "last-known", countedApart: true, accruedUSD: 972 });
    expect(a.rows.find((r) => r.name === "never")).toMatchObject({ version: null, versionWhy: "never reached yet", countedApart: true });
  });

  it("sums the extra cost from each end-of-standard date, never counting an unknown cluster as $0", () => {
    // old: 2024-07-24 → 2027-02-21 = 942 days; ext: 2025-11-26 → 452 days; soon: 81 days (× 24 h × $0.50)
    expect(a.totals).toEqual({
      clusters: 6,
      standardEndsBefore: 5, // old, ext, auto, soon, dark (never has no dates)
      autoUpgradeBefore: 3, // old (overdue), ext (2026-11-26), auto
      accruedUSD: (942 + 452 + 81) * 12,
      fromNowUSD: 2 * 1072.5 + 81 * 12, // old and ext from now (15:00) on: 89 days and 9 hours each
      unknownCost: 2,
    });
  });

  it("totals per env and team, and filters", () => {
    expect(a.byEnv.map((g) => [g.key, g.clusters, g.accruedUSD, g.unknownCost])).toEqual([
      ["staging", 1, 942 * 12, 0],
      ["prod", 4, (452 + 81) * 12, 1],
      ["dev", 1, 0, 1],
    ]);
    expect(a.byTeam.map((g) => g.key)).toEqual(["payments", "search"]);
    const prod = answerDeadline(fleet, { env: "prod", team: "search" }, now);
    expect(prod.rows.map((r) => r.name)).toEqual(["ext", "auto"]);
    expect(prod.considered).toBe(2);
  });

  it("exports exactly what is shown as CSV", () => {
    const lines = deadlineCsv(a).trimEnd().split("\r\n");
    expect(lines).toHaveLength(1 + 6 + 1);
    expect(lines[1]).toBe(
      "old,staging,payments,us-east-1,1.27,observed,,,2024-07-24,2025-07-24,EXTENDED,yes,due since 2025-07-24,11304,1072.5,no",
    );
    expect(lines.at(-1)).toContain("total (6 clusters; 2 of unknown cost not summed)");
  });
});
