// GET /api/upgrades/deadline?by=YYYY-MM-DD&env&team&region[&format=csv]: which clusters must be upgraded
// before the date and what staying costs, exactly as /upgrades shows it (rows, totals per env and team).
import { authorizeRequest } from "@/lib/auth/guard";
import { getDeadlineAnswer } from "@/lib/db/queries/upgrades";
import { errorResponse, fromError, json } from "@/lib/http/response";
import { deadlineCsv, parseDeadlineQuery } from "@/lib/upgrades/deadline";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const params = new URL(request.url).searchParams;
    const format = params.get("format") ?? "json";
    if (format !== "json" && format !== "csv") return errorResponse(400, "invalid_request", "format: expected json or csv");
    params.delete("format");
    const { query, error } = parseDeadlineQuery(params);
    if (error) return errorResponse(400, "invalid_request", error);
    const { facets: _facets, ...answer } = await getDeadlineAnswer(query);
    if (format === "json") return json(answer);
    return new Response(deadlineCsv(answer), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="crows-nest-upgrades-before-${answer.date}.csv"`,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    return fromError(err);
  }
}
