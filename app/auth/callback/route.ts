// The provider sends the browser back here with a code: exchange it, check state/nonce/PKCE, map the
// groups to a role, and start a session. Every outcome is audited.
import { NextResponse, type NextRequest } from "next/server";
import { recordAudit } from "@/lib/auth/audit";
import { authConfig } from "@/lib/auth/config";
import { sessionCookieOptions } from "@/lib/auth/guard";
import { completeSignIn, sessionSecret, SignInError, TRANSACTION_COOKIE } from "@/lib/auth/oidc";
import { safeReturnTo } from "@/lib/auth/return-to";
import { SESSION_COOKIE, sealSession } from "@/lib/auth/session";
import { oneLine } from "@/lib/errors";
import { logger } from "@/lib/logger";

export const dynamic = "force-dynamic";

const log = logger.child({ component: "auth" });

export async function GET(request: NextRequest) {
  const cfg = authConfig();
  const base = cfg.publicOrigin ?? request.nextUrl.origin;
  const failed = (reason: string) => {
    const response = NextResponse.redirect(new URL(`/auth/signin?error=${reason}`, base), 303);
    response.cookies.delete({ name: TRANSACTION_COOKIE, path: "/auth" });
    return response;
  };
  if (cfg.mode === "none") return NextResponse.redirect(new URL("/", base), 303);
  try {
    const { session, returnTo } = await completeSignIn(cfg, request.nextUrl.searchParams, request.cookies.get(TRANSACTION_COOKIE)?.value);
    await recordAudit({ actor: session.sub, actorName: session.name, role: session.role, action: "sign-in", result: "ok" });
    // returnTo was checked when the sign-in began; checked again here, as it decides where the browser goes.
    const response = NextResponse.redirect(new URL(safeReturnTo(returnTo, base), base), 303);
    response.cookies.set(SESSION_COOKIE, await sealSession(session, sessionSecret(cfg)), sessionCookieOptions(cfg));
    response.cookies.delete({ name: TRANSACTION_COOKIE, path: "/auth" });
    return response;
  } catch (err) {
    if (err instanceof SignInError) {
      log.warn({ reason: err.reason, err: err.message }, "sign-in refused");
      if (err.who)
        await recordAudit({
          actor: err.who.sub,
          actorName: err.who.name,
          role: "none",
          action: "sign-in",
          result: "denied",
          detail: err.message,
        }).catch(() => undefined);
      return failed(err.reason);
    }
    log.error({ err: oneLine(err) }, "sign-in failed");
    return failed("provider");
  }
}
