// Signs out: POST only, from one of our own pages (Origin check), then back to the sign-in page.
import { NextResponse, type NextRequest } from "next/server";
import { recordAudit } from "@/lib/auth/audit";
import { authConfig } from "@/lib/auth/config";
import { sameOrigin } from "@/lib/auth/csrf";
import { sessionFromCookie } from "@/lib/auth/resolve";
import { SESSION_COOKIE } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

export async function POST(request: NextRequest) {
  const cfg = authConfig();
  if (!sameOrigin(request.headers, request.url, cfg)) {
    return Response.json({ error: { code: "csrf", message: "request did not come from a Crow's Nest page" } }, { status: 403 });
  }
  const base = cfg.publicOrigin ?? request.nextUrl.origin;
  if (cfg.mode === "none") return NextResponse.redirect(new URL("/", base), 303);
  const session = await sessionFromCookie(request.cookies.get(SESSION_COOKIE)?.value, cfg);
  if (session)
    await recordAudit({ actor: session.sub, actorName: session.name, role: session.role, action: "sign-out", result: "ok" }).catch(
      () => undefined,
    );
  const response = NextResponse.redirect(new URL("/auth/signin?signedOut=1", base), 303);
  response.cookies.delete({ name: SESSION_COOKIE, path: "/" });
  return response;
}
