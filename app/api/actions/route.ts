// POST /api/actions: reconcile now, suspend or resume one Flux object. Operators and admins only, from a
// Crow's Nest page (Origin + session-bound CSRF token). The collector applies the patch; this waits up to
// 10 s for its result. Every refused attempt is audited here; carried-out ones by the collector.
import { recordAudit } from "@/lib/auth/audit";
import { authConfig } from "@/lib/auth/config";
import { authorizeRequest, checkCsrf } from "@/lib/auth/guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { findActionTarget, kindName, submitAction, waitForAction } from "@/lib/actions/request";
import { actionRequestSchema } from "@/lib/actions/types";
import { errorResponse, fromError } from "@/lib/http/response";

export const dynamic = "force-dynamic";

const MAX_BODY = 4096;

export async function POST(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  const { session } = auth;
  try {
    const text = await request.text();
    if (text.length > MAX_BODY) return errorResponse(413, "too_large", "request body too large");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return errorResponse(400, "invalid_request", "body must be JSON");
    }
    const req = actionRequestSchema.parse(body);
    const target = { clusterName: req.cluster, kind: kindName(req.kind), namespace: req.namespace, name: req.name };
    const deny = async (status: number, code: string, message: string) => {
      await recordAudit({
        actor: session.sub,
        actorName: session.name,
        role: session.role,
        action: req.action,
        ...target,
        result: "denied",
        detail: message,
      });
      return errorResponse(status, code, message);
    };
    if (!roleAtLeast(session.role, "operator"))
      return deny(403, "forbidden", `${req.action} needs the operator role; you are ${session.role}`);
    if (!authConfig().actionsEnabled) return deny(403, "actions_disabled", "operator actions are turned off (ACTIONS_ENABLED=false)");
    const csrf = await checkCsrf(request, session, req.csrfToken);
    if (csrf) return deny(403, "csrf", "request did not come from a Crow's Nest page");
    const object = await findActionTarget(req);
    if (!object) return errorResponse(404, "not_found", `${req.kind} ${req.namespace}/${req.name} is not known in cluster ${req.cluster}`);
    if (object.blocked) return deny(409, "cluster_unreachable", object.blocked);
    const id = await submitAction(session, req);
    const result = await waitForAction(id);
    return Response.json(result, { status: result.status === "pending" ? 202 : 200 });
  } catch (err) {
    return fromError(err);
  }
}
