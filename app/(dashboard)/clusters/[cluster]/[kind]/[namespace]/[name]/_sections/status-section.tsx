// The object's status: the Ready (and Stalled) message, when it started failing, reconcile facts, and
// every condition the controller wrote.
import { ConditionsTable } from "@/app/_components/conditions-table";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { Facts, Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";

export function StatusSection({ o }: { o: ObjectDetail["object"] }) {
  const ready = o.conditions.find((c) => c.type === "Ready");
  return (
    <Section id="status" title="Status">
      {o.readyMessage || o.stalledMessage ? (
        <div className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
          <p className="text-sm font-medium">
            {o.readyReason ?? "Ready"}
            {o.stalledReason ? ` · stalled: ${o.stalledReason}` : ""}
          </p>
          <p className="mt-1 whitespace-pre-wrap break-words font-mono text-xs" data-testid="ready-message">
            {o.readyMessage}
          </p>
          {o.stalledMessage && o.stalledMessage !== o.readyMessage ? (
            <p className="mt-1 whitespace-pre-wrap break-words font-mono text-xs">{o.stalledMessage}</p>
          ) : null}
        </div>
      ) : null}
      <div className="mt-3">
        <Facts
          items={[
            ["Failing since", o.firstFailedAt && o.failingForSeconds != null ? <RelativeTime key="f" value={o.firstFailedAt} /> : "–"],
            ["Last ready", <RelativeTime key="r" value={o.lastReadyAt} />],
            ["Last reconcile", <RelativeTime key="l" value={o.lastReconcileAt} />],
            ["Interval", o.interval ?? "–"],
            ["Suspended", o.suspended ? "yes" : "no"],
            ["Generation", o.generation != null ? `${o.observedGeneration ?? "?"} of ${o.generation} observed` : "–"],
            ["API version", o.apiVersion],
            ["First seen", <RelativeTime key="s" value={o.firstSeenAt} />],
            ["Ready since", ready?.lastTransitionTime ? <RelativeTime key="t" value={ready.lastTransitionTime} /> : "–"],
          ]}
        />
      </div>
      <ConditionsTable conditions={o.conditions} className="mt-3" />
    </Section>
  );
}
