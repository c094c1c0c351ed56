// GET /api/upgrades/trends?days=30: daily upgrade trends rebuilt from the stored history.
import { z } from "zod";
import { authorizeRequest } from "@/lib/auth/guard";
import { getUpgradeTrends } from "@/lib/db/queries/upgrades-trends";
import { fromError, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

const query = z.object({ days: z.coerce.number().int().min(1).max(400).default(30) });

export async function GET(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const { days } = query.parse({ days: new URL(request.url).searchParams.get("days") ?? undefined });
    return json(await getUpgradeTrends({ days }));
  } catch (err) {
    return fromError(err);
  }
}
