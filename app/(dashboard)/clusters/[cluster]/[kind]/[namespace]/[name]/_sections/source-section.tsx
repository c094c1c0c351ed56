// Where the object's manifests come from, and which revisions were applied, attempted and last good.
import Link from "next/link";
import { HealthBadge } from "@/app/_components/health-badge";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { Facts, link, Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";
import { Revision } from "./revision";

const mono = (key: string, text: string) => (
  <span key={key} className="break-all font-mono text-xs">
    {text}
  </span>
);

export function SourceSection({ d }: { d: ObjectDetail }) {
  const own = d.object.url;
  return (
    <Section id="source" title="Source and revisions">
      <Facts
        items={[
          [
            "Source",
            d.source ? (
              <span key="src" className="flex flex-wrap items-center gap-2">
                <Link href={d.source.url} className={link}>
                  {d.source.kind} {d.source.namespace}/{d.source.name}
                </Link>
                <HealthBadge health={d.source.health} />
              </span>
            ) : own ? (
              mono("url", own)
            ) : (
              "–"
            ),
          ],
          ["Repository", d.source?.repositoryUrl ? mono("repo", d.source.repositoryUrl) : own ? mono("own", own) : "–"],
          ["Applied revision", <Revision key="a" info={d.revisions.applied} />],
          ["Attempted revision", <Revision key="t" info={d.revisions.attempted} />],
          [
            "Last good revision",
            d.revisions.lastGood ? (
              <span key="g">
                <Revision info={d.revisions.lastGood} />{" "}
                <span className="text-xs text-zinc-500" data-testid="last-good-from">
                  (<RelativeTime value={d.revisions.lastGood.at} />
                  {d.revisions.lastGood.from === "status" ? ", from the object's status history" : ""})
                </span>
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
