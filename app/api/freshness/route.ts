import { authorizeRequest } from "@/lib/auth/guard";
import { getFreshness } from "@/lib/db/queries/freshness";
import { fromError, json } from "@/lib/http/response";

// Reads the database on every request (and stays testable outside a Next.js request scope).
export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    return json(await getFreshness());
  } catch (err) {
    return fromError(err);
  }
}
