// GET /api/addons/csv?group&at&kind&standing&skew&q: the whole matrix as a CSV download.
import { authorizeRequest } from "@/lib/auth/guard";
import { getAddonMatrix, groupClusters } from "@/lib/db/queries/addons";
import { fromError } from "@/lib/http/response";
import { atInstant, clusterMatches, parseAddonFilters, rowMatches } from "@/lib/upgrades/addon-filters";
import { matrixCsv } from "@/lib/upgrades/csv";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const filters = parseAddonFilters(new URL(request.url).searchParams);
    const now = new Date();
    const view = await getAddonMatrix({ at: atInstant(filters.at, now), now });
    // Every cluster the filters keep, not only the page of columns shown.
    const clusters = groupClusters(
      view.clusters.filter((c) => clusterMatches(c, filters)),
      filters.group,
    ).flatMap((g) => g.clusters.map((c) => c.name));
    const csv = matrixCsv(
      view.rows.filter((r) => rowMatches(r, filters)),
      clusters,
    );
    const day = (view.at ?? view.generatedAt).slice(0, 10);
    return new Response(csv, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="crows-nest-addons-${day}.csv"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    return fromError(err);
  }
}
