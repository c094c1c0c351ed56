"use client";

// The parts of an object page that change while someone watches: its health and its timeline.
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/app/_components/fetch-json";
import { HealthBadge } from "@/app/_components/health-badge";
import { RelativeTime } from "@/app/_components/relative-time.client";
import type { ObjectDetail } from "@/lib/db/queries/objects";
import { objectApiPath } from "@/lib/fleet/urls";
import { queryKeys } from "@/lib/query-keys";
import { formatDuration } from "@/lib/time";

function useObject(initial: ObjectDetail) {
  const { cluster, kind, namespace, name } = initial.ref;
  return useQuery({
    queryKey: queryKeys.object(cluster, kind, namespace, name),
    queryFn: () => fetchJson<ObjectDetail>(objectApiPath(initial.ref), "object"),
    initialData: initial,
    refetchInterval: 15_000,
  });
}

export function ObjectStatusLive({ initial }: { initial: ObjectDetail }) {
  const { data } = useObject(initial);
  const o = (data ?? initial).object;
  return (
    <span className="flex flex-wrap items-center gap-2" aria-live="polite" data-testid="object-health">
      <HealthBadge health={o.health} />
      {o.health === "unknown" ? <span className="text-sm text-zinc-600 dark:text-zinc-400">last known:</span> : null}
      {o.health === "unknown" ? <HealthBadge health={o.storedHealth} /> : null}
      {o.failingForSeconds != null ? (
        <span className="text-sm font-medium text-health-failing" data-testid="failing-for">
          failing for {formatDuration(o.failingForSeconds * 1000)}
        </span>
      ) : null}
    </span>
  );
}

export function TimelineLive({ initial }: { initial: ObjectDetail }) {
  const { data } = useObject(initial);
  const timeline = (data ?? initial).timeline;
  if (!timeline.length) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Nothing recorded yet.</p>;
  return (
    <ol className="space-y-3" data-testid="timeline" aria-live="polite">
      {timeline.map((t, i) => (
        <li
          key={`${t.type}-${t.at}-${i}`}
          data-type={t.type}
          data-health={t.type === "transition" ? t.health : undefined}
          data-previous-health={t.type === "transition" ? (t.previousHealth ?? undefined) : undefined}
          className="border-l-2 border-zinc-300 pl-3 text-sm dark:border-zinc-700"
        >
          <div className="flex flex-wrap items-center gap-2">
            <RelativeTime value={t.at} className="text-xs text-zinc-500" />
            {t.type === "transition" ? (
              <>
                <span className="text-xs uppercase text-zinc-500">{t.change}</span>
                {t.previousHealth && t.previousHealth !== t.health ? (
                  <>
                    <HealthBadge health={t.previousHealth} /> <span aria-label="to">→</span>
                  </>
                ) : null}
                <HealthBadge health={t.health} />
                {t.reason ? <span className="font-medium">{t.reason}</span> : null}
              </>
            ) : (
              <>
                <span className="rounded bg-zinc-200 px-1.5 py-0.5 text-xs dark:bg-zinc-800">webhook · {t.severity}</span>
                <span className="font-medium">{t.reason}</span>
                {t.reportingController ? <span className="text-xs text-zinc-500">{t.reportingController}</span> : null}
              </>
            )}
          </div>
          {t.message ? (
            <p className="mt-1 whitespace-pre-wrap break-words font-mono text-xs text-zinc-700 dark:text-zinc-300">{t.message}</p>
          ) : null}
          {t.revision ? <p className="mt-0.5 break-all font-mono text-xs text-zinc-500">revision {t.revision}</p> : null}
        </li>
      ))}
    </ol>
  );
}
