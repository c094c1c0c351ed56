// /go/results: where /go sends labels that name more than one object (a chooser) or none (404 with the
// nearest matches).
import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { connection } from "next/server";
import { requirePageSession } from "@/lib/auth/guard";
import { resolveGo } from "@/lib/db/queries/go";
import { CandidateList, GoChrome } from "./go-chrome";

export const metadata: Metadata = { title: "Which object?" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function GoResultsPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  await requirePageSession();
  const { decision, labels } = await resolveGo(await searchParams);
  if (decision.type === "redirect") redirect(decision.url);
  // The 404 page fetches the nearest matches itself: a not-found boundary gets no props.
  if (decision.type === "not-found") notFound();
  return (
    <GoChrome title="Which object did the alert mean?" labels={labels}>
      <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">These labels match {decision.candidates.length} objects. Pick one:</p>
      <CandidateList items={decision.candidates} label="Matching objects" />
    </GoChrome>
  );
}
