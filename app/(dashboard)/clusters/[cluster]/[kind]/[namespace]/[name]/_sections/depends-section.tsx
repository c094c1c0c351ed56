// The objects this one waits for (spec.dependsOn), each with its health.
import Link from "next/link";
import { HealthBadge } from "@/app/_components/health-badge";
import { link, Section } from "@/app/_components/triage-section";
import type { ObjectDetail } from "@/lib/db/queries/objects";

export function DependsSection({ dependsOn }: { dependsOn: ObjectDetail["dependsOn"] }) {
  if (!dependsOn.length) return null;
  return (
    <Section id="depends" title="Depends on">
      <ul className="space-y-1 text-sm">
        {dependsOn.map((dep) => (
          <li key={dep.url} className="flex flex-wrap items-center gap-2">
            <Link href={dep.url} className={link}>
              {dep.kind} {dep.namespace}/{dep.name}
            </Link>
            <HealthBadge health={dep.health} />
          </li>
        ))}
      </ul>
    </Section>
  );
}
