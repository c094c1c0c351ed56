// Every cluster, by environment, with reachability: the way into a cluster page.
import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { EmptyFleet } from "@/app/_components/empty-fleet";
import { HealthBadge } from "@/app/_components/health-badge";
import { RelativeTime } from "@/app/_components/relative-time.client";
import { link } from "@/app/_components/triage-section";
import { requirePageSession } from "@/lib/auth/guard";
import { getFleet } from "@/lib/db/queries/fleet";
import { parseFleetFilters } from "@/lib/fleet/filters";

export const metadata: Metadata = { title: "Clusters" };

export default async function ClustersPage() {
  await connection();
  await requirePageSession();
  const fleet = await getFleet(parseFleetFilters({}));
  const byEnv = new Map<string, typeof fleet.clusters>();
  for (const c of [...fleet.clusters].sort((a, b) => a.name.localeCompare(b.name))) {
    const env = c.env ?? "no environment";
    byEnv.set(env, [...(byEnv.get(env) ?? []), c]);
  }
  return (
    <>
      <h1 className="text-2xl font-semibold">Clusters</h1>
      {fleet.clusters.length === 0 ? <EmptyFleet /> : null}
      {[...byEnv.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([env, clusters]) => (
          <section key={env} aria-labelledby={`env-${env}`} className="mt-6">
            <h2 id={`env-${env}`} className="text-lg font-semibold">
              {env} <span className="text-sm font-normal text-zinc-500">({clusters.length})</span>
            </h2>
            <ul className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
              {clusters.map((c) => (
                <li
                  key={c.name}
                  className="flex items-center justify-between gap-2 rounded-lg border border-zinc-200 bg-white px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900"
                >
                  <span className="min-w-0">
                    <Link href={c.url} className={`${link} break-all font-medium`}>
                      {c.name}
                    </Link>
                    <span className="block text-xs text-zinc-500">
                      {[c.team, c.region].filter(Boolean).join(" · ")} · data <RelativeTime value={c.lastSuccessAt} />
                    </span>
                  </span>
                  <HealthBadge health={c.health} />
                </li>
              ))}
            </ul>
          </section>
        ))}
    </>
  );
}
