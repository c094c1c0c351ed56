// Readers for untyped JSON: Kubernetes objects as the API serves them, and JSON columns read back from
// Postgres. Each returns the type asked for or an explicit empty value; none throws.

export type Raw = Record<string, unknown>;

export const isRaw = (v: unknown): v is Raw => !!v && typeof v === "object" && !Array.isArray(v);
/** The object, or {} for anything else. */
export const obj = (v: unknown): Raw => (isRaw(v) ? v : {});
/** A non-empty string, or null. */
export const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
/** A finite number, or null. */
export const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
/** The array, or [] for anything else. */
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** The objects of an array (other items dropped). */
export const records = (v: unknown): Raw[] => arr(v).filter(isRaw);
