// The parts of a cluster's object list that say what a health or a version really is: drift and static
// beside the health, the wait of an object no controller picked up, and a HelmRelease's deployed version
// apart from its last attempt ("77.14.0 deployed · 79.5.0 failed").
import { HealthDetailBadge } from "@/app/_components/health-detail-badge";
import type { ClusterObject } from "@/lib/db/queries/clusters";
import { formatHelmVersions } from "@/lib/fleet/helm-versions";
import { FailingFor } from "@/app/_components/failing-for.client";

export function HealthExtras({ o }: { o: ClusterObject }) {
  return (
    <>
      {o.healthDetail ? (
        <span className="mt-1 block">
          <HealthDetailBadge detail={o.healthDetail} title={o.driftMessage} />
        </span>
      ) : null}
      {o.waitingForSeconds != null ? (
        <span className="mt-1 block text-xs text-zinc-500" data-testid="waiting-for">
          <FailingFor
            since={o.creationTimestamp}
            seconds={o.waitingForSeconds}
            prefix={o.health === "unclaimed" ? "not picked up for" : "waiting"}
          />
        </span>
      ) : null}
    </>
  );
}

export function RevisionCell({ o }: { o: ClusterObject }) {
  if (!o.helm) return <>{o.revision ?? "–"}</>;
  const text = formatHelmVersions(o.helm);
  return (
    <span data-testid="helm-versions" className={o.helm.attempt ? "text-health-failing" : undefined}>
      {text ?? "nothing deployed"}
    </span>
  );
}
