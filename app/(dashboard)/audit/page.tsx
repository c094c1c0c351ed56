// The audit log, for admins: sign-ins and every operator action attempt, newest first, filterable.
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { z } from "zod";
import { AuditTable } from "@/app/auth/_components/audit-table";
import { listAuditEntries } from "@/lib/auth/audit";
import { requirePageSession } from "@/lib/auth/guard";

export const metadata: Metadata = { title: "Audit log" };

const PAGE = 100;
const text = z.string().trim().min(1).max(253).optional().catch(undefined);
const query = z.object({
  cluster: text,
  actor: text,
  before: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional()
    .catch(undefined),
});

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const session = await requirePageSession();
  if (session.role !== "admin") {
    // proxy.ts already answers 403; this covers a misconfigured matcher.
    return <p role="alert">The audit log is for admins.</p>;
  }
  const raw = await searchParams;
  const filters = query.parse({ cluster: first(raw.cluster), actor: first(raw.actor), before: first(raw.before) });
  const entries = await listAuditEntries({
    clusterName: filters.cluster,
    actor: filters.actor,
    beforeId: filters.before ? BigInt(filters.before) : undefined,
    limit: PAGE,
  });
  const older =
    entries.length === PAGE
      ? new URLSearchParams({
          ...(filters.cluster ? { cluster: filters.cluster } : {}),
          ...(filters.actor ? { actor: filters.actor } : {}),
          before: entries[entries.length - 1].id,
        })
      : null;
  return (
    <>
      <h1 className="text-2xl font-semibold">Audit log</h1>
      <form action="/audit" className="mt-4 flex flex-wrap items-end gap-3 text-sm">
        <label className="flex flex-col">
          Cluster
          <input
            name="cluster"
            defaultValue={filters.cluster}
            className="rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          />
        </label>
        <label className="flex flex-col">
          Actor
          <input
            name="actor"
            defaultValue={filters.actor}
            className="rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          />
        </label>
        <button type="submit" className="rounded border border-zinc-300 px-3 py-1 dark:border-zinc-700">
          Filter
        </button>
      </form>
      <div className="mt-4">
        <AuditTable entries={entries} showObject caption="Audit log" />
      </div>
      {older ? (
        <p className="mt-4">
          <Link href={`/audit?${older.toString()}`} className="underline">
            Older entries
          </Link>
        </p>
      ) : null}
    </>
  );
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
