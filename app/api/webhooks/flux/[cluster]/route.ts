// POST /api/webhooks/flux/{cluster}: Flux notification-controller events (Provider type generic-hmac).
import { fromError, json } from "@/lib/http/response";
import { readRouteParams } from "@/lib/http/route-params";
import { receiveFluxWebhook } from "@/lib/webhooks/receive";

// Reads the database on every request (and stays testable outside a Next.js request scope).
export const dynamic = "force-dynamic";

export async function POST(request: Request, ctx: { params: Promise<{ cluster: string }> }) {
  try {
    const { cluster } = await readRouteParams(ctx.params);
    const result = await receiveFluxWebhook(cluster, request);
    return json(result.body, { status: result.status });
  } catch (err) {
    return fromError(err);
  }
}
