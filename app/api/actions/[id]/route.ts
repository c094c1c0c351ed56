// GET /api/actions/:id: the state of an action still running when POST gave up waiting.
import { z } from "zod";
import { getActionResult } from "@/lib/actions/request";
import { authorizeRequest } from "@/lib/auth/guard";
import { errorResponse, fromError } from "@/lib/http/response";

export const dynamic = "force-dynamic";

const params = z.object({ id: z.string().regex(/^\d{1,18}$/) });

export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const auth = await authorizeRequest(request, "operator");
  if (!auth.ok) return auth.response;
  try {
    const { id } = params.parse(await context.params);
    const result = await getActionResult(id);
    return result ? Response.json(result) : errorResponse(404, "not_found", "no such action");
  } catch (err) {
    return fromError(err);
  }
}
