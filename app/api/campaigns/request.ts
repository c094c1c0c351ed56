// Shared by the campaign routes: read a form or JSON body, check the caller may change campaigns (operator
// or admin, from a Crow's Nest page), audit every attempt, and answer a form with a redirect.
import { recordAudit } from "@/lib/auth/audit";
import { checkCsrf } from "@/lib/auth/guard";
import { roleAtLeast } from "@/lib/auth/roles";
import type { Session } from "@/lib/auth/session";
import { errorResponse } from "@/lib/http/response";

const MAX_BODY = 8192;

export interface CampaignRequest {
  session: Session;
  fields: Record<string, unknown>;
  /** Sent by an HTML form: answer with a redirect to a page, not JSON. */
  fromForm: boolean;
}

/** After authorizeRequest (any signed-in role): the body, the operator role and the CSRF check. */
export async function readCampaignRequest(
  request: Request,
  session: Session,
  action: string,
  target: string,
): Promise<CampaignRequest | Response> {
  const text = await request.text();
  if (text.length > MAX_BODY) return errorResponse(413, "too_large", "request body too large");
  const fromForm = (request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded");
  let fields: Record<string, unknown>;
  if (fromForm) fields = Object.fromEntries(new URLSearchParams(text));
  else {
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
        return errorResponse(400, "invalid_request", "body must be a JSON object");
      fields = parsed as Record<string, unknown>;
    } catch {
      return errorResponse(400, "invalid_request", "body must be JSON or a form");
    }
  }
  const deny = async (status: number, code: string, message: string) => {
    await auditCampaign(session, action, target, "denied", message);
    return errorResponse(status, code, message);
  };
  if (!roleAtLeast(session.role, "operator"))
    return deny(403, "forbidden", `changing campaigns needs the operator role; you are ${session.role}`);
  const csrf = await checkCsrf(request, session, fields.csrfToken);
  if (csrf) return deny(403, "csrf", "request did not come from a Crow's Nest page");
  const { csrfToken: _token, ...rest } = fields;
  return { session, fields: rest, fromForm };
}

export function auditCampaign(session: Session, action: string, slug: string, result: "ok" | "error" | "denied", detail?: string) {
  return recordAudit({
    actor: session.sub,
    actorName: session.name,
    role: session.role,
    action,
    kind: "UpgradeCampaign",
    name: slug,
    result,
    detail,
  });
}

/**
 * 303 to a page after a form post (the browser then GETs it). The location is relative: the host Next.js
 * sees may not be the one the browser used, and a redirect to another origin breaks CSP form-action 'self'.
 */
export function seeOther(path: string): Response {
  return new Response(null, { status: 303, headers: { location: path } });
}
