// Where the manifests come from, link by link (HelmRelease → HelmChart → HelmRepository, Kustomization →
// GitRepository …), each with its health.
import Link from "next/link";
import { HealthBadge } from "@/app/_components/health-badge";
import { link, Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";

export function ChainSection({ d }: { d: ObjectDetail }) {
  if (!d.chain.length) return null;
  return (
    <Section id="chain" title="Source chain">
      <ol className="flex flex-wrap items-center gap-2 text-sm" data-testid="source-chain">
        <li className="flex items-center gap-2">
          <span className="font-medium">
            {d.ref.kind} {d.ref.namespace}/{d.ref.name}
          </span>
          <HealthBadge health={d.object.health} />
        </li>
        {d.chain.map((l) => (
          <li key={l.url} className="flex min-w-0 items-center gap-2" data-chain-kind={l.kind} data-health={l.health}>
            <span aria-hidden="true" className="text-zinc-400">
              →
            </span>
            <Link href={l.url} className={`${link} break-all`}>
              {l.kind} {l.namespace}/{l.name}
            </Link>
            <HealthBadge health={l.health} />
          </li>
        ))}
      </ol>
    </Section>
  );
}
