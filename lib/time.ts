// Time formatting shared by pages: UTC by default, relative where a person scans.

/**
 * A stored date no person could mean (year 1 BC, year 275760): named as such, never printed as a broken
 * string or thrown on. Null for dates with a four-digit year.
 */
function outOfRange(d: Date): string | null {
  if (Number.isNaN(d.getTime())) return "invalid date";
  const year = d.getUTCFullYear();
  if (year >= 1000 && year <= 9999) return null;
  return `year ${year <= 0 ? `${1 - year} BC` : year} (out of range)`;
}

/** "2026-11-21 14:03 UTC" */
export function formatUtc(value: string | Date): string {
  const d = new Date(value);
  return outOfRange(d) ?? `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "3 h 12 min", "45 s", "2 d 4 h": the two largest units. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const units: [number, string][] = [
    [86_400, "d"],
    [3_600, "h"],
    [60, "min"],
    [1, "s"],
  ];
  const parts: string[] = [];
  let rest = s;
  for (const [size, label] of units) {
    if (rest >= size || (parts.length === 0 && size === 1)) {
      const n = Math.floor(rest / size);
      rest -= n * size;
      parts.push(`${n} ${label}`);
      if (parts.length === 2) break;
    } else if (parts.length === 1) {
      break;
    }
  }
  return parts.join(" ");
}

/**
 * "3 min ago" relative to `now` (epoch ms), for things that already happened. A time after `now` can only
 * come from clocks that disagree (the browser's and the server's or the database's, or a simulated clock
 * running ahead), so it reads "just now" rather than "in 10 s".
 */
export function formatAgo(value: string | Date, now: number): string {
  const d = new Date(value);
  const odd = outOfRange(d);
  if (odd) return odd;
  const diff = now - d.getTime();
  if (diff < 10_000) return "just now";
  return `${formatDuration(diff)} ago`;
}
