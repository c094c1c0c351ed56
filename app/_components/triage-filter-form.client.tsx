"use client";

// Filters as a plain GET form, so the query string holds them (shareable, works without JavaScript);
// with JavaScript, changing a select applies it at once.
import { useRouter } from "next/navigation";
import type { FormEvent } from "react";

export interface FilterField {
  name: string;
  label: string;
  value: string | undefined;
  /** Options for a select; none for a text search. */
  options?: Array<{ value: string; label: string }>;
  /** Label of the empty choice (default "All"). */
  emptyLabel?: string;
}

export function TriageFilterForm({ action, label, fields }: { action: string; label: string; fields: FilterField[] }) {
  const router = useRouter();
  function apply(form: HTMLFormElement) {
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form).entries()) if (typeof v === "string" && v.trim()) params.set(k, v.trim());
    const qs = params.toString();
    router.replace(qs ? `${action}?${qs}` : action, { scroll: false });
  }
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    apply(e.currentTarget);
  }
  const hasAny = fields.some((f) => f.value);
  return (
    <form role="search" aria-label={label} method="get" action={action} onSubmit={onSubmit} className="flex flex-wrap items-end gap-3">
      {fields.map((f) => (
        <label key={f.name} className="flex flex-col text-xs font-medium text-zinc-600 dark:text-zinc-400">
          {f.label}
          {f.options ? (
            <select
              name={f.name}
              defaultValue={f.value ?? ""}
              onChange={(e) => apply(e.currentTarget.form!)}
              className="mt-1 min-w-32 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
            >
              <option value="">{f.emptyLabel ?? "All"}</option>
              {f.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          ) : (
            <input
              type="search"
              name={f.name}
              defaultValue={f.value ?? ""}
              className="mt-1 w-48 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
            />
          )}
        </label>
      ))}
      <button
        type="submit"
        className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
      >
        Apply
      </button>
      {hasAny ? (
        <a href={action} className="py-1.5 text-sm underline">
          Clear filters
        </a>
      ) : null}
    </form>
  );
}
