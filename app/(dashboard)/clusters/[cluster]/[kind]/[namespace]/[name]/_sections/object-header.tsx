// Breadcrumb, title with the health and how long it has been failing, and the banner that says when what follows is not live.
import Link from "next/link";
import { FailingFor } from "@/app/_components/failing-for.client";
import { HealthBadge } from "@/app/_components/health-badge";
import { HealthDetailBadge } from "@/app/_components/health-detail-badge";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { link } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";

export function ObjectHeader({ d }: { d: ObjectDetail }) {
  return (
    <>
      <nav aria-label="Breadcrumb" className="break-all text-sm text-zinc-600 dark:text-zinc-400">
        <Link href="/clusters" className={link}>
          Clusters
        </Link>{" "}
        /{" "}
        <Link href={d.cluster.url} className={link}>
          {d.cluster.name}
        </Link>{" "}
        / {d.ref.kind} /{" "}
        <span aria-current="page">
          {d.ref.namespace}/{d.ref.name}
        </span>
      </nav>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="break-all text-2xl font-semibold">
          <span className="text-zinc-500">{d.ref.kind}</span> {d.ref.namespace}/{d.ref.name}
        </h1>
        <ObjectStatus o={d.object} />
      </div>
      {d.appliesTo ? <AppliesTo d={d} appliesTo={d.appliesTo} /> : null}
      {d.historical ? <HistoricalBanner d={d} historical={d.historical} /> : null}
    </>
  );
}

/** A hub object deploying into another cluster: where it lives and where it applies. */
function AppliesTo({ d, appliesTo }: { d: ObjectDetail; appliesTo: NonNullable<ObjectDetail["appliesTo"]> }) {
  return (
    <p className="mt-2 text-sm" data-testid="applies-to">
      Lives in{" "}
      <Link href={d.cluster.url} className={link}>
        {d.cluster.name}
      </Link>
      , applies to{" "}
      {appliesTo.cluster && appliesTo.url ? (
        <Link href={appliesTo.url} className={link}>
          {appliesTo.cluster}
        </Link>
      ) : (
        "a cluster Crow's Nest does not know"
      )}{" "}
      <span className="text-xs text-zinc-500">(through {appliesTo.through ?? `spec.kubeConfig, secret ${appliesTo.secret}`})</span>
    </p>
  );
}

function HistoricalBanner({ d, historical }: { d: ObjectDetail; historical: NonNullable<ObjectDetail["historical"]> }) {
  return (
    <div
      role="status"
      data-testid="historical"
      className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
    >
      {historical.reason === "deleted" ? (
        <p className="font-semibold">
          This object was deleted <RelativeTime value={historical.asOf} />. What follows is its last known state and its history.
        </p>
      ) : (
        <p className="font-semibold">
          Cluster {d.cluster.name} is unreachable{d.cluster.lastError ? ` (${d.cluster.lastError})` : ""}. This is the last known state,
          from <RelativeTime value={historical.asOf} />.
        </p>
      )}
    </div>
  );
}

function ObjectStatus({ o }: { o: ObjectDetail["object"] }) {
  return (
    <span className="flex flex-wrap items-center gap-2" data-testid="object-health">
      <HealthBadge health={o.health} />
      <HealthDetailBadge detail={o.healthDetail} title={o.drift?.message} />
      {o.health === "unknown" ? <span className="text-sm text-zinc-600 dark:text-zinc-400">last known:</span> : null}
      {o.health === "unknown" ? <HealthBadge health={o.storedHealth} /> : null}
      {o.failingForSeconds != null ? (
        <span className="text-sm font-medium text-health-failing" data-testid="failing-for">
          <FailingFor since={o.firstFailedAt} seconds={o.failingForSeconds} />
        </span>
      ) : null}
      {o.health === "unclaimed" && o.waitingForSeconds != null ? (
        <span className="text-sm font-medium text-health-failing" data-testid="waiting-for">
          <FailingFor since={o.creationTimestamp} seconds={o.waitingForSeconds} prefix="not picked up by its controller for" />
        </span>
      ) : null}
    </span>
  );
}
