// Filters of the fleet and failures views. They live in the query string so any view can be shared;
// the same schema parses page searchParams and API query strings.
import { z } from "zod";
import { FAILURE_SORTS } from "./failures";
import { kindFromSlug } from "./kinds";

const text = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((v) => (v ? v : undefined));

/** Health of a cluster as the fleet overview filters it. */
export const CLUSTER_HEALTHS = ["healthy", "failing", "stale", "unreachable", "provisioning"] as const;
export type ClusterHealth = (typeof CLUSTER_HEALTHS)[number];

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .optional()
    .transform((v) => (values.includes(v ?? "") ? (v as T[number]) : undefined));

export const fleetFiltersSchema = z.object({
  env: text,
  team: text,
  region: text,
  health: oneOf(CLUSTER_HEALTHS),
  q: text,
});
export type FleetFilters = z.infer<typeof fleetFiltersSchema>;

/** Problems /failures filters by; "drifted" lists ready objects whose live state drifted (not failures). */
export const PROBLEMS = ["failing", "stalled", "stale", "unclaimed", "unreachable", "create-failed", "crossplane", "drifted"] as const;

export const failureFiltersSchema = z.object({
  kind: z
    .string()
    .optional()
    .transform((v) => (v ? (kindFromSlug(v.toLowerCase()) ?? (v.toLowerCase() === "cluster" ? "Cluster" : undefined)) : undefined)),
  cluster: text,
  env: text,
  team: text,
  problem: oneOf(PROBLEMS),
  q: text,
  sort: oneOf(FAILURE_SORTS),
});
export type FailureFilters = z.infer<typeof failureFiltersSchema>;

type SearchParams = URLSearchParams | Record<string, string | string[] | undefined>;

/** First value of each key: pages get `string | string[]`, routes get URLSearchParams. */
export function firstValues(params: SearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  for (const [k, v] of entries) {
    const value = Array.isArray(v) ? v[0] : v;
    if (typeof value === "string" && !(k in out)) out[k] = value;
  }
  return out;
}

export const parseFleetFilters = (params: SearchParams): FleetFilters => fleetFiltersSchema.parse(firstValues(params));
export const parseFailureFilters = (params: SearchParams): FailureFilters => failureFiltersSchema.parse(firstValues(params));

/** The query string for a set of filters (empty values left out), "" when there are none. */
export function toQueryString(filters: Record<string, string | undefined | null>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** Clusters a fleet page shows at once (worst first); `all=1` shows every one. */
export const FLEET_PAGE_LIMIT = 100;
/** Members a failure group shows on the page; the rest are counted. */
export const FAILURE_PAGE_MEMBERS = 50;

/** An optional positive count from a query string (limit, members). */
export const countParam = z.coerce.number().int().min(1).max(1_000_000).optional();
