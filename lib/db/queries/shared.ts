// Small helpers shared by the read queries: timestamps as ISO strings, reachability and health of rows.
import {
  clusterReachability,
  effectiveHealth,
  isReachable,
  STALE_KINDS,
  STALE_MARGIN_SECONDS,
  UNCLAIMED_AFTER_SECONDS,
  type Health,
  type Reachability,
  type StoredHealth,
} from "../../fleet/status";
import type pg from "pg";
import { clusterVersionKnowledge, type ClusterVersionKnowledge } from "../../fleet/cluster-facts";
import { parseProvisioning } from "../../fleet/provisioning";
import type { ClusterRow, FluxObjectTransitionRow } from "../rows";

/** The columns of a history row that the cluster and object pages show. */
export type TransitionListRow = Pick<
  FluxObjectTransitionRow,
  | "at"
  | "change"
  | "fields"
  | "health"
  | "healthDetail"
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
  /** Crossplane is still creating it: select it wherever reachability is decided. */
  provisioning: string | null;
}

export function reachabilityOf(row: ClusterReachRow): Reachability {
  return clusterReachability(row);
}

export interface ObjectHealthRow {
  kind: string;
  health: string;
  intervalSeconds: number | null;
  lastReconcileAt: Date | null;
  /** How long a new object has waited: its creation time, or when we first saw it. */
  creationTimestamp: Date | null;
  firstSeenAt: Date | null;
}

export function healthOf(row: ObjectHealthRow, reachability: Reachability, now: Date): Health {
  return effectiveHealth({
    stored: row.health as StoredHealth,
    intervalSeconds: row.intervalSeconds,
    lastReconcileAt: row.lastReconcileAt,
    kind: row.kind,
    createdAt: row.creationTimestamp ?? row.firstSeenAt,
    clusterReachable: isReachable(reachability),
    now,
  });
}

/**
 * The unclaimed rule of effectiveHealth in SQL (a new object still waiting UNCLAIMED_AFTER_SECONDS after its
 * creation), for aggregates. New objects are few: the health index finds them.
 */
export function unclaimedSql(now: string): string {
  return `(o."deletedAt" IS NULL AND o.health = 'new'
    AND COALESCE(o."creationTimestamp", o."firstSeenAt") + make_interval(secs => ${UNCLAIMED_AFTER_SECONDS}) < ${now}::timestamp)`;
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

/** The cluster columns a version's knowledge is decided from (alias `c`), for any query that shows versions. */
export const VERSION_KNOWLEDGE_COLUMNS = `c.lifecycle, c."lastSuccessAt", c."lastErrorAt", c."lastErrorKind", c."lastError", c.provisioning,
  c."desiredVersion", c."eksVersion", c."eksFactsSource", c."eksError", c."kubernetesVersion"`;

export type VersionKnowledgeRow = ClusterReachRow &
  Pick<ClusterRow, "lastErrorKind" | "lastError" | "desiredVersion" | "eksVersion" | "eksFactsSource" | "eksError" | "kubernetesVersion">;

/**
 * What we know of a cluster's version and from where (lib/fleet/cluster-facts.ts), from its row. `hubReachable`:
 * the hub answered, so what Crossplane says is current. The upgrade pages read the same object.
 */
export function versionKnowledgeOf(
  row: VersionKnowledgeRow,
  hubReachable: boolean,
  now: Date,
  lastVersionChangeAt: Date | null = null,
): ClusterVersionKnowledge {
  return clusterVersionKnowledge(
    {
      reachability: clusterReachability(row),
      eksVersion: row.eksVersion,
      eksFactsSource: row.eksFactsSource,
      eksError: row.eksError,
      kubernetesVersion: row.kubernetesVersion,
      lastSuccessAt: row.lastSuccessAt,
      lastErrorKind: row.lastErrorKind,
      lastError: row.lastError,
      lastVersionChangeAt,
      hubReachable,
      provisioning: parseProvisioning(row.provisioning),
      desiredVersion: row.desiredVersion,
    },
    now,
  );
}

/** Whether the hub answered its last poll (what Crossplane says about spokes is then current). */
export async function hubReachable(pool: Pick<pg.Pool, "query">): Promise<boolean> {
  const { rows } = await pool.query<ClusterReachRow>(
    `SELECT lifecycle, "lastSuccessAt", "lastErrorAt", provisioning FROM cluster WHERE role = 'hub' AND lifecycle = 'active' LIMIT 1`,
  );
  return rows[0] ? isReachable(clusterReachability(rows[0])) : false;
}
