// The audit log: who did what to which object, and what came of it. Written by the web app for sign-ins
// and every action attempt (denied ones too), and by the collector when it carries an action out.
import { getPrisma } from "../db/client";
import { iso } from "../db/queries/shared";
import { logger } from "../logger";

export type AuditResult = "ok" | "error" | "denied";

export interface AuditInput {
  actor: string;
  actorName?: string;
  role: string;
  action: string;
  clusterName?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  result: AuditResult;
  detail?: string;
}

export interface AuditRow extends Omit<AuditInput, "actorName" | "clusterName" | "kind" | "namespace" | "name" | "detail"> {
  id: string;
  /** Null only for a stored time the database client cannot read (a hand-edited row). */
  at: string | null;
  actorName: string | null;
  clusterName: string | null;
  kind: string | null;
  namespace: string | null;
  name: string | null;
  detail: string | null;
}

const log = logger.child({ component: "audit" });

export async function recordAudit(entry: AuditInput): Promise<void> {
  await getPrisma().auditEntry.create({ data: { ...entry, detail: entry.detail?.slice(0, 2000) } });
  log.info(
    {
      actor: entry.actor,
      action: entry.action,
      cluster: entry.clusterName,
      kind: entry.kind,
      namespace: entry.namespace,
      name: entry.name,
      result: entry.result,
    },
    "audit",
  );
}

export interface AuditFilter {
  clusterName?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  actor?: string;
  /** Entries older than this id (keyset paging). */
  beforeId?: bigint;
  limit?: number;
}

export async function listAuditEntries(filter: AuditFilter = {}): Promise<AuditRow[]> {
  const rows = await getPrisma().auditEntry.findMany({
    where: {
      clusterName: filter.clusterName,
      kind: filter.kind,
      namespace: filter.namespace,
      name: filter.name,
      actor: filter.actor,
      id: filter.beforeId ? { lt: filter.beforeId } : undefined,
    },
    orderBy: { id: "desc" },
    take: Math.min(filter.limit ?? 50, 500),
  });
  return rows.map((r) => ({
    id: r.id.toString(),
    at: iso(r.at),
    actor: r.actor,
    actorName: r.actorName,
    role: r.role,
    action: r.action,
    clusterName: r.clusterName,
    kind: r.kind,
    namespace: r.namespace,
    name: r.name,
    result: r.result as AuditResult,
    detail: r.detail,
  }));
}
