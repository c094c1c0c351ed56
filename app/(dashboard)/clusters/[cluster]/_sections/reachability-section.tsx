// When the collector last reached the cluster, its last error, latency and address.
import { RelativeTime } from "@/app/_components/relative-time.client";
import { Facts, Section } from "@/app/_components/triage-section";
import type { ClusterDetail } from "@/lib/db/queries/clusters";
import { FACT_SOURCE_LABELS } from "@/lib/fleet/cluster-facts";

const mono = (key: string, text: string | null) =>
  text ? (
    <span key={key} className="break-all font-mono text-xs">
      {text}
    </span>
  ) : (
    "–"
  );

export function ReachabilitySection({ c }: { c: ClusterDetail }) {
  return (
    <Section id="reach" title="Reachability">
      <Facts
        items={[
          ["Last successful read", <RelativeTime key="s" value={c.lastSuccessAt} />],
          ["Last attempt", <RelativeTime key="a" value={c.lastAttemptAt} />],
          [
            "Last error",
            c.lastError ? (
              <span key="e">
                <RelativeTime value={c.lastErrorAt} />: <span className="break-words font-mono text-xs">{c.lastError}</span>
              </span>
            ) : (
              "none"
            ),
          ],
          ["Latency", c.latencyMs != null ? `${c.latencyMs} ms` : "–"],
          ["Endpoint", mono("ep", c.access.endpoint)],
          [
            "EKS ARN",
            c.access.eksArn ? (
              <span key="arn">
                {mono("arn-v", c.access.eksArn)}
                {c.access.eksArnSource ? (
                  <span className="ml-1 text-xs text-zinc-500">
                    (from {c.access.eksArnSource === "kubeconfig" ? "connection secret" : FACT_SOURCE_LABELS[c.access.eksArnSource]})
                  </span>
                ) : null}
              </span>
            ) : (
              "–"
            ),
          ],
        ]}
      />
    </Section>
  );
}
