import Link from "next/link";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { requirePageSession } from "@/lib/auth/guard";
import { getFreshness } from "@/lib/db/queries/freshness";
import { UserMenu } from "../auth/_components/user-menu";
import { FreshnessBadge } from "../_components/freshness.client";
import { Nav } from "../_components/nav.client";
import { ThemeToggle } from "../_components/theme-toggle.client";

/** The shell every dashboard page lives in: skip link, header with navigation and data freshness. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  await connection();
  const session = await requirePageSession();
  const freshness = await getFreshness();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-zinc-900"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-10 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/90">
        <div className="relative mx-auto flex h-14 max-w-7xl items-center gap-4 px-4">
          <Link href="/" className="flex items-center gap-2 font-semibold">
            <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" className="fill-current">
              <path d="M12 2 4 9h3v11h10V9h3z" />
            </svg>
            Crow&apos;s Nest
          </Link>
          <Nav showAudit={session?.role === "admin"} />
          <div className="ml-auto flex items-center gap-3">
            <div className="hidden sm:block">
              <FreshnessBadge initial={freshness} />
            </div>
            <ThemeToggle />
            <UserMenu />
          </div>
        </div>
        <div className="px-4 pb-2 sm:hidden">
          <FreshnessBadge initial={freshness} followsChanges={false} />
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
        {children}
      </main>
    </div>
  );
}
