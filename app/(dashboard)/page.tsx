// Fleet overview. (Minimal first version from the shell work; the triage work replaces it with the
// full overview: per-cluster counts, versions, filters, live refresh.)
import { connection } from "next/server";
import { getFreshness } from "@/lib/db/queries/freshness";
import { EmptyFleet } from "../_components/empty-fleet";

export default async function FleetPage() {
  await connection();
  const freshness = await getFreshness();
  return (
    <>
      <h1 className="text-2xl font-semibold">Fleet</h1>
      {freshness.clusters === 0 ? <EmptyFleet /> : <p className="mt-4">{freshness.clusters} clusters.</p>}
    </>
  );
}
