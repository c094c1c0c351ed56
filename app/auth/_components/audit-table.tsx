// Audit entries as a table: when, who (and their role), what, on which object, and what came of it.
import Link from "next/link";
import { RelativeTime } from "@/app/_components/relative-time.client";
import type { AuditRow } from "@/lib/auth/audit";

const RESULT_STYLE: Record<string, string> = {
  ok: "text-emerald-700 dark:text-emerald-400",
  error: "text-red-700 dark:text-red-400",
  denied: "text-amber-700 dark:text-amber-400",
};

function objectHref(e: AuditRow): string | null {
  if (!e.clusterName || !e.kind || !e.namespace || !e.name) return null;
  return `/clusters/${encodeURIComponent(e.clusterName)}/${e.kind.toLowerCase()}/${encodeURIComponent(e.namespace)}/${encodeURIComponent(e.name)}`;
}

export function AuditTable({ entries, showObject, caption }: { entries: AuditRow[]; showObject: boolean; caption: string }) {
  if (entries.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">No audit entries.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="audit-table">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs uppercase text-zinc-500">
          <tr>
            <th scope="col" className="py-2 pr-4">
              When
            </th>
            <th scope="col" className="py-2 pr-4">
              Who
            </th>
            <th scope="col" className="py-2 pr-4">
              Action
            </th>
            {showObject ? (
              <th scope="col" className="py-2 pr-4">
                Object
              </th>
            ) : null}
            <th scope="col" className="py-2 pr-4">
              Result
            </th>
            <th scope="col" className="py-2">
              Detail
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => {
            const href = objectHref(e);
            return (
              <tr key={e.id} className="border-t border-zinc-200 align-top dark:border-zinc-800" data-testid="audit-row">
                <td className="py-2 pr-4 whitespace-nowrap">
                  <RelativeTime value={e.at} />
                </td>
                <td className="py-2 pr-4">
                  <span title={e.actor}>{e.actorName ?? e.actor}</span> <span className="text-xs text-zinc-500">({e.role})</span>
                </td>
                <td className="py-2 pr-4">{e.action}</td>
                {showObject ? (
                  <td className="py-2 pr-4">
                    {href ? (
                      <Link
                        href={href}
                        className="underline-offset-2 hover:underline"
                      >{`${e.clusterName} · ${e.kind} ${e.namespace}/${e.name}`}</Link>
                    ) : (
                      "—"
                    )}
                  </td>
                ) : null}
                <td className={`py-2 pr-4 font-medium ${RESULT_STYLE[e.result] ?? ""}`}>{e.result}</td>
                <td className="py-2 break-words text-zinc-700 dark:text-zinc-300">{e.detail ?? ""}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
