// Human durations for "failing for 3 h 12 min": two units at most, the larger first.

const MIN = 60;
const HOUR = 3600;
const DAY = 86_400;

export function formatDuration(totalSeconds: number | null | undefined): string {
  if (totalSeconds == null || !Number.isFinite(totalSeconds)) return "";
  const s = Math.max(0, Math.floor(totalSeconds));
  if (s < MIN) return `${s} s`;
  if (s < HOUR) return `${Math.floor(s / MIN)} min`;
  if (s < DAY) {
    const h = Math.floor(s / HOUR);
    const m = Math.floor((s % HOUR) / MIN);
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  const d = Math.floor(s / DAY);
  const h = Math.floor((s % DAY) / HOUR);
  return h ? `${d} d ${h} h` : `${d} d`;
}

/** Seconds between an ISO time (or Date) and now; null when there is no time. */
export function secondsSince(at: string | Date | null | undefined, now: Date): number | null {
  if (!at) return null;
  const t = new Date(at).getTime();
  return Number.isNaN(t) ? null : Math.max(0, Math.floor((now.getTime() - t) / 1000));
}

/** "3 h 12 min ago", "in 5 min", "just now": used for relative times. */
export function formatRelative(at: string | Date, now: Date): string {
  const diff = Math.round((now.getTime() - new Date(at).getTime()) / 1000);
  if (Math.abs(diff) < 10) return "just now";
  return diff > 0 ? `${formatDuration(diff)} ago` : `in ${formatDuration(-diff)}`;
}

/** Absolute time in UTC, as shown on hover: "2026-11-21 20:13:17 UTC". */
export function formatUtc(at: string | Date): string {
  return new Date(at).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
}
