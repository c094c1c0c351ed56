// The cluster's Flux objects by kind, problems first within each kind, with exact counts.
import Link from "next/link";
import { DataTable } from "@/app/_components/data-table";
import { HealthBadge } from "@/app/_components/health-badge";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { link, Section } from "@/app/_components/triage-section";
import type { ClusterDetail, ClusterObject } from "@/lib/db/queries/clusters";
import { FLUX_KINDS, kindSlug } from "@/lib/fleet/kinds";
import { formatDuration } from "@/lib/time";
import { Counts } from "../../../_fleet/fleet-live.client";

function ObjectsTable({ kind, objects }: { kind: string; objects: ClusterObject[] }) {
  return (
    <DataTable
      caption={`${kind} objects`}
      rows={objects}
      rowKey={(o) => o.url}
      rowAttributes={(o) => ({ "data-object": `${o.namespace}/${o.name}` })}
      tableClassName="min-w-[44rem]"
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
        {
          header: "Health",
          cell: (o) => (
            <>
              <HealthBadge health={o.health} />
              {o.failingForSeconds != null ? (
                <span className="mt-1 block text-xs text-zinc-500">for {formatDuration(o.failingForSeconds * 1000)}</span>
              ) : null}
            </>
          ),
        },
        {
          header: "Message",
          className: "max-w-md",
          cell: (o) => (
            <>
              {o.readyReason ? <span className="font-medium">{o.readyReason}: </span> : null}
              <span className="line-clamp-2 break-words text-xs text-zinc-700 dark:text-zinc-300" title={o.readyMessage ?? undefined}>
                {o.readyMessage}
              </span>
            </>
          ),
        },
        { header: "Revision", className: "max-w-48 break-all font-mono text-xs", cell: (o) => o.revision ?? "–" },
        { header: "Last reconcile", className: "whitespace-nowrap text-xs", cell: (o) => <RelativeTime value={o.lastReconcileAt} /> },
      ]}
    />
  );
}

export function ObjectsSection({ c }: { c: ClusterDetail }) {
  return (
    <Section id="objects" title="Flux objects" actions={<Counts counts={c.totals} />}>
      {FLUX_KINDS.map((kind) => {
        const list = c.objects.filter((o) => o.kind === kind);
        if (!list.length) return null;
        return (
          <div key={kind} className="mt-4 first:mt-0">
            <h3 className="mb-2 flex flex-wrap items-center gap-3 text-base font-semibold">
              {kind}s <Counts counts={c.counts[kindSlug(kind)]} />
            </h3>
            <ObjectsTable kind={kind} objects={list} />
          </div>
        );
      })}
      {c.objects.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">No Flux objects collected.</p> : null}
    </Section>
  );
}
