// Small helpers shared by the read queries: timestamps as ISO strings, reachability and health of rows.
import {
  clusterReachability,
  effectiveHealth,
  isReachable,
  STALE_KINDS,
  STALE_MARGIN_SECONDS,
  type Health,
  type Reachability,
  type StoredHealth,
} from "../../fleet/status";
import type { FluxObjectTransitionRow } from "../rows";

/** The columns of a history row that the cluster and object pages show. */
export type TransitionListRow = Pick<
  FluxObjectTransitionRow,
  | "at"
  | "change"
  | "fields"
  | "health"
  | "previousHealth"
  | "readyReason"
  | "readyMessage"
  | "appliedRevision"
  | "attemptedRevision"
  | "chartVersion"
>;

/** ISO 8601; null for no date, and for one that is not a date at all (never a throw from a bad row). */
export function iso(d: Date | string | null | undefined): string | null {
  if (d == null) return null;
  const date = new Date(d);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export interface ClusterReachRow {
  lifecycle: string;
  lastSuccessAt: Date | null;
  lastErrorAt: Date | null;
}

export function reachabilityOf(row: ClusterReachRow): Reachability {
  return clusterReachability(row);
}

export interface ObjectHealthRow {
  kind: string;
  health: string;
  intervalSeconds: number | null;
  lastReconcileAt: Date | null;
}

export function healthOf(row: ObjectHealthRow, reachability: Reachability, now: Date): Health {
  return effectiveHealth({
    stored: row.health as StoredHealth,
    intervalSeconds: row.intervalSeconds,
    lastReconcileAt: row.lastReconcileAt,
    kind: row.kind,
    clusterReachable: isReachable(reachability),
    now,
  });
}

/**
 * The same stale rule as effectiveHealth, in SQL, for aggregates over many rows. `$now` is the
 * parameter holding the current time; `o` the flux_object alias.
 */
export function staleSql(now: string): string {
  // Written to match the partial expression index flux_object_stale_after_idx (prisma/migrations), so the
  // fleet-wide question reads only the stale rows; stale-index.test.ts checks the planner uses it.
  if (STALE_KINDS.length !== 1 || STALE_MARGIN_SECONDS !== 300) throw new Error("staleSql and flux_object_stale_after_idx disagree");
  return `(o."deletedAt" IS NULL AND o.health IN ('ready', 'progressing') AND o.kind = '${STALE_KINDS[0]}' AND o."intervalSeconds" > 0
    AND (o."lastReconcileAt" + make_interval(secs => 2 * o."intervalSeconds" + 300)) < ${now}::timestamp)`;
}

/** "ns/name" strings (as stored in dependsOn) → refs. */
export function parseDependsOn(value: unknown, namespace: string): Array<{ namespace: string; name: string }> {
  if (!Array.isArray(value)) return [];
  return value.flatMap((d) => {
    if (typeof d === "string") {
      const i = d.indexOf("/");
      return i > 0 ? [{ namespace: d.slice(0, i), name: d.slice(i + 1) }] : d ? [{ namespace, name: d }] : [];
    }
    if (d && typeof d === "object" && typeof (d as { name?: unknown }).name === "string") {
      const ref = d as { name: string; namespace?: string };
      return [{ namespace: ref.namespace || namespace, name: ref.name }];
    }
    return [];
  });
}

const SECRET_LOOKING = /(secret|token|passw|credential|private|apikey|api_key)/i;

/** Substitution variables as a flat, sorted list; anything that looks like a secret is left out. */
export function substitutionList(value: unknown): Array<{ name: string; value: string; from: string | null }> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return [];
  const out: Array<{ name: string; value: string; from: string | null }> = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
      if (!SECRET_LOOKING.test(k)) out.push({ name: k, value: String(v), from: null });
    } else if (v && typeof v === "object" && !Array.isArray(v)) {
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>)) {
        if ((typeof v2 === "string" || typeof v2 === "number" || typeof v2 === "boolean") && !SECRET_LOOKING.test(k2)) {
          out.push({ name: k2, value: String(v2), from: k });
        }
      }
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name) || (a.from ?? "").localeCompare(b.from ?? ""));
}
