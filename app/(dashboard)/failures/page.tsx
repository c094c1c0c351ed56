// Failures: every failing, stalled, stale and unclaimed object fleet-wide (and every unreachable cluster and
// failed Crossplane resource), grouped by cause; root causes first with the failures they cause nested under them.
import type { Metadata } from "next";
import { connection } from "next/server";
import { TriageFilterForm } from "@/app/_components/triage-filter-form.client";
import { requirePageSession } from "@/lib/auth/guard";
import { listFailures } from "@/lib/db/queries/failures";
import { FAILURE_SORTS } from "@/lib/fleet/failures";
import { FAILURE_PAGE_MEMBERS, parseFailureFilters, PROBLEMS, toQueryString } from "@/lib/fleet/filters";
import { OBJECT_KINDS, kindSlug } from "@/lib/fleet/kinds";
import { FailuresLive } from "./failures-live.client";

export const metadata: Metadata = { title: "Failures" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PROBLEM_LABELS: Record<(typeof PROBLEMS)[number], string> = {
  failing: "failing",
  stalled: "stalled",
  stale: "stale",
  unclaimed: "not picked up by its controller",
  unreachable: "unreachable",
  "create-failed": "failed to create (Crossplane)",
  crossplane: "Crossplane error",
  drifted: "drifted (ready, not a failure)",
};

const SORT_LABELS: Record<(typeof FAILURE_SORTS)[number], string> = {
  impact: "Impact (root causes first)",
  clusters: "Most clusters",
  objects: "Most objects",
  "first-failed": "Failing longest",
  newest: "Newest",
  kind: "Kind",
};

export default async function FailuresPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  await requirePageSession();
  const raw = await searchParams;
  const filters = parseFailureFilters(raw);
  const failures = await listFailures(filters, new Date(), { memberLimit: FAILURE_PAGE_MEMBERS });
  const kindValue = typeof raw.kind === "string" ? raw.kind.toLowerCase() : undefined;
  return (
    <>
      <h1 className="text-2xl font-semibold">Failures</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        What is failing across the fleet, since when, and why — grouped by cause.
      </p>
      <div className="mt-4">
        <TriageFilterForm
          action="/failures"
          label="Filter failures"
          fields={[
            {
              name: "kind",
              label: "Kind",
              value: filters.kind ? kindValue : undefined,
              options: [
                ...OBJECT_KINDS.map((k) => ({ value: kindSlug(k), label: k })),
                { value: "cluster", label: "Cluster (unreachable, Crossplane)" },
              ],
            },
            {
              name: "problem",
              label: "Problem",
              value: filters.problem,
              options: PROBLEMS.map((p) => ({ value: p, label: PROBLEM_LABELS[p] })),
            },
            {
              name: "sort",
              label: "Sort",
              value: filters.sort === "impact" ? undefined : filters.sort,
              emptyLabel: SORT_LABELS.impact,
              options: FAILURE_SORTS.filter((s) => s !== "impact").map((s) => ({ value: s, label: SORT_LABELS[s] })),
            },
            { name: "cluster", label: "Cluster", value: filters.cluster },
            { name: "q", label: "Search", value: filters.q },
          ]}
        />
      </div>
      <FailuresLive
        initial={failures}
        queryString={toQueryString({
          kind: kindValue && filters.kind ? kindValue : undefined,
          problem: filters.problem,
          sort: filters.sort,
          cluster: filters.cluster,
          env: filters.env,
          team: filters.team,
          q: filters.q,
          members: String(FAILURE_PAGE_MEMBERS),
        })}
      />
    </>
  );
}
