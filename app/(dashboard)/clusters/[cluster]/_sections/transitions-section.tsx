// The latest changes of the cluster's objects, newest first.
import Link from "next/link";
import { HistoryTimeline, TransitionHeading } from "@/app/_components/history-timeline";
import { link, Section } from "@/app/_components/triage-section";
import type { ClusterDetail } from "@/lib/db/queries/clusters";

export function TransitionsSection({ transitions }: { transitions: ClusterDetail["transitions"] }) {
  return (
    <Section id="transitions" title="Recent transitions">
      <HistoryTimeline
        emptyText="No transitions recorded yet."
        testId="cluster-transitions"
        items={transitions.map((t, i) => ({
          key: `${t.url}-${t.at}-${i}`,
          at: t.at,
          attributes: { "data-health": t.health },
          heading: (
            <>
              <Link href={t.url} className={link}>
                {t.kind} {t.namespace}/{t.name}
              </Link>
              <TransitionHeading previousHealth={t.previousHealth} health={t.health} reason={t.readyReason} />
            </>
          ),
        }))}
      />
    </Section>
  );
}
