import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { z } from "zod";
import { authConfig } from "@/lib/auth/config";
import { safeReturnTo } from "@/lib/auth/return-to";

export const metadata: Metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  "no-role": "Your account is in none of the groups allowed to use Crow's Nest. Ask a platform admin to add you.",
  transaction: "The sign-in took too long or was started in another tab. Please try again.",
  provider: "The identity provider could not complete the sign-in. Please try again; if it keeps failing, tell the platform team.",
};

const query = z.object({
  returnTo: z.string().max(2048).optional(),
  error: z.enum(["no-role", "transaction", "provider"]).optional(),
  signedOut: z.literal("1").optional(),
});

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const parsed = query.safeParse(await searchParams);
  const params = parsed.success ? parsed.data : {};
  const cfg = authConfig();
  const returnTo = safeReturnTo(params.returnTo, cfg.publicOrigin);
  if (cfg.mode === "none") redirect(returnTo);
  const issuerHost = cfg.issuer ? new URL(cfg.issuer).host : "your identity provider";
  return (
    <main id="main" className="mx-auto max-w-md px-4 py-20">
      <h1 className="text-2xl font-semibold">Crow&apos;s Nest</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">Sign in to see the fleet.</p>
      {params.signedOut ? (
        <p role="status" className="mt-6 rounded border border-zinc-200 p-3 text-sm dark:border-zinc-800">
          You are signed out.
        </p>
      ) : null}
      {params.error ? (
        <p
          role="alert"
          className="mt-6 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {ERRORS[params.error]}
        </p>
      ) : null}
      {/* A link, not a form: the redirect to the provider is a plain navigation (CSP form-action stays 'self'). */}
      <a
        href={`/auth/login?returnTo=${encodeURIComponent(returnTo)}`}
        className="mt-8 inline-block rounded bg-zinc-900 px-4 py-2 font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
      >
        Sign in with {issuerHost}
      </a>
    </main>
  );
}
