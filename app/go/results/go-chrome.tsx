// Frame of the /go result pages: a way home and a search form to try other labels.
import Link from "next/link";
import type { ReactNode } from "react";
import type { GoLabels } from "@/lib/fleet/go";

export function GoChrome({ title, labels, children }: { title: string; labels: GoLabels | null; children: ReactNode }) {
  const field = "mt-1 w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900";
  return (
    <div className="mx-auto max-w-3xl px-4 py-6">
      <header>
        <Link href="/" className="font-semibold">
          Crow&apos;s Nest
        </Link>
        <span className="text-zinc-500"> · alert link</span>
      </header>
      <main id="main" className="mt-6">
        <h1 className="text-2xl font-semibold">{title}</h1>
        {children}
        <form
          method="get"
          action="/go"
          role="search"
          aria-label="Find an object"
          className="mt-8 grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 sm:grid-cols-4 dark:border-zinc-800 dark:bg-zinc-900"
        >
          <label className="text-xs font-medium">
            Cluster
            <input name="cluster" defaultValue={labels?.cluster ?? ""} className={field} />
          </label>
          <label className="text-xs font-medium">
            Kind
            <input name="kind" defaultValue={labels?.kind ?? labels?.kindText ?? ""} className={field} />
          </label>
          <label className="text-xs font-medium">
            Namespace
            <input name="namespace" defaultValue={labels?.namespaces[0] ?? ""} className={field} />
          </label>
          <label className="text-xs font-medium">
            Name
            <input name="name" defaultValue={labels?.name ?? ""} className={field} />
          </label>
          <button
            type="submit"
            className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white sm:col-span-4 sm:justify-self-start dark:bg-zinc-100 dark:text-zinc-900"
          >
            Find
          </button>
        </form>
      </main>
    </div>
  );
}

export function CandidateList({
  items,
  label,
}: {
  items: Array<{ cluster: string; kind: string; namespace: string; name: string; url: string; deleted: boolean }>;
  label: string;
}) {
  return (
    <ul
      aria-label={label}
      className="mt-4 divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900"
    >
      {items.map((c) => (
        <li key={c.url} className="px-4 py-3">
          <Link href={c.url} className="break-all text-sky-700 underline-offset-2 hover:underline dark:text-sky-400">
            {c.kind} {c.namespace}/{c.name}
          </Link>
          <span className="ml-2 text-sm text-zinc-600 dark:text-zinc-400">in {c.cluster}</span>
          {c.deleted ? <span className="ml-2 text-xs text-zinc-500">(deleted)</span> : null}
        </li>
      ))}
    </ul>
  );
}
