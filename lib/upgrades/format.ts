// Words and numbers for upgrade pages and exports.

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

/** "$1,095" */
export function formatUsd(amount: number): string {
  return usd.format(Math.round(amount));
}

/** "today", "in 1 day", "in 11 days", "1 day ago", "360 days ago". */
export function formatDaysFromToday(days: number | null | undefined): string {
  if (days == null) return "unknown";
  if (days === 0) return "today";
  const n = Math.abs(days);
  const unit = n === 1 ? "day" : "days";
  return days > 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`;
}

export function formatPercent(share: number | null | undefined): string {
  return share == null ? "–" : `${Math.round(share * 100)}%`;
}

export const VERSION_STATUS_LABEL: Record<string, string> = {
  STANDARD_SUPPORT: "Standard support",
  EXTENDED_SUPPORT: "Extended support",
  UNSUPPORTED: "Unsupported",
};
