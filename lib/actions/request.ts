// The web app's half of an operator action: record the request, wake the collector, wait for the result.
// The web app never talks to a cluster; the collector holds the credentials and writes the audit entry.
import { getPool, getPrisma } from "../db/client";
import type { Session } from "../auth/session";
import { ACTION_CHANNEL } from "../db/channels";
import { clusterReachability } from "../fleet/status";
import { actionsBlockedReason, type ActionRequest, type ActionResult } from "./types";

/** Kind names (Flux's, Argo CD's Application) as the collector stores them, keyed by the lower-case URL form. */
const KIND_NAMES: Record<string, string> = {
  kustomization: "Kustomization",
  helmrelease: "HelmRelease",
  gitrepository: "GitRepository",
  ocirepository: "OCIRepository",
  helmrepository: "HelmRepository",
  helmchart: "HelmChart",
  application: "Application",
};

export function kindName(kind: string): string {
  return KIND_NAMES[kind.toLowerCase()] ?? kind;
}

/** The object as the collector last saw it, or null when Crow's Nest does not know it; `blocked` says why no action can run now. */
export async function findActionTarget(
  req: Pick<ActionRequest, "cluster" | "kind" | "namespace" | "name">,
): Promise<{ suspended: boolean; blocked: string | null } | null> {
  const row = await getPrisma().fluxObject.findFirst({
    where: { cluster: { name: req.cluster }, kind: kindName(req.kind), namespace: req.namespace, name: req.name, deletedAt: null },
    select: {
      suspended: true,
      cluster: { select: { name: true, lifecycle: true, lastSuccessAt: true, lastErrorAt: true, lastError: true } },
    },
  });
  if (!row) return null;
  const { name, lastError } = row.cluster;
  return { suspended: row.suspended, blocked: actionsBlockedReason({ name, lastError, reachability: clusterReachability(row.cluster) }) };
}

export async function submitAction(session: Session, req: ActionRequest): Promise<string> {
  const row = await getPrisma().operatorAction.create({
    data: {
      actor: session.sub,
      actorName: session.name,
      role: session.role,
      action: req.action,
      clusterName: req.cluster,
      kind: kindName(req.kind),
      namespace: req.namespace,
      name: req.name,
    },
    select: { id: true },
  });
  const id = row.id.toString();
  await getPool().query("SELECT pg_notify($1, $2)", [ACTION_CHANNEL, id]);
  return id;
}

export async function getActionResult(id: string): Promise<ActionResult | null> {
  const row = await getPrisma().operatorAction.findUnique({ where: { id: BigInt(id) }, select: { status: true, result: true } });
  if (!row) return null;
  return { id, status: row.status as ActionResult["status"], result: row.result };
}

/** Polls until the collector has handled the action or `timeoutMs` passed (then still pending). */
export async function waitForAction(id: string, timeoutMs = 10_000, pollMs = 200): Promise<ActionResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await getActionResult(id);
    if (!result) throw new Error(`operator action ${id} vanished`);
    if (result.status !== "pending" || Date.now() >= deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
