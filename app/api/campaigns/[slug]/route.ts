// GET /api/campaigns/{slug}: the campaign page's data (waves, states, blockers, burn-down). POST
// (operators and admins, from a Crow's Nest page): `_action=update` with the campaign's fields, or
// `_action=archive`; audited.
import { ZodError } from "zod";
import { authorizeRequest } from "@/lib/auth/guard";
import { campaignPath, getCampaignView } from "@/lib/db/queries/campaigns";
import { archiveCampaign, updateCampaign } from "@/lib/db/writes/campaigns";
import { NotFoundError } from "@/lib/errors";
import { errorResponse, fromError, json } from "@/lib/http/response";
import { readRouteParams } from "@/lib/http/route-params";
import { parseCampaignForm } from "@/lib/upgrades/campaign";
import { auditCampaign, readCampaignRequest, seeOther } from "../request";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ slug: string }> };

export async function GET(request: Request, { params }: Params) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const { slug } = await readRouteParams(params);
    const view = await getCampaignView(slug);
    if (!view) throw new NotFoundError(`campaign ${slug} not found`);
    return json(view);
  } catch (err) {
    return fromError(err);
  }
}

export async function POST(request: Request, { params }: Params) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  let slug: string;
  try {
    ({ slug } = await readRouteParams(params));
  } catch (err) {
    return fromError(err);
  }
  const req = await readCampaignRequest(request, auth.session, "campaign.update", slug);
  if (req instanceof Response) return req;
  const { _action: action = "update", ...fields } = req.fields;
  try {
    if (action === "archive") {
      if (!(await archiveCampaign(slug, req.session.sub))) throw new NotFoundError(`campaign ${slug} not found`);
      await auditCampaign(req.session, "campaign.archive", slug, "ok");
      return req.fromForm ? seeOther("/upgrades/campaigns") : json({ slug, archived: true });
    }
    if (action !== "update") return errorResponse(400, "invalid_request", "_action: expected update or archive");
    const input = parseCampaignForm(fields);
    if (!(await updateCampaign(slug, input, req.session.sub))) throw new NotFoundError(`campaign ${slug} not found`);
    await auditCampaign(req.session, "campaign.update", slug, "ok", JSON.stringify(input));
    return req.fromForm ? seeOther(campaignPath(slug)) : json({ slug, url: campaignPath(slug) });
  } catch (err) {
    if (err instanceof ZodError && req.fromForm) {
      const message = err.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      return seeOther(`${campaignPath(slug)}?error=${encodeURIComponent(message)}`);
    }
    return fromError(err);
  }
}
