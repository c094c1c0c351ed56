// Shared by the web app (which requests actions) and the collector (which carries them out).
import { z } from "zod";
import type { Reachability } from "../fleet/status";

export const OPERATOR_ACTIONS = ["reconcile", "suspend", "resume", "refresh", "sync"] as const;
export type OperatorActionName = (typeof OPERATOR_ACTIONS)[number];
/** Kinds that accept the flux CLI patches or the argocd CLI's refresh and sync, lower case as in URLs. */
export const ACTIONABLE_KINDS = [
  "kustomization",
  "helmrelease",
  "gitrepository",
  "ocirepository",
  "helmrepository",
  "helmchart",
  "application",
] as const;

/** What can be asked of each kind: Flux's three actions, Argo CD's refresh and sync for an Application. */
export function actionsForKind(kind: string): readonly OperatorActionName[] {
  return kind.toLowerCase() === "application" ? ["refresh", "sync"] : ["reconcile", "suspend", "resume"];
}

const k8sName = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, "not a Kubernetes name");

export const actionRequestSchema = z
  .object({
    action: z.enum(OPERATOR_ACTIONS),
    cluster: z
      .string()
      .min(1)
      .max(253)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, "not a cluster name"),
    kind: z
      .string()
      .transform((k) => k.toLowerCase())
      .pipe(z.enum(ACTIONABLE_KINDS)),
    namespace: k8sName.max(63),
    name: k8sName,
    csrfToken: z.string().min(1).max(200),
  })
  .strict()
  .refine((r) => actionsForKind(r.kind).includes(r.action), { message: "this action does not apply to this kind", path: ["action"] });
export type ActionRequest = z.infer<typeof actionRequestSchema>;

export interface ActionResult {
  id: string;
  status: "pending" | "ok" | "error";
  result: string | null;
}

/**
 * Why no action can be carried out on this cluster's objects now, or null when it can. Only the collector
 * acts, through the cluster's API: a cluster it cannot reach would leave the request pending and then
 * failed, so the buttons are disabled with this reason and the API refuses with it.
 */
export function actionsBlockedReason(cluster: { name: string; reachability: Reachability; lastError: string | null }): string | null {
  switch (cluster.reachability) {
    case "unreachable":
      return `${cluster.name} is unreachable${cluster.lastError ? ` (${cluster.lastError})` : ""}: actions need the collector to reach it`;
    case "gone":
      return `${cluster.name} is no longer in the fleet`;
    default:
      return null;
  }
}
