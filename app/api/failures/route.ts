// GET /api/failures?kind&cluster&env&team&problem&q&sort[&members]: failures grouped by cause, same data as
// /failures (members=N keeps N members per group, as the page does).
import { authorizeRequest } from "@/lib/auth/guard";
import { listFailures } from "@/lib/db/queries/failures";
import { countParam, parseFailureFilters } from "@/lib/fleet/filters";
import { fromError, json } from "@/lib/http/response";

// Reads the database on every request (and stays testable outside a Next.js request scope).
export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const params = new URL(request.url).searchParams;
    const memberLimit = countParam.parse(params.get("members") ?? undefined);
    return json(await listFailures(parseFailureFilters(params), new Date(), { memberLimit }));
  } catch (err) {
    return fromError(err);
  }
}
