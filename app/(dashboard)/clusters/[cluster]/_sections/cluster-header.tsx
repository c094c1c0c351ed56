// Breadcrumb, name with reachability and labels, and the alert that says the data is not live.
import Link from "next/link";
import { HealthBadge } from "@/app/_components/health-badge";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { link } from "@/app/_components/triage-section";
import type { ClusterDetail } from "@/lib/db/queries/clusters";

export function ClusterHeader({ c }: { c: ClusterDetail }) {
  const unreachable = c.reachability === "unreachable" || c.reachability === "gone";
  return (
    <>
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-600 dark:text-zinc-400">
        <Link href="/clusters" className={link}>
          Clusters
        </Link>{" "}
        / <span aria-current="page">{c.name}</span>
      </nav>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold break-all">{c.name}</h1>
        <HealthBadge health={c.reachability} label={c.provisioning?.state === "failed" ? "failed to create" : undefined} />
        <span className="text-sm text-zinc-600 dark:text-zinc-400">
          {[c.role, c.env, c.team, c.region, c.accountId].filter(Boolean).join(" · ")}
        </span>
      </div>
      {c.provisioning ? (
        <div
          role="status"
          data-testid="provisioning-banner"
          className={`mt-4 rounded-lg border p-4 text-sm ${
            c.provisioning.state === "failed"
              ? "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
              : "border-blue-300 bg-blue-50 text-blue-900 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-200"
          }`}
        >
          <p className="font-semibold">
            {c.provisioning.state === "failed"
              ? "Crossplane failed to create this cluster: there is nothing to reach."
              : "Crossplane is creating this cluster: there is nothing to reach yet."}{" "}
            {c.provisioning.desiredVersion ? `Kubernetes ${c.provisioning.desiredVersion} asked for. ` : ""}
            {c.provisioning.since ? (
              <>
                Since <RelativeTime value={c.provisioning.since} />.
              </>
            ) : null}
          </p>
          <p className="mt-1">
            <a href="#provisioning" className={link}>
              Its Crossplane resources, conditions and Events
            </a>
          </p>
        </div>
      ) : unreachable ? (
        <div
          role="alert"
          className="mt-4 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          <p className="font-semibold">
            {c.reachability === "gone" ? "This cluster is no longer discovered." : "The collector cannot reach this cluster."}{" "}
            {c.lastSuccessAt ? (
              <>
                What follows is the last known state, from <RelativeTime value={c.lastSuccessAt} />.
              </>
            ) : (
              <>It has never been reached since it was first seen, so nothing is known of its objects.</>
            )}
          </p>
          {c.lastError ? (
            <p className="mt-1 break-words font-mono text-xs">
              {c.lastErrorKind ? `${c.lastErrorKind}: ` : ""}
              {c.lastError}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
