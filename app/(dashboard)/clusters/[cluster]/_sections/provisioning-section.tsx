// The Crossplane resources that provision the cluster: what each is doing (creating, upgrading, failed…),
// the version asked for and the one observed, its connection secret, its conditions and its Events.
import { ConditionsTable } from "@/app/_components/conditions-table";
import { EventsTable } from "@/app/_components/events-table";
import { HealthBadge } from "@/app/_components/health-badge";
import { MessageText } from "@/app/_components/message-text";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { Facts, Section } from "@/app/_components/triage-section";
import type { ClusterProvisioner } from "@/lib/db/queries/clusters";

/** A resource's state as a badge health and words. */
const STATE_BADGES: Record<string, { health: string; label: string }> = {
  creating: { health: "progressing", label: "creating" },
  waiting: { health: "progressing", label: "waiting for the cluster" },
  available: { health: "ready", label: "available" },
  updating: { health: "progressing", label: "upgrading" },
  failed: { health: "failing", label: "failed" },
  deleting: { health: "unknown", label: "deleting" },
  paused: { health: "suspended", label: "paused" },
};

const SECRET_STATES: Record<string, string> = {
  missing: "not written yet",
  empty: "published empty (no kubeconfig yet)",
  kubeconfig: "holds a kubeconfig",
};

export function ProvisioningSection({ provisioners }: { provisioners: ClusterProvisioner[] }) {
  if (!provisioners.length) return null;
  return (
    <Section id="provisioning" title="Crossplane">
      {provisioners.map((p) => (
        <ProvisionerCard key={`${p.kind}/${p.namespace}/${p.name}`} p={p} />
      ))}
    </Section>
  );
}

function ProvisionerCard({ p }: { p: ClusterProvisioner }) {
  const badge = (p.state && STATE_BADGES[p.state]) || { health: "unknown", label: "unknown" };
  return (
    <div
      className="mt-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm first:mt-0 dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="provisioner"
      data-state={p.state ?? ""}
    >
      <h3 className="flex flex-wrap items-center gap-2 font-medium">
        <span>
          {p.kind}{" "}
          <span className="font-mono">
            {p.namespace ? `${p.namespace}/` : ""}
            {p.name}
          </span>{" "}
          <span className="text-xs font-normal text-zinc-500">({p.apiVersion})</span>
        </span>
        <HealthBadge health={badge.health} label={badge.label} />
      </h3>
      {p.state === "failed" || p.state === "waiting" || p.state === "updating" ? (
        <p className="mt-2 whitespace-pre-wrap break-words font-mono text-xs" data-testid="provisioner-problem">
          {p.stateReason ? `${p.stateReason}: ` : ""}
          <MessageText message={p.stateMessage} />
        </p>
      ) : null}
      <div className="mt-3">
        <Facts
          items={[
            ["Kubernetes asked for", p.desiredVersion ?? "–"],
            ["Observed (atProvider)", p.version ? `${p.version}${p.platformVersion ? ` (${p.platformVersion})` : ""}` : "nothing yet"],
            ["AWS status", p.eksStatus ?? "–"],
            [
              "Connection secret",
              p.secretName ? `${p.secretNamespace ?? ""}/${p.secretName}: ${SECRET_STATES[p.secretState ?? ""] ?? "not read"}` : "none",
            ],
            ["Created", p.createdAt ? <RelativeTime key="c" value={p.createdAt} /> : "–"],
            ["State since", p.stateSince ? <RelativeTime key="s" value={p.stateSince} /> : "–"],
          ]}
        />
      </div>
      <ConditionsTable
        conditions={p.conditions}
        caption={`Conditions of ${p.kind} ${p.name}`}
        className="mt-3"
        secondary={{ fullElsewhere: [p.stateMessage], where: "above" }}
      />
      <div className="mt-3">
        <EventsTable
          events={p.events}
          caption={`Events of ${p.kind} ${p.name}`}
          emptyText="No Events kept for this resource."
          extraColumns={[{ header: "From", className: "text-xs", cell: (e) => e.reportingController ?? "–" }]}
        />
      </div>
    </div>
  );
}
