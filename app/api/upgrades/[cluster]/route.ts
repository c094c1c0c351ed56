// GET /api/upgrades/{cluster}: readiness of one cluster for N→N+1 (blockers, warnings, checklist).
import { authorizeRequest } from "@/lib/auth/guard";
import { getClusterReadiness } from "@/lib/db/queries/upgrades";
import { NotFoundError } from "@/lib/errors";
import { fromError, json } from "@/lib/http/response";
import { readRouteParams } from "@/lib/http/route-params";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ cluster: string }> }) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const { cluster } = await readRouteParams(params);
    const view = await getClusterReadiness(cluster);
    if (!view) throw new NotFoundError(`cluster ${cluster} not found`);
    return json(view);
  } catch (err) {
    return fromError(err);
  }
}
