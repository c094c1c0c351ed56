import { describe, expect, it } from "vitest";
import {
  crossesIntoExtendedSoon,
  extendedCostUntil,
  EXTRA_USD_PER_CLUSTER_HOUR,
  EXTRA_USD_PER_CLUSTER_MONTH,
  EXTRA_USD_PER_CLUSTER_YEAR,
  fleetCost,
  monthlyExtendedSupportCostUSD,
  supportInfo,
  utcDaysBetween,
} from "./support";

const at = (iso: string) => new Date(iso);

describe("supportInfo from the built-in calendar", () => {
  // 1.31: end of standard 2025-11-26, end of extended 2026-11-26
  it.each([
    ["2025-11-25T23:59:59.999Z", "STANDARD_SUPPORT", 1, false],
    ["2025-11-26T00:00:00.000Z", "EXTENDED_SUPPORT", 0, true], // midnight UTC: billing starts
    ["2025-11-26T12:00:00.000Z", "EXTENDED_SUPPORT", 0, true],
    ["2026-11-21T20:00:00.000Z", "EXTENDED_SUPPORT", -360, true],
    ["2026-11-25T23:59:59.999Z", "EXTENDED_SUPPORT", -364, true],
    ["2026-11-26T00:00:00.000Z", "UNSUPPORTED", -365, false],
  ])("1.31 at %s → %s, %d days", (now, status, days, extended) => {
    const s = supportInfo("v1.31.14-eks-9a1f3d2", null, at(now))!;
    expect(s).toMatchObject({
      version: "1.31",
      versionStatus: status,
      daysToEndOfStandardSupport: days,
      inExtendedSupport: extended,
      source: "calendar",
    });
    expect(s.endOfStandardSupport).toBe("2025-11-26T00:00:00.000Z");
    expect(s.endOfExtendedSupport).toBe("2026-11-26T00:00:00.000Z");
  });

  it("counts whole UTC days, not 24-hour periods", () => {
    expect(utcDaysBetween(at("2026-11-21T23:59:00Z"), at("2026-11-22T00:00:00Z"))).toBe(1);
    expect(utcDaysBetween(at("2026-11-21T00:00:00Z"), at("2026-11-21T23:59:59Z"))).toBe(0);
    expect(supportInfo("1.34", null, at("2026-11-21T20:00:00Z"))!.daysToEndOfStandardSupport).toBe(11);
  });

  it("prefers dates from DescribeClusterVersions", () => {
    const s = supportInfo(
      "1.33",
      {
        clusterVersion: "1.33",
        versionStatus: "STANDARD_SUPPORT",
        endOfStandardSupportDate: "2026-08-01T00:00:00Z",
        endOfExtendedSupportDate: "2027-08-01T00:00:00Z",
      },
      at("2026-07-30T00:00:00Z"),
    )!;
    expect(s).toMatchObject({ source: "eks-api", versionStatus: "STANDARD_SUPPORT", daysToEndOfStandardSupport: 2 });
  });

  it("uses the stored status only when no date is known", () => {
    const s = supportInfo("1.40", { clusterVersion: "1.40", versionStatus: "extended-support" }, at("2026-01-01T00:00:00Z"))!;
    expect(s).toMatchObject({
      source: "none",
      versionStatus: "EXTENDED_SUPPORT",
      inExtendedSupport: true,
      daysToEndOfStandardSupport: null,
    });
    expect(supportInfo("garbage", null, at("2026-01-01T00:00:00Z"))).toBeNull();
  });
});

