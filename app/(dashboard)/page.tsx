// Fleet overview: every cluster with reachability and data age, counts per kind and health, versions.
// Filters live in the query string; the table refreshes itself.
import type { Metadata } from "next";
import { connection } from "next/server";
import { TriageFilterForm } from "@/app/_components/triage-filter-form.client";
import { requirePageSession } from "@/lib/auth/guard";
import { getFleet } from "@/lib/db/queries/fleet";
import { CLUSTER_HEALTHS, FLEET_PAGE_LIMIT, parseFleetFilters, toQueryString } from "@/lib/fleet/filters";
import { EmptyFleet } from "../_components/empty-fleet";
import { FleetLive } from "./_fleet/fleet-live.client";

export const metadata: Metadata = { title: "Fleet" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function FleetPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  await requirePageSession();
  const raw = await searchParams;
  const filters = parseFleetFilters(raw);
  const all = raw.all === "1";
  const fleet = await getFleet(filters, new Date(), { limit: all ? undefined : FLEET_PAGE_LIMIT });
  const noClusters = fleet.clusters.length === 0 && !Object.values(filters).some(Boolean);
  return (
    <>
      <h1 className="text-2xl font-semibold">Fleet</h1>
      {noClusters ? (
        <EmptyFleet />
      ) : (
        <>
          <div className="mt-4">
            <TriageFilterForm
              action="/"
              label="Filter clusters"
              fields={[
                { name: "env", label: "Environment", value: filters.env, options: fleet.facets.envs.map((v) => ({ value: v, label: v })) },
                { name: "team", label: "Team", value: filters.team, options: fleet.facets.teams.map((v) => ({ value: v, label: v })) },
                {
                  name: "region",
                  label: "Region",
                  value: filters.region,
                  options: fleet.facets.regions.map((v) => ({ value: v, label: v })),
                },
                { name: "health", label: "Health", value: filters.health, options: CLUSTER_HEALTHS.map((v) => ({ value: v, label: v })) },
                { name: "q", label: "Search", value: filters.q },
              ]}
            />
          </div>
          <FleetLive
            initial={fleet}
            queryString={toQueryString({ ...filters, limit: all ? undefined : String(FLEET_PAGE_LIMIT) })}
            showAllHref={`/${toQueryString({ ...filters, all: "1" })}`}
          />
        </>
      )}
    </>
  );
}
