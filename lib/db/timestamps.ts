// `timestamp(3) without time zone` columns hold UTC (Prisma's convention). PostgreSQL prints years before
// 1 AD with a " BC" suffix and has ±infinity, none of which `new Date(text)` reads: an Invalid Date, whose
// toISOString() throws and takes a whole page down. Every value PostgreSQL can hold becomes a valid Date
// here (±infinity as the furthest dates JavaScript has); pages decide how to show what is out of range.

const TIMESTAMP = /^(\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?( BC)?$/;
/** The furthest instants a JavaScript Date can hold (±100,000,000 days from 1970). */
const LIMIT_MS = 8.64e15;

export function parseTimestamp(text: string): Date {
  if (text === "infinity") return new Date(LIMIT_MS);
  if (text === "-infinity") return new Date(-LIMIT_MS);
  const m = TIMESTAMP.exec(text);
  if (!m) return new Date(text.replace(" ", "T") + "Z");
  const [, y, mo, d, h, mi, s, fraction = "", bc] = m;
  // Year n BC is ISO year 1 - n (1 BC is year 0).
  const year = bc ? 1 - Number(y) : Number(y);
  const date = new Date(
    Date.UTC(2000, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(fraction.padEnd(3, "0").slice(0, 3))),
  );
  date.setUTCFullYear(year); // Date.UTC maps years 0–99 to 1900–1999
  return Number.isNaN(date.getTime()) ? new Date(year < 0 ? -LIMIT_MS : LIMIT_MS) : date;
}
