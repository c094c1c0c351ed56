// A titled page section with a heading id for landmarks, and a key/value list.
import type { ReactNode } from "react";

export function Section({ id, title, children, actions }: { id: string; title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="mt-8">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      <div className="mt-3">{children}</div>
    </section>
  );
}

export function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border border-zinc-200 bg-white p-4 text-sm sm:grid-cols-2 lg:grid-cols-3 dark:border-zinc-800 dark:bg-zinc-900">
      {items.map(([k, v]) => (
        <div key={k} className="min-w-0">
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">{k}</dt>
          <dd className="break-words">{v ?? "–"}</dd>
        </div>
      ))}
    </dl>
  );
}

export const tableBox = "overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900";
// Table cells and links are named classes (globals.css): long tables repeat them on every row.
export const th = "cell-head";
export const td = "cell";
export const link = "link";
