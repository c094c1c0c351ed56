// EKS control-plane support: status, deadlines and the extended-support cost a cluster runs up.
import {
  calendarEntry,
  EXTENDED_SUPPORT_USD_PER_HOUR,
  HOURS_PER_MONTH,
  HOURS_PER_YEAR,
  STANDARD_SUPPORT_USD_PER_HOUR,
} from "./eks-calendar";
import { kubernetesMinor } from "./versions";

export type VersionStatus = "STANDARD_SUPPORT" | "EXTENDED_SUPPORT" | "UNSUPPORTED";

/** One DescribeClusterVersions entry as stored (dates may be missing). */
export interface ClusterVersionInfo {
  clusterVersion: string;
  versionStatus?: string | null;
  releaseDate?: Date | string | null;
  endOfStandardSupportDate?: Date | string | null;
  endOfExtendedSupportDate?: Date | string | null;
}

export interface SupportInfo {
  version: string;
  versionStatus: VersionStatus | null;
  endOfStandardSupport: string | null;
  endOfExtendedSupport: string | null;
  /** Whole UTC calendar days from today to the end-of-standard date (0 on the day itself, negative after). */
  daysToEndOfStandardSupport: number | null;
  daysToEndOfExtendedSupport: number | null;
  inExtendedSupport: boolean;
  /** Past end of extended support: EKS upgrades the control plane itself; due since endOfExtendedSupport. */
  pastExtendedSupport: boolean;
  /** Where the dates came from. */
  source: "eks-api" | "calendar" | "none";
}

const DAY_MS = 86_400_000;

function toDate(value: Date | string | null | undefined): Date | null {
  if (value == null) return null;
  const d = value instanceof Date ? value : new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Days between the UTC calendar days of two instants (to − from). */
export function utcDaysBetween(from: Date, to: Date): number {
  const day = (d: Date) => Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) / DAY_MS);
  return day(to) - day(from);
}

/** Status at `now` from the dates: standard until 00:00 UTC of the end-of-standard day, then extended. */
export function statusAt(endOfStandard: Date, endOfExtended: Date | null, now: Date): VersionStatus {
  if (now.getTime() < endOfStandard.getTime()) return "STANDARD_SUPPORT";
  if (endOfExtended && now.getTime() >= endOfExtended.getTime()) return "UNSUPPORTED";
  return "EXTENDED_SUPPORT";
}

function asStatus(value: string | null | undefined): VersionStatus | null {
  const v = value?.toUpperCase().replace(/-/g, "_");
  return v === "STANDARD_SUPPORT" || v === "EXTENDED_SUPPORT" || v === "UNSUPPORTED" ? v : null;
}

/**
 * Support of a control-plane version at `now`. Dates come from DescribeClusterVersions when the collector
 * stored them, else from the built-in calendar. The status follows the dates at `now` (the stored
 * versionStatus may be up to a day old); the stored status is used only when there are no dates.
 */
export function supportInfo(
  version: string | null | undefined,
  apiInfo: ClusterVersionInfo | null | undefined,
  now: Date,
): SupportInfo | null {
  const minor = kubernetesMinor(version);
  if (!minor) return null;
  const calendar = calendarEntry(minor);
  const apiStandard = toDate(apiInfo?.endOfStandardSupportDate);
  const source: SupportInfo["source"] = apiStandard ? "eks-api" : calendar ? "calendar" : "none";
  const endStd = apiStandard ?? toDate(calendar?.endOfStandardSupport);
  const endExt = toDate(apiInfo?.endOfExtendedSupportDate) ?? (source === "calendar" ? toDate(calendar?.endOfExtendedSupport) : null);
  const versionStatus = endStd ? statusAt(endStd, endExt, now) : asStatus(apiInfo?.versionStatus);
  return {
    version: minor,
    versionStatus,
    endOfStandardSupport: endStd?.toISOString() ?? null,
    endOfExtendedSupport: endExt?.toISOString() ?? null,
    daysToEndOfStandardSupport: endStd ? utcDaysBetween(now, endStd) : null,
    daysToEndOfExtendedSupport: endExt ? utcDaysBetween(now, endExt) : null,
    inExtendedSupport: versionStatus === "EXTENDED_SUPPORT",
    pastExtendedSupport: versionStatus === "UNSUPPORTED",
    source,
  };
}

// ---------------------------------------------------------------------------------------------
// Cost

/** What extended support adds per cluster-hour over standard support ($0.60 − $0.10). */
export const EXTRA_USD_PER_CLUSTER_HOUR = Math.round((EXTENDED_SUPPORT_USD_PER_HOUR - STANDARD_SUPPORT_USD_PER_HOUR) * 100) / 100;
/** $365 per cluster per month (730 h). */
export const EXTRA_USD_PER_CLUSTER_MONTH = EXTRA_USD_PER_CLUSTER_HOUR * HOURS_PER_MONTH;
/** $4,380 per cluster per year (8,760 h). */
export const EXTRA_USD_PER_CLUSTER_YEAR = EXTRA_USD_PER_CLUSTER_HOUR * HOURS_PER_YEAR;

