// One copy of each short string the collector keeps for a long time. JSON.parse makes a new string for every
// value it reads, so a fleet's kept state (150,000 objects) otherwise holds the same namespace, reason,
// revision and message thousands of times over: the same Git revision is attempted, applied and last good on
// every Kustomization of a source, and "ReconciliationSucceeded" is on all of them.

/** Strings longer than this are rarely repeated (a long message is kept as it is). */
const MAX_LENGTH = 256;
/** The pool is cleared when it reaches this size: it only saves memory, so forgetting is always safe. */
const MAX_ENTRIES = 100_000;
const pool = new Map<string, string>();

/** The pooled copy of `s` (equal content, one instance). */
export function intern<T extends string | null | undefined>(s: T): T {
  if (typeof s !== "string" || s.length > MAX_LENGTH) return s;
  const pooled = pool.get(s);
  if (pooled !== undefined) return pooled as T;
  if (pool.size >= MAX_ENTRIES) pool.clear();
  pool.set(s, s);
  return s;
}
