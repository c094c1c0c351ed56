// GET /api/failures?kind&cluster&env&team&problem&q&sort: failures grouped by cause, same data as /failures.
import { listFailures } from "@/lib/db/queries/failures";
import { parseFailureFilters } from "@/lib/fleet/filters";
import { fromError, json } from "@/lib/http/response";

// Reads the database on every request (and stays testable outside a Next.js request scope).
export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  try {
    return json(await listFailures(parseFailureFilters(new URL(request.url).searchParams)));
  } catch (err) {
    return fromError(err);
  }
}
