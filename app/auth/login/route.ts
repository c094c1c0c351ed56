// Starts an OIDC sign-in: PKCE verifier, state and nonce go into a short-lived encrypted cookie.
import { NextResponse, type NextRequest } from "next/server";
import { authConfig } from "@/lib/auth/config";
import { beginSignIn, TRANSACTION_COOKIE, TRANSACTION_TTL_SECONDS } from "@/lib/auth/oidc";
import { oneLine } from "@/lib/errors";
import { logger } from "@/lib/logger";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest) {
  const cfg = authConfig();
  const base = cfg.publicOrigin ?? request.nextUrl.origin;
  const returnTo = request.nextUrl.searchParams.get("returnTo")?.slice(0, 2048) ?? "/";
  if (cfg.mode === "none") return NextResponse.redirect(new URL("/", base), 303);
  try {
    const { url, transaction } = await beginSignIn(cfg, returnTo);
    const response = NextResponse.redirect(url, 303);
    response.cookies.set(TRANSACTION_COOKIE, transaction, {
      httpOnly: true,
      // Lax: the provider sends the browser back with a top-level GET, which Lax cookies accompany.
      sameSite: "lax",
      secure: cfg.secureCookies,
      path: "/auth",
      maxAge: TRANSACTION_TTL_SECONDS,
    });
    return response;
  } catch (err) {
    logger.child({ component: "auth" }).error({ err: oneLine(err) }, "cannot start sign-in");
    return NextResponse.redirect(new URL("/auth/signin?error=provider", base), 303);
  }
}
