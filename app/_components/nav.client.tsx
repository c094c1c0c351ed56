"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";

export const NAV_ITEMS = [
  { href: "/", label: "Fleet" },
  { href: "/failures", label: "Failures" },
  { href: "/addons", label: "Add-ons" },
  { href: "/upgrades", label: "Upgrades" },
  { href: "/clusters", label: "Clusters" },
] as const;

function isActive(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

/** Main navigation: a row on wide screens, a disclosure menu on a phone. */
export function Nav({ showAudit = false }: { showAudit?: boolean }) {
  const pathname = usePathname() ?? "/";
  const [open, setOpen] = useState(false);
  const items = showAudit ? [...NAV_ITEMS, { href: "/audit", label: "Audit" } as const] : NAV_ITEMS;
  const links = items.map((item) => {
    const active = isActive(pathname, item.href);
    return (
      <li key={item.href}>
        <Link
          href={item.href}
          aria-current={active ? "page" : undefined}
          onClick={() => setOpen(false)}
          className={`block rounded-md px-3 py-2 text-sm font-medium ${
            active
              ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900"
              : "text-zinc-700 hover:bg-zinc-200 dark:text-zinc-300 dark:hover:bg-zinc-800"
          }`}
        >
          {item.label}
        </Link>
      </li>
    );
  });
  return (
    <nav aria-label="Main" className="flex items-center">
      <button
        type="button"
        className="rounded-md border border-zinc-300 px-2 py-1 text-sm md:hidden dark:border-zinc-700"
        aria-expanded={open}
        aria-controls="main-nav-list"
        onClick={() => setOpen((v) => !v)}
      >
        Menu
      </button>
      <ul
        id="main-nav-list"
        className={`${open ? "flex" : "hidden"} absolute left-0 right-0 top-14 z-20 flex-col gap-1 border-b border-zinc-200 bg-white p-2 shadow md:static md:flex md:flex-row md:border-0 md:bg-transparent md:p-0 md:shadow-none dark:border-zinc-800 dark:bg-zinc-900 md:dark:bg-transparent`}
      >
        {links}
      </ul>
    </nav>
  );
}
