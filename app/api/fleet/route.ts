// GET /api/fleet?env&team&region&health&q: the fleet overview, same data as the / page.
import { getFleet } from "@/lib/db/queries/fleet";
import { parseFleetFilters } from "@/lib/fleet/filters";
import { fromError, json } from "@/lib/http/response";

// Reads the database on every request (and stays testable outside a Next.js request scope).
export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  try {
    return json(await getFleet(parseFleetFilters(new URL(request.url).searchParams)));
  } catch (err) {
    return fromError(err);
  }
}
