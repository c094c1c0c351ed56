// Operator actions (reconcile now, suspend, resume) requested in the web app and carried out here, where
// the cluster credentials are. Each is the JSON merge patch the flux CLI sends:
//   reconcile  {"metadata":{"annotations":{"reconcile.fluxcd.io/requestedAt":"<RFC3339Nano>"}}}
//              (refused, like `flux reconcile`, when the object is suspended)
//   suspend    {"spec":{"suspend":true}}
//   resume     {"spec":{"suspend":null}}
// and for an Argo CD Application what the argocd CLI sends (lib/kube/argocd/actions.ts):
//   refresh    {"metadata":{"annotations":{"argocd.argoproj.io/refresh":"normal"}}}
//   sync       the `operation` Argo CD's API server writes (refused while another operation runs)
// The collector loop calls processOperatorActions(ctx) whenever it hears NOTIFY crows_nest_action and on
// every tick. Rows are claimed with FOR UPDATE SKIP LOCKED, so with several replicas each action is applied
// once, by the replica that polls the action's cluster. The result goes into the row, an audit entry and a
// nudge for an immediate re-poll of the object.
import type pg from "pg";
import { refreshPatch, syncPatch } from "../kube/argocd/actions";
import { COLLECTED_KINDS, type CollectedKindInfo } from "../kube/kinds";
import type { KubeClusterClient } from "../kube/client";
import { ClusterRequestError } from "../kube/errors";
import { logger } from "../logger";
import { actionsForKind, OPERATOR_ACTIONS, type OperatorActionName } from "../actions/types";
import { NUDGE_CHANNEL } from "../db/channels";

/** A pending action nobody could carry out in this time is failed (the web app waits ~10 s). */
export const ACTION_EXPIRY_SECONDS = 60;

export interface OperatorActionContext {
  pool: pg.Pool;
  /** Recorded in handledBy and the logs. */
  replicaId: string;
  /** Clusters this replica polls now: only their actions are claimed here. */
  clusterNames(): string[] | Promise<string[]>;
  /** The authenticated client this replica uses for that cluster. */
  clientFor(clusterName: string): KubeClusterClient | Promise<KubeClusterClient>;
  now?: () => Date;
}

export interface ActionOutcome {
  id: string;
  status: "ok" | "error";
  result: string;
}

interface ActionRow {
  id: string;
  actor: string;
  actorName: string | null;
  role: string;
  action: string;
  clusterName: string;
  kind: string;
  namespace: string;
  name: string;
}

const log = logger.child({ component: "operator-actions" });

/** Go's time.RFC3339Nano: fractional seconds without trailing zeros (what `flux reconcile` writes). */
export function rfc3339Nano(date: Date): string {
  return date.toISOString().replace(/\.(\d*?)0*Z$/, (_m, digits: string) => (digits ? `.${digits}Z` : "Z"));
}

