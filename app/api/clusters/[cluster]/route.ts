// GET /api/clusters/{cluster}: one cluster, same data as /clusters/{cluster}.
import { z } from "zod";
import { getCluster } from "@/lib/db/queries/clusters";
import { NotFoundError } from "@/lib/errors";
import { versionedJson } from "@/lib/http/content-version";
import { fromError } from "@/lib/http/response";

// Reads the database on every request (and stays testable outside a Next.js request scope).
export const dynamic = "force-dynamic";

const params = z.object({ cluster: z.string().min(1).max(253) });

export async function GET(request: Request, ctx: { params: Promise<{ cluster: string }> }) {
  try {
    const { cluster } = params.parse(await ctx.params);
    const detail = await getCluster(cluster);
    if (!detail) throw new NotFoundError(`no cluster named ${cluster}`);
    // The ETag lets an open cluster page ask cheaply whether anything it shows has changed.
    return versionedJson(request, detail);
  } catch (err) {
    return fromError(err);
  }
}
