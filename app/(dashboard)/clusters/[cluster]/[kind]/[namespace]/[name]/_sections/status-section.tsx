// The object's status: the Ready (and Stalled) message, when it started failing, reconcile facts, and
// every condition the controller wrote (a condition repeating the long message above shows an excerpt).
import { ConditionsTable } from "@/app/_components/conditions-table";
import { MessageText } from "@/app/_components/message-text";
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
          {/* The one place a long message is shown in full (collapsed); other sections show an excerpt. */}
          <div className="mt-1" data-testid="ready-message">
            <MessageText message={o.readyMessage} />
          </div>
          {o.stalledMessage && o.stalledMessage !== o.readyMessage ? (
            <MessageText message={o.stalledMessage} className="mt-1 block" />
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
            [
              "Generation",
              o.generation == null
                ? "–"
                : o.observedGeneration != null
                  ? `${o.observedGeneration} of ${o.generation} observed`
                  : // Argo CD writes no observedGeneration (and every status write bumps an Application's generation).
                    `${o.generation} (the controller reports no observed generation)`,
            ],
            ["API version", o.apiVersion],
            ["First seen", <RelativeTime key="s" value={o.firstSeenAt} />],
            // Only a ready object is ready since anything; a failing one says since when it fails (above).
            ["Ready since", o.readySince ? <RelativeTime key="t" value={o.readySince} /> : "–"],
            ["Created", o.creationTimestamp ? <RelativeTime key="c" value={o.creationTimestamp} /> : "–"],
          ]}
        />
      </div>
      <ConditionsTable
        conditions={o.conditions}
        secondary={{ fullElsewhere: [o.readyMessage, o.stalledMessage], where: "above" }}
        className="mt-3"
      />
    </Section>
  );
}
