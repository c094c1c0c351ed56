// GET /api/fleet?env&team&region&health&q[&limit]: the fleet overview, same data as the / page.
import { authorizeRequest } from "@/lib/auth/guard";
import { getFleet } from "@/lib/db/queries/fleet";
import { countParam, parseFleetFilters } from "@/lib/fleet/filters";
import { fromError, json } from "@/lib/http/response";

// Reads the database on every request (and stays testable outside a Next.js request scope).
export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const params = new URL(request.url).searchParams;
    const limit = countParam.parse(params.get("limit") ?? undefined);
    return json(await getFleet(parseFleetFilters(params), new Date(), { limit }));
  } catch (err) {
    return fromError(err);
  }
}
