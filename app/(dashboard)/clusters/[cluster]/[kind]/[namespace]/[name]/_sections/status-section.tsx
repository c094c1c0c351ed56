// The object's status: the Ready (and Stalled) message, when it started failing, reconcile facts, and
// every condition the controller wrote.
import { ConditionsTable } from "@/app/_components/conditions-table";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { Facts, Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";

export function StatusSection({ o }: { o: ObjectDetail["object"] }) {
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
            // Only a ready object is ready since anything; a failing one says since when it fails (above).
            ["Ready since", o.readySince ? <RelativeTime key="t" value={o.readySince} /> : "–"],
            ["Created", o.creationTimestamp ? <RelativeTime key="c" value={o.creationTimestamp} /> : "–"],
          ]}
        />
      </div>
      <ConditionsTable conditions={o.conditions} className="mt-3" />
    </Section>
  );
}
