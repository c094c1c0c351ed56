// GET /api/addons?group&at&kind&standing&skew&q: the add-on matrix as JSON (same data as /addons).
import { authorizeRequest } from "@/lib/auth/guard";
import { getAddonMatrix } from "@/lib/db/queries/addons";
import { fromError, json } from "@/lib/http/response";
import { atInstant, parseAddonFilters, rowMatches } from "@/lib/upgrades/addon-filters";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const filters = parseAddonFilters(new URL(request.url).searchParams);
    const now = new Date();
    const view = await getAddonMatrix({ at: atInstant(filters.at, now), now });
    return json({ ...view, filters, rows: view.rows.filter((r) => rowMatches(r, filters)) });
  } catch (err) {
    return fromError(err);
  }
}