/** The exact merge patch the flux CLI sends for this action. */
export function fluxPatch(action: Exclude<OperatorActionName, "refresh" | "sync">, at: Date): Record<string, unknown> {
  switch (action) {
    case "reconcile":
      return { metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": rfc3339Nano(at) } } };
    case "suspend":
      return { spec: { suspend: true } };
    case "resume":
      return { spec: { suspend: null } };
  }
}

export function kindInfo(kind: string): CollectedKindInfo | undefined {
  return COLLECTED_KINDS.find((k) => k.kind.toLowerCase() === kind.toLowerCase());
}

export function objectPath(info: CollectedKindInfo, version: string, namespace: string, name: string): string {
  const seg = encodeURIComponent;
  return `/apis/${info.group}/${version}/namespaces/${seg(namespace)}/${info.plural}/${seg(name)}`;
}

/** Fails actions that stayed pending too long (no replica polls their cluster), then applies the rest. */
export async function processOperatorActions(ctx: OperatorActionContext): Promise<ActionOutcome[]> {
  const outcomes = await expireStaleActions(ctx);
  const clusters = await ctx.clusterNames();
  if (clusters.length === 0) return outcomes;
  const db = await ctx.pool.connect();
  try {
    await db.query("BEGIN");
    const { rows } = await db.query<ActionRow>(
      `SELECT id::text, actor, "actorName", role, action, "clusterName", kind, namespace, name
         FROM operator_action
        WHERE status = 'pending' AND "clusterName" = ANY($1::text[])
        ORDER BY id
        LIMIT 20
        FOR UPDATE SKIP LOCKED`,
      [clusters],
    );
    for (const row of rows) {
      const outcome = await applyAction(ctx, db, row);
      await finish(db, ctx.replicaId, row, outcome);
      outcomes.push(outcome);
    }
    await db.query("COMMIT");
  } catch (err) {
    await db.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    db.release();
  }
  return outcomes;
}

async function applyAction(ctx: OperatorActionContext, db: pg.PoolClient, row: ActionRow): Promise<ActionOutcome> {
  const fail = (result: string): ActionOutcome => ({ id: row.id, status: "error", result });
  const action = OPERATOR_ACTIONS.find((a) => a === row.action);
  const info = kindInfo(row.kind);
  if (!action) return fail(`unknown action ${row.action}`);
  if (!info) return fail(`${row.kind} is not a kind Crow's Nest can act on`);
  if (!actionsForKind(info.kind).includes(action)) return fail(`${action} does not apply to a ${info.kind}`);
  try {
    const version = await servedVersion(db, row, info);
    const path = objectPath(info, version, row.namespace, row.name);
    const client = await ctx.clientFor(row.clusterName);
    if (action === "refresh" || action === "sync") return await argoAction(client, path, row, action);
    if (action === "reconcile") {
      const current = await client.getJson<{ spec?: { suspend?: boolean } }>(path);
      if (current?.spec?.suspend === true) return fail("resource is suspended: resume it first");
    }
    const at = ctx.now?.() ?? new Date();
    await client.mergePatch(path, fluxPatch(action, at));
    const result =
      action === "reconcile" ? `reconciliation requested at ${rfc3339Nano(at)}` : action === "suspend" ? "suspended" : "resumed";
    log.info(
      { cluster: row.clusterName, kind: info.kind, namespace: row.namespace, name: row.name, action, actor: row.actor },
      "operator action applied",
    );
    return { id: row.id, status: "ok", result };
  } catch (err) {
    const message = err instanceof ClusterRequestError ? describeClusterError(err) : "could not reach the cluster";
    log.warn({ cluster: row.clusterName, action, err: message }, "operator action failed");
    return fail(message);
  }
}

/** Refresh or sync an Argo CD Application: the patch the argocd CLI sends, carried out by the controller. */
async function argoAction(client: KubeClusterClient, path: string, row: ActionRow, action: "refresh" | "sync"): Promise<ActionOutcome> {
  if (action === "refresh") {
    await client.mergePatch(path, refreshPatch("normal"));
    log.info(
      { cluster: row.clusterName, kind: row.kind, namespace: row.namespace, name: row.name, action, actor: row.actor },
      "operator action applied",
    );
    return { id: row.id, status: "ok", result: "refresh requested (argocd.argoproj.io/refresh: normal)" };
  }
  const sync = syncPatch(await client.getJson(path), { username: row.actorName ?? row.actor });
  if (!sync.ok) return { id: row.id, status: "error", result: sync.reason };
  await client.mergePatch(path, sync.patch);
  log.info(
    { cluster: row.clusterName, kind: row.kind, namespace: row.namespace, name: row.name, action, actor: row.actor },
    "operator action applied",
  );
  return { id: row.id, status: "ok", result: "sync requested: Argo CD runs the operation" };
}

function describeClusterError(err: ClusterRequestError): string {
  if (err.status === 403) return `forbidden: the collector's identity may not patch this object (see the RBAC in deploy/)`;
  if (err.status === 404) return "not found in the cluster (deleted?)";
  return err.message.slice(0, 300);
}

/** The API version the collector last saw the object served with, else the newest we know. */
async function servedVersion(db: pg.PoolClient, row: ActionRow, info: CollectedKindInfo): Promise<string> {
  const { rows } = await db.query<{ apiVersion: string }>(
    `SELECT fo."apiVersion" FROM flux_object fo JOIN cluster c ON c.id = fo."clusterId"
      WHERE c.name = $1 AND lower(fo.kind) = lower($2) AND fo.namespace = $3 AND fo.name = $4`,
    [row.clusterName, row.kind, row.namespace, row.name],
  );
  const seen = rows[0]?.apiVersion.split("/")[1];
  return seen && info.versions.includes(seen) ? seen : info.versions[0];
}

async function finish(db: pg.PoolClient | pg.Pool, replicaId: string, row: ActionRow, outcome: ActionOutcome): Promise<void> {
  await db.query(`UPDATE operator_action SET status = $2, result = $3, "handledAt" = now(), "handledBy" = $4 WHERE id = $1::bigint`, [
    row.id,
    outcome.status,
    outcome.result,
    replicaId,
  ]);
  await db.query(
    `INSERT INTO audit_entry (actor, "actorName", role, action, "clusterName", kind, namespace, name, result, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [row.actor, row.actorName, row.role, row.action, row.clusterName, row.kind, row.namespace, row.name, outcome.status, outcome.result],
  );
  if (outcome.status === "ok") {
    await db.query(`INSERT INTO collector_nudge ("clusterName", kind, namespace, name, reason) VALUES ($1, $2, $3, $4, $5)`, [
      row.clusterName,
      row.kind,
      row.namespace,
      row.name,
      `operator action ${row.action}`,
    ]);
    await db.query("SELECT pg_notify($1, $2)", [NUDGE_CHANNEL, row.clusterName]);
  }
}

async function expireStaleActions(ctx: OperatorActionContext): Promise<ActionOutcome[]> {
  const { rows } = await ctx.pool.query<ActionRow>(
    `UPDATE operator_action SET status = 'error', "handledAt" = now(), "handledBy" = $2,
            result = 'no collector reached the cluster within ' || $1::int || ' s'
      WHERE id IN (SELECT id FROM operator_action
                    WHERE status = 'pending' AND "requestedAt" < now() - make_interval(secs => $1::int)
                    FOR UPDATE SKIP LOCKED)
      RETURNING id::text, actor, "actorName", role, action, "clusterName", kind, namespace, name, result`,
    [ACTION_EXPIRY_SECONDS, ctx.replicaId],
  );
  const outcomes: ActionOutcome[] = [];
  for (const row of rows as (ActionRow & { result: string })[]) {
    await ctx.pool.query(
      `INSERT INTO audit_entry (actor, "actorName", role, action, "clusterName", kind, namespace, name, result, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'error', $9)`,
      [row.actor, row.actorName, row.role, row.action, row.clusterName, row.kind, row.namespace, row.name, row.result],
    );
    outcomes.push({ id: row.id, status: "error", result: row.result });
  }
  return outcomes;
}
