// The cluster's Flux objects in one table, problems first (stalled, failing, stale, …, then ready), 100 to
// a page, with a filter by kind. Counts above the table are exact whatever the page shows, so a cluster
// with thousands of objects stays a page of a few hundred kilobytes.
import Link from "next/link";
import { DataTable } from "@/app/_components/data-table";
import { FailingFor } from "@/app/_components/failing-for.client";
import { HealthBadge } from "@/app/_components/health-badge";
import { MessageExcerpt } from "@/app/_components/message-text";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { link, Section } from "@/app/_components/triage-section";
import type { ClusterDetail, ClusterObject } from "@/lib/db/queries/clusters";
import { OBJECT_KINDS, kindSlug, type ObjectKind } from "@/lib/fleet/kinds";
import { healthRank } from "@/lib/fleet/status";
import { Counts } from "../../../_fleet/fleet-live.client";
import { HealthExtras, RevisionCell } from "./object-state-cells";

const OBJECTS_PAGE_SIZE = 100;

interface ObjectsView {
  /** Only this kind; null for all. */
  kind: ObjectKind | null;
  /** 1-based page of the table. */
  page: number;
}

const kindOrder = (k: string) => {
  const i = (OBJECT_KINDS as readonly string[]).indexOf(k);
  return i < 0 ? 99 : i;
};

/** Worst health first, then by kind, namespace and name: what needs attention is on the first page. */
function problemsFirst(objects: readonly ClusterObject[]): ClusterObject[] {
  return [...objects].sort(
    (a, b) =>
      healthRank(a.health) - healthRank(b.health) ||
      kindOrder(a.kind) - kindOrder(b.kind) ||
      a.namespace.localeCompare(b.namespace) ||
      a.name.localeCompare(b.name),
  );
}

function viewHref(base: string, view: ObjectsView): string {
  const params = new URLSearchParams();
  if (view.kind) params.set("kind", kindSlug(view.kind));
  if (view.page > 1) params.set("page", String(view.page));
  const query = params.toString();
  return `${base}${query ? `?${query}` : ""}#objects`;
}

function KindFilter({ c, view }: { c: ClusterDetail; view: ObjectsView }) {
  const kinds = OBJECT_KINDS.filter((k) => c.counts[kindSlug(k)] && Object.values(c.counts[kindSlug(k)]).some((n) => n > 0));
  const total = c.objects.length;
  const item = (kind: ObjectKind | null, label: string, count: number) => {
    const current = view.kind === kind;
    return (
      <li key={label} className="flex flex-wrap items-center gap-2">
        <Link
          href={viewHref(c.url, { kind, page: 1 })}
          className={current ? "font-semibold" : link}
          aria-current={current ? "page" : undefined}
          data-kind-filter={kind ?? "all"}
        >
          {label} ({count.toLocaleString("en-US")})
        </Link>
        {kind ? <Counts counts={c.counts[kindSlug(kind)]} /> : null}
      </li>
    );
  };
  return (
    <nav aria-label="Objects by kind" className="mb-3">
      <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        {item(null, "All kinds", total)}
        {kinds.map((k) => item(k, `${k}s`, c.objects.filter((o) => o.kind === k).length))}
      </ul>
    </nav>
  );
}

export function ObjectsSection({ c, view }: { c: ClusterDetail; view: ObjectsView }) {
  const rows = problemsFirst(view.kind ? c.objects.filter((o) => o.kind === view.kind) : c.objects);
  return (
    <Section id="objects" title="Flux objects" actions={<Counts counts={c.totals} />}>
      {c.objects.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No Flux objects collected.</p>
      ) : (
        <>
          <KindFilter c={c} view={view} />
          <DataTable
            caption={`${view.kind ? `${view.kind}s` : "Flux objects"}, problems first`}
            rows={rows}
            rowKey={(o) => o.url}
            rowAttributes={(o) => ({ "data-object": `${o.namespace}/${o.name}`, "data-kind": o.kind })}
            tableClassName="min-w-[48rem]"
            testId="cluster-objects"
            paging={{
              page: view.page,
              pageSize: OBJECTS_PAGE_SIZE,
              noun: view.kind ? `${view.kind}s` : "objects",
              href: (page) => viewHref(c.url, { ...view, page }),
            }}
            columns={[
              {
                header: "Name",
                rowHeader: true,
                className: "font-medium",
                cell: (o) => (
                  <Link href={o.url} className={link}>
                    {o.namespace}/{o.name}
                  </Link>
                ),
              },
              { header: "Kind", className: "text-xs", cell: (o) => o.kind },
              {
                header: "Health",
                cell: (o) => (
                  <>
                    <HealthBadge health={o.health} />
                    {o.failingForSeconds != null ? (
                      <span className="mt-1 block text-xs text-zinc-500">
                        <FailingFor since={o.firstFailedAt} seconds={o.failingForSeconds} prefix="for" />
                      </span>
                    ) : null}
                    <HealthExtras o={o} />
                  </>
                ),
              },
              {
                header: "Message",
                className: "max-w-md",
                cell: (o) => (
                  <>
                    {o.readyReason ? <span className="font-medium">{o.readyReason}: </span> : null}
                    {/* Cut on the server: a 32 KiB message costs a line here, in full on the object's page. */}
                    <MessageExcerpt message={o.readyMessage} className="line-clamp-2 text-xs text-zinc-700 dark:text-zinc-300" />
                  </>
                ),
              },
              { header: "Revision", className: "max-w-48 break-all font-mono text-xs", cell: (o) => <RevisionCell o={o} /> },
              { header: "Last reconcile", className: "whitespace-nowrap text-xs", cell: (o) => <RelativeTime value={o.lastReconcileAt} /> },
            ]}
          />
        </>
      )}
    </Section>
  );
}
