// Query-string filters of the add-on matrix (page, JSON and CSV routes share them).
import { z } from "zod";
import { STANDINGS } from "./standing";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EARLIEST_AT = "2000-01-01";

export const addonFiltersSchema = z.object({
  group: z.enum(["none", "env", "team", "region"]).default("none"),
  /** YYYY-MM-DD: the matrix as it was at the end of that UTC day. */
  at: z
    .string()
    .regex(DATE, "expected YYYY-MM-DD")
    .refine((v) => !Number.isNaN(new Date(`${v}T00:00:00Z`).getTime()), "not a date")
    // Year 0000 is no year PostgreSQL knows; nothing before this project's history is worth asking for.
    .refine((v) => v >= EARLIEST_AT, `expected a date from ${EARLIEST_AT}`)
    .optional(),
  kind: z.enum(["helm", "eks", "flux"]).optional(),
  standing: z.enum(STANDINGS).optional(),
  /** Only add-ons whose versions differ across clusters. */
  skew: z.enum(["1"]).optional(),
  q: z.string().trim().max(100).optional(),
  /** Cluster columns: only these environments / teams / regions. */
  env: z.string().trim().min(1).max(100).optional(),
  team: z.string().trim().min(1).max(100).optional(),
  region: z.string().trim().min(1).max(100).optional(),
  /** Page of cluster columns (MATRIX_PAGE_COLUMNS each), from 1. */
  page: z.coerce.number().int().min(1).max(10_000).optional(),
});

/** Cluster columns per page: a thousand clusters side by side would be a page no one can read or load. */
export const MATRIX_PAGE_COLUMNS = 25;

export type AddonFilters = z.infer<typeof addonFiltersSchema>;

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

export function parseAddonFilters(params: Params): AddonFilters {
  const get = (k: string) => {
    const v = params instanceof URLSearchParams ? params.get(k) : params[k];
    const first = Array.isArray(v) ? v[0] : v;
    return first === null || first === undefined || first === "" ? undefined : first;
  };
  return addonFiltersSchema.parse(
    Object.fromEntries(["group", "at", "kind", "standing", "skew", "q", "env", "team", "region", "page"].map((k) => [k, get(k)])),
  );
}

/** End of the chosen UTC day (the matrix shows what ran at that instant); undefined = now. */
export function atInstant(at: string | undefined, now: Date): Date | undefined {
  if (!at) return undefined;
  const end = new Date(new Date(`${at}T00:00:00Z`).getTime() + 86_400_000 - 1);
  return end.getTime() >= now.getTime() ? undefined : end;
}

export function rowMatches(
  row: { kind: string; label: string; repository: string | null; skew: boolean; counts: Record<string, number> },
  f: AddonFilters,
): boolean {
  if (f.kind && row.kind !== f.kind) return false;
  if (f.skew && !row.skew) return false;
  if (f.standing && !row.counts[f.standing]) return false;
  if (f.q) {
    const q = f.q.toLowerCase();
    if (!`${row.label} ${row.repository ?? ""}`.toLowerCase().includes(q)) return false;
  }
  return true;
}

/** The cluster filters of the matrix (env, team, region). */
export function clusterMatches(c: { env: string | null; team: string | null; region: string | null }, f: AddonFilters): boolean {
  return (!f.env || c.env === f.env) && (!f.team || c.team === f.team) && (!f.region || c.region === f.region);
}

/** One page of columns out of the (grouped, filtered) cluster order. */
export function columnPage<T>(ordered: readonly T[], page: number | undefined): { shown: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(ordered.length / MATRIX_PAGE_COLUMNS));
  const p = Math.min(Math.max(1, page ?? 1), pages);
  return { shown: ordered.slice((p - 1) * MATRIX_PAGE_COLUMNS, p * MATRIX_PAGE_COLUMNS), page: p, pages };
}
