// One cluster: reachability and last error, how it is reached, versions, node groups, objects by kind
// with health, recent transitions and the substitution variables its Kustomizations use. Each section is
// a component of its own under _sections/.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { requirePageSession } from "@/lib/auth/guard";
import { getCluster } from "@/lib/db/queries/clusters";
import { readPageParams, routeParam } from "@/lib/http/route-params";
import { AccessSection } from "./_sections/access-section";
import { ClusterHeader } from "./_sections/cluster-header";
import { DeletedSection } from "./_sections/deleted-section";
import { ObjectsSection } from "./_sections/objects-section";
import { ReachabilitySection } from "./_sections/reachability-section";
import { SubstitutionsSection } from "./_sections/substitutions-section";
import { TransitionsSection } from "./_sections/transitions-section";
import { VersionsSection } from "./_sections/versions-section";

type Params = Promise<{ cluster: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { cluster } = await params;
  return { title: routeParam(cluster) ?? "Not found" };
}

export default async function ClusterPage({ params }: { params: Params }) {
  await connection();
  await requirePageSession();
  const { cluster } = await readPageParams(params);
  const c = await getCluster(cluster);
  if (!c) notFound();
  return (
    <>
      <ClusterHeader c={c} />
      <ReachabilitySection c={c} />
      <AccessSection access={c.access} />
      <VersionsSection c={c} />
      <ObjectsSection c={c} />
      <TransitionsSection transitions={c.transitions} />
      <SubstitutionsSection substitutions={c.substitutions} />
      <DeletedSection deleted={c.deletedObjects} />
    </>
  );
}
