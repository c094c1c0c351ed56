// GET /api/campaigns: every campaign with its progress. POST (operators and admins, from a Crow's Nest page;
// a form or JSON with name, targetVersion, deadline, waveLabel, waveOrder): creates one, audited.
import { ZodError } from "zod";
import { authorizeRequest } from "@/lib/auth/guard";
import { campaignPath, listCampaigns } from "@/lib/db/queries/campaigns";
import { createCampaign } from "@/lib/db/writes/campaigns";
import { fromError, json } from "@/lib/http/response";
import { parseCampaignForm } from "@/lib/upgrades/campaign";
import { auditCampaign, readCampaignRequest, seeOther } from "./request";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    return json({ campaigns: await listCampaigns() });
  } catch (err) {
    return fromError(err);
  }
}

export async function POST(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  const req = await readCampaignRequest(request, auth.session, "campaign.create", "");
  if (req instanceof Response) return req;
  try {
    const input = parseCampaignForm(req.fields);
    const slug = await createCampaign(input, req.session.sub);
    await auditCampaign(req.session, "campaign.create", slug, "ok", JSON.stringify(input));
    return req.fromForm ? seeOther(campaignPath(slug)) : json({ slug, url: campaignPath(slug) }, { status: 201 });
  } catch (err) {
    if (err instanceof ZodError && req.fromForm) {
      const message = err.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      return seeOther(`/upgrades/campaigns?error=${encodeURIComponent(message)}`);
    }
    return fromError(err);
  }
}