describe("extended-support cost", () => {
  const now = at("2026-11-21T20:00:00Z");
  it("extra per cluster: $0.50/h, $365/month, $4,380/year", () => {
    expect(EXTRA_USD_PER_CLUSTER_HOUR).toBe(0.5);
    expect(EXTRA_USD_PER_CLUSTER_MONTH).toBe(365);
    expect(EXTRA_USD_PER_CLUSTER_YEAR).toBe(4380);
  });
  it.each([
    ["1.31", "EXTENDED", 365, false], // in extended support now
    ["1.31", "STANDARD", 365, false], // billed while it is in extended, whatever the preference
    ["1.34", "EXTENDED", 0, true], // ends standard in 11 days
    ["1.34", null, 0, true], // unset policy = EXTENDED (AWS default)
    ["1.34", "STANDARD", 0, false], // will be auto-upgraded instead
    ["1.35", "EXTENDED", 0, false], // 126 days away
  ])("%s with supportType %s → $%d/month now, crosses soon: %s", (version, supportType, monthly, soon) => {
    const input = { support: supportInfo(version, null, now), supportType };
    expect(monthlyExtendedSupportCostUSD(input)).toBe(monthly);
    expect(crossesIntoExtendedSoon(input)).toBe(soon);
  });
  it("fleet totals now and for clusters crossing within 90 days", () => {
    const fleet = ["1.31", "1.32", "1.33", "1.34", "1.34", "1.35"].map((v) => ({
      support: supportInfo(v, null, now),
      supportType: "EXTENDED",
    }));
    expect(fleetCost(fleet)).toEqual({
      clustersInExtendedSupport: 3,
      clustersPastExtendedSupport: 0,
      extraPerMonthUSD: 1095,
      extraPerYearUSD: 13140,
      clustersCrossingSoon: 2,
      crossingExtraPerMonthUSD: 730,
      crossingExtraPerYearUSD: 8760,
      horizonDays: 90,
    });
  });
});

describe("versions older than 1.28", () => {
  const now = at("2026-11-23T12:00:00Z");
  it.each([
    ["1.23", "2023-10-11", "2024-10-11"],
    ["1.24", "2024-01-31", "2025-01-31"],
    ["1.25", "2024-05-01", "2025-05-01"],
    ["1.26", "2024-06-11", "2025-06-11"],
    ["1.27", "2024-07-24", "2025-07-24"],
  ])("%s is known to the calendar and past end of extended support", (version, endStd, endExt) => {
    const s = supportInfo(version, null, now)!;
    expect(s).toMatchObject({
      source: "calendar",
      versionStatus: "UNSUPPORTED",
      pastExtendedSupport: true,
      inExtendedSupport: false,
      endOfStandardSupport: `${endStd}T00:00:00.000Z`,
      endOfExtendedSupport: `${endExt}T00:00:00.000Z`,
    });
  });
  it("a cluster past end of extended support is still a cost: billed as extended support until EKS upgrades it", () => {
    const old = { support: supportInfo("1.27", null, now), supportType: "EXTENDED" };
    expect(monthlyExtendedSupportCostUSD(old)).toBe(365);
    expect(fleetCost([old, { support: supportInfo("1.35", null, now), supportType: null }])).toMatchObject({
      clustersInExtendedSupport: 0,
      clustersPastExtendedSupport: 1,
      extraPerMonthUSD: 365,
    });
  });
});

describe("extended-support cost up to a date", () => {
  const now = at("2026-11-23T00:00:00Z");
  const until = at("2027-02-21T00:00:00Z"); // 90 days later
  it("accrues $0.50 an hour from 00:00 UTC of the end-of-standard date, and says how much is still to come", () => {
    // 1.34 ends standard support 2026-12-02: 81 days × 24 h × $0.50 before the date
    expect(extendedCostUntil({ support: supportInfo("1.34", null, now), supportType: "EXTENDED" }, until, now)).toEqual({
      accruedUSD: 972,
      fromNowUSD: 972,
    });
    // 1.31 has been in extended support since 2025-11-26: 452 days accrued, 90 of them still to come
    expect(extendedCostUntil({ support: supportInfo("1.31", null, now), supportType: "EXTENDED" }, until, now)).toEqual({
      accruedUSD: 452 * 12,
      fromNowUSD: 90 * 12,
    });
  });
  it("nothing for a cluster EKS upgrades at the end of standard support, nor before the end-of-standard date", () => {
    expect(extendedCostUntil({ support: supportInfo("1.34", null, now), supportType: "STANDARD" }, until, now)).toEqual({
      accruedUSD: 0,
      fromNowUSD: 0,
    });
    expect(extendedCostUntil({ support: supportInfo("1.35", null, now), supportType: null }, until, now)).toEqual({
      accruedUSD: 0,
      fromNowUSD: 0,
    });
    expect(extendedCostUntil({ support: null, supportType: null }, until, now)).toBeNull();
  });
});
