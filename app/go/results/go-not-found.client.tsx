"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import type { GoResolution } from "@/lib/db/queries/go";
import { CandidateList, GoChrome } from "./go-chrome";

export function GoNotFoundDetails() {
  const params = useSearchParams();
  const query = new URLSearchParams(params?.toString() ?? "");
  query.set("format", "json");
  const { data } = useQuery({
    queryKey: ["go", query.toString()],
    // /go answers 404 with a resolution too (the candidates), so the body is read whatever the status.
    queryFn: async () => (await (await fetch(`/go?${query}`, { cache: "no-store" })).json()) as GoResolution,
  });
  const nf = data?.decision.type === "not-found" ? data.decision : null;
  return (
    <GoChrome title="No object matches this alert" labels={data?.labels ?? null} key={data ? "loaded" : "loading"}>
      <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300" data-testid="go-problem" aria-live="polite">
        {nf?.problem ?? (data ? "Nothing matches these labels." : "Looking for the nearest matches…")}
      </p>
      {nf?.nearestClusters.length ? (
        <p className="mt-4 text-sm">
          Clusters with a similar name:{" "}
          {nf.nearestClusters.map((c, i) => (
            <span key={c}>
              {i ? ", " : ""}
              <Link href={`/clusters/${encodeURIComponent(c)}`} className="text-sky-700 underline dark:text-sky-400">
                {c}
              </Link>
            </span>
          ))}
        </p>
      ) : null}
      {nf?.nearest.length ? (
        <>
          <h2 className="mt-6 text-lg font-semibold">Nearest matches</h2>
          <CandidateList items={nf.nearest} label="Nearest matches" />
        </>
      ) : null}
    </GoChrome>
  );
}
