// Objects that existed and are gone; their pages answer from history.
import Link from "next/link";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { link, Section } from "@/app/_components/triage-section";
import type { ClusterDetail } from "@/lib/db/queries/clusters";

export function DeletedSection({ deleted }: { deleted: ClusterDetail["deletedObjects"] }) {
  if (!deleted.length) return null;
  return (
    <Section id="deleted" title="Deleted objects">
      <ul className="text-sm">
        {deleted.map((o) => (
          <li key={o.url}>
            <Link href={o.url} className={link}>
              {o.kind} {o.namespace}/{o.name}
            </Link>{" "}
            <span className="text-xs text-zinc-500">
              deleted <RelativeTime value={o.deletedAt} />
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
