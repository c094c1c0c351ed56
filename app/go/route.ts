// GET /go?cluster&kind|customresource_kind&namespace|exported_namespace&name: alert labels → the
// canonical URL with a 302. Ambiguous or unknown labels go to /go/results, which offers a choice or
// answers 404 with the nearest matches. With format=json it answers the resolution itself (scripts, and
// the 404 page's list of nearest matches).
import { authorizeRequest } from "@/lib/auth/guard";
import { resolveGo } from "@/lib/db/queries/go";
import { fromError, json } from "@/lib/http/response";

export const dynamic = "force-dynamic";

const redirect = (location: string) => new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store" } });

export async function GET(request: Request) {
  const auth = await authorizeRequest(request, "viewer");
  if (!auth.ok) return auth.response;
  try {
    const params = new URL(request.url).searchParams;
    const resolution = await resolveGo(params);
    if (params.get("format") === "json") return json(resolution, { status: resolution.decision.type === "not-found" ? 404 : 200 });
    const { decision } = resolution;
    if (decision.type === "redirect") return redirect(decision.url);
    return redirect(`/go/results?${params.toString()}`);
  } catch (err) {
    return fromError(err);
  }
}
