// Amazon EKS Kubernetes version calendar (dates UTC), from the Amazon EKS User Guide, "Understand the
// Kubernetes version lifecycle on EKS" (https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html),
// release calendar: 1.29–1.34 as the page lists them today; 1.23–1.27 as the same page published them while
// those versions were supported (AWS no longer lists them, but fleets still hold clusters on them); 1.28 and
// 1.35 as endoflife.date (https://endoflife.date/amazon-eks) records them.
//
// The collector stores DescribeClusterVersions in eks_version; this table is the fallback when that is
// missing (no EKS access, a version AWS no longer lists) and the test data. Each date is the day at 00:00
// UTC: extended support is billed from 00:00 UTC on the end-of-standard-support date. The table ends where
// it ends: a newer version is known from DescribeClusterVersions or from a cluster that runs it, never
// ruled out because it is missing here (see nextVersionOf).

export interface EksCalendarEntry {
  version: string;
  /** Amazon EKS release date. */
  releaseDate: string;
  endOfStandardSupport: string;
  endOfExtendedSupport: string;
}

export const EKS_CALENDAR: readonly EksCalendarEntry[] = [
  { version: "1.23", releaseDate: "2022-08-11", endOfStandardSupport: "2023-10-11", endOfExtendedSupport: "2024-10-11" },
  { version: "1.24", releaseDate: "2022-11-15", endOfStandardSupport: "2024-01-31", endOfExtendedSupport: "2025-01-31" },
  { version: "1.25", releaseDate: "2023-02-21", endOfStandardSupport: "2024-05-01", endOfExtendedSupport: "2025-05-01" },
  { version: "1.26", releaseDate: "2023-04-11", endOfStandardSupport: "2024-06-11", endOfExtendedSupport: "2025-06-11" },
  { version: "1.27", releaseDate: "2023-05-24", endOfStandardSupport: "2024-07-24", endOfExtendedSupport: "2025-07-24" },
  { version: "1.28", releaseDate: "2023-09-26", endOfStandardSupport: "2024-11-26", endOfExtendedSupport: "2025-11-26" },
  { version: "1.29", releaseDate: "2024-01-23", endOfStandardSupport: "2025-03-23", endOfExtendedSupport: "2026-03-23" },
  { version: "1.30", releaseDate: "2024-05-23", endOfStandardSupport: "2025-07-23", endOfExtendedSupport: "2026-07-23" },
  { version: "1.31", releaseDate: "2024-09-26", endOfStandardSupport: "2025-11-26", endOfExtendedSupport: "2026-11-26" },
  { version: "1.32", releaseDate: "2025-01-23", endOfStandardSupport: "2026-03-23", endOfExtendedSupport: "2027-03-23" },
  { version: "1.33", releaseDate: "2025-05-29", endOfStandardSupport: "2026-07-29", endOfExtendedSupport: "2027-07-29" },
  { version: "1.34", releaseDate: "2025-10-02", endOfStandardSupport: "2026-12-02", endOfExtendedSupport: "2027-12-02" },
  { version: "1.35", releaseDate: "2026-01-28", endOfStandardSupport: "2027-03-27", endOfExtendedSupport: "2028-03-27" },
];

/** Extended support bills this per cluster-hour... */
export const EXTENDED_SUPPORT_USD_PER_HOUR = 0.6;
/** ...instead of this (standard support). */
export const STANDARD_SUPPORT_USD_PER_HOUR = 0.1;
/** Hours in an average month (8760 / 12), as AWS pricing pages use. */
export const HOURS_PER_MONTH = 730;
export const HOURS_PER_YEAR = 8760;

export function calendarEntry(version: string): EksCalendarEntry | null {
  return EKS_CALENDAR.find((e) => e.version === version) ?? null;
}
