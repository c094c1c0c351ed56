// GET /api/clusters/{cluster}: one cluster, same data as /clusters/{cluster}.
import { authorizeRequest } from "@/lib/auth/guard";
import { getCluster } from "@/lib/db/queries/clusters";
import { NotFoundError } from "@/lib/errors";
import { versionedJson } from "@/lib/http/content-version";
import { fromError } from "@/lib/http/response";
import { readRouteParams } from "@/lib/http/route-params";

// Reads the database on every request (and stays testable outside a Next.js request scope).
export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ cluster: string }> }) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const { cluster } = await readRouteParams(ctx.params);
    const detail = await getCluster(cluster);
    if (!detail) throw new NotFoundError(`no cluster named ${cluster}`);
    // The ETag lets an open cluster page ask cheaply whether anything it shows has changed.
    return versionedJson(request, detail);
  } catch (err) {
    return fromError(err);
  }
}