/** How many days ahead the cost exposure looks for clusters about to cross into extended support. */
export const EXPOSURE_HORIZON_DAYS = 90;

export interface CostInput {
  support: SupportInfo | null;
  /** upgradePolicy.supportType: EXTENDED (AWS default when unset) or STANDARD (auto-upgrade at end of standard). */
  supportType: string | null | undefined;
}

/**
 * Billed at the extended-support rate now: in extended support, or past its end and waiting for the
 * automatic upgrade (which lands on the oldest version still in extended support, billed the same).
 */
export function billedAsExtended(support: SupportInfo | null | undefined): boolean {
  return !!support && (support.inExtendedSupport || support.pastExtendedSupport);
}

/** The extra a cluster costs per month because it is billed as extended support now (0 otherwise). */
export function monthlyExtendedSupportCostUSD(input: CostInput): number {
  return billedAsExtended(input.support) ? EXTRA_USD_PER_CLUSTER_MONTH : 0;
}

/**
 * Will the cluster start paying extended support within the horizon? Only clusters whose policy lets
 * them enter extended support: with supportType STANDARD, EKS upgrades the control plane instead.
 */
export function crossesIntoExtendedSoon(input: CostInput, horizonDays = EXPOSURE_HORIZON_DAYS): boolean {
  const s = input.support;
  if (!s || s.versionStatus !== "STANDARD_SUPPORT" || s.daysToEndOfStandardSupport == null) return false;
  if (autoUpgradedAtEndOfStandard(input)) return false;
  return s.daysToEndOfStandardSupport <= horizonDays;
}

/** supportType STANDARD: at the end of standard support EKS upgrades the cluster instead of billing it. */
export function autoUpgradedAtEndOfStandard(input: CostInput): boolean {
  return (input.supportType ?? "EXTENDED").toUpperCase() === "STANDARD";
}

const HOUR_MS = 3_600_000;

/**
 * The extra extended support costs if the cluster stays on its version until `until`: from 00:00 UTC of
 * its end-of-standard date (accrued, past hours included) and from `now` (what is still to come). Zero
 * when the cluster's policy makes EKS upgrade it at the end of standard support and it has not passed
 * that date yet; a cluster already past it is billed whatever its policy says.
 */
export function extendedCostUntil(input: CostInput, until: Date, now: Date): { accruedUSD: number; fromNowUSD: number } | null {
  const s = input.support;
  if (!s?.endOfStandardSupport) return null;
  const endStd = new Date(s.endOfStandardSupport).getTime();
  if (s.versionStatus === "STANDARD_SUPPORT" && autoUpgradedAtEndOfStandard(input)) return { accruedUSD: 0, fromNowUSD: 0 };
  const hours = (from: number) => Math.max(0, (until.getTime() - from) / HOUR_MS);
  return {
    accruedUSD: round2(hours(endStd) * EXTRA_USD_PER_CLUSTER_HOUR),
    fromNowUSD: round2(hours(Math.max(endStd, now.getTime())) * EXTRA_USD_PER_CLUSTER_HOUR),
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface FleetCost {
  clustersInExtendedSupport: number;
  /** Past end of extended support, waiting for EKS to upgrade them (billed as extended meanwhile). */
  clustersPastExtendedSupport: number;
  /** Extra per month / year now, for clusters in extended support or past it. */
  extraPerMonthUSD: number;
  extraPerYearUSD: number;
  /** Clusters that cross the end-of-standard date within the horizon. */
  clustersCrossingSoon: number;
  /** The extra per month / year once those clusters have crossed, on top of today's. */
  crossingExtraPerMonthUSD: number;
  crossingExtraPerYearUSD: number;
  horizonDays: number;
}

/** Sums the clusters given: the caller leaves out those whose version is unknown and counts them apart. */
export function fleetCost(clusters: readonly CostInput[], horizonDays = EXPOSURE_HORIZON_DAYS): FleetCost {
  const inExtended = clusters.filter((c) => c.support?.inExtendedSupport).length;
  const past = clusters.filter((c) => c.support?.pastExtendedSupport).length;
  const crossing = clusters.filter((c) => crossesIntoExtendedSoon(c, horizonDays)).length;
  return {
    clustersInExtendedSupport: inExtended,
    clustersPastExtendedSupport: past,
    extraPerMonthUSD: (inExtended + past) * EXTRA_USD_PER_CLUSTER_MONTH,
    extraPerYearUSD: (inExtended + past) * EXTRA_USD_PER_CLUSTER_YEAR,
    clustersCrossingSoon: crossing,
    crossingExtraPerMonthUSD: crossing * EXTRA_USD_PER_CLUSTER_MONTH,
    crossingExtraPerYearUSD: crossing * EXTRA_USD_PER_CLUSTER_YEAR,
    horizonDays,
  };
}
