// A revision, linked to its commit when the Git host is known.
import { link } from "@/app/_components/triage-section";
import type { RevisionInfo } from "@/lib/db/queries/objects";

export function Revision({ info }: { info: RevisionInfo | null }) {
  if (!info) return <>–</>;
  return (
    <span className="break-all font-mono text-xs">
      {info.commit ? (
        <a href={info.commit.url} className={link} rel="noreferrer" target="_blank">
          {info.revision}
          <span className="sr-only"> (commit on {info.commit.provider}, opens in a new tab)</span>
        </a>
      ) : (
        info.revision
      )}
    </span>
  );
}
