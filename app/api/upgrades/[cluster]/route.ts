// GET /api/upgrades/{cluster}: readiness of one cluster for N→N+1 (blockers, warnings, checklist).
import { getClusterReadiness } from "@/lib/db/queries/upgrades";
import { NotFoundError } from "@/lib/errors";
import { fromError, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ cluster: string }> }) {
  try {
    const { cluster } = await params;
    const view = await getClusterReadiness(cluster);
    if (!view) throw new NotFoundError(`cluster ${cluster} not found`);
    return json(view);
  } catch (err) {
    return fromError(err);
  }
}
