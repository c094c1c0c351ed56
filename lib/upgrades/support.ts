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

/** The extra a cluster costs per month because it is in extended support now (0 otherwise). */
export function monthlyExtendedSupportCostUSD(input: CostInput): number {
  return input.support?.inExtendedSupport ? EXTRA_USD_PER_CLUSTER_MONTH : 0;
}

/**
 * Will the cluster start paying extended support within the horizon? Only clusters whose policy lets
 * them enter extended support: with supportType STANDARD, EKS upgrades the control plane instead.
 */
export function crossesIntoExtendedSoon(input: CostInput, horizonDays = EXPOSURE_HORIZON_DAYS): boolean {
  const s = input.support;
  if (!s || s.versionStatus !== "STANDARD_SUPPORT" || s.daysToEndOfStandardSupport == null) return false;
  if ((input.supportType ?? "EXTENDED").toUpperCase() === "STANDARD") return false;
  return s.daysToEndOfStandardSupport <= horizonDays;
}

export interface FleetCost {
  clustersInExtendedSupport: number;
  extraPerMonthUSD: number;
  extraPerYearUSD: number;
  /** Clusters that cross the end-of-standard date within the horizon. */
  clustersCrossingSoon: number;
  /** The extra per month / year once those clusters have crossed, on top of today's. */
  crossingExtraPerMonthUSD: number;
  crossingExtraPerYearUSD: number;
  horizonDays: number;
}

export function fleetCost(clusters: readonly CostInput[], horizonDays = EXPOSURE_HORIZON_DAYS): FleetCost {
  const inExtended = clusters.filter((c) => c.support?.inExtendedSupport).length;
  const crossing = clusters.filter((c) => crossesIntoExtendedSoon(c, horizonDays)).length;
  return {
    clustersInExtendedSupport: inExtended,
    extraPerMonthUSD: inExtended * EXTRA_USD_PER_CLUSTER_MONTH,
    extraPerYearUSD: inExtended * EXTRA_USD_PER_CLUSTER_YEAR,
    clustersCrossingSoon: crossing,
    crossingExtraPerMonthUSD: crossing * EXTRA_USD_PER_CLUSTER_MONTH,
    crossingExtraPerYearUSD: crossing * EXTRA_USD_PER_CLUSTER_YEAR,
    horizonDays,
  };
}
