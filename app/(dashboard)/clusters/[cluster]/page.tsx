// One cluster: reachability and last error, the Crossplane resources that provision it, how it is reached,
// versions (and where each came from), node groups and NotReady nodes, objects the hub applies to it,
// objects by kind with health, recent transitions and the substitution variables its Kustomizations use.
// Each section is a component of its own under _sections/; the live island re-renders them all when the
// data changes.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { LiveRefresh } from "@/app/_components/live-refresh.client";
import { requirePageSession } from "@/lib/auth/guard";
import { getCluster } from "@/lib/db/queries/clusters";
import { kindFromSlug } from "@/lib/fleet/kinds";
import { clusterApiPath } from "@/lib/fleet/urls";
import { contentVersion } from "@/lib/http/content-version";
import { readPageParams, routeParam } from "@/lib/http/route-params";
import { ArgoSecretSection } from "./_sections/argocd-secret-section";
import { AccessSection } from "./_sections/access-section";
import { ClusterHeader } from "./_sections/cluster-header";
import { DeletedSection } from "./_sections/deleted-section";
import { ManagedFromSection } from "./_sections/managed-from-section";
import { NodesSection } from "./_sections/nodes-section";
import { ObjectsSection } from "./_sections/objects-section";
import { ProvisioningSection } from "./_sections/provisioning-section";
import { ReachabilitySection } from "./_sections/reachability-section";
import { SubstitutionsSection } from "./_sections/substitutions-section";
import { TransitionsSection } from "./_sections/transitions-section";
import { VersionsSection } from "./_sections/versions-section";

type Params = Promise<{ cluster: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { cluster } = await params;
  return { title: routeParam(cluster) ?? "Not found" };
}

export default async function ClusterPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  await connection();
  await requirePageSession();
  const { cluster } = await readPageParams(params);
  const query = await searchParams;
  // Which page of the objects table, and which kind: anything else in the query string shows the first page of all.
  const view = { kind: kindFromSlug(one(query.kind) ?? ""), page: Math.max(1, Math.floor(Number(one(query.page))) || 1) };
  const c = await getCluster(cluster);
  if (!c) notFound();
  // Crossplane comes first while it is the story (the cluster is being created, or a resource failed).
  const crossplaneFirst = !!c.provisioning || c.access.provisioners.some((p) => p.state === "failed");
  return (
    <>
      {/* Re-renders every section below when the cluster's JSON route reports another version. */}
      <LiveRefresh apiPath={clusterApiPath(c.name)} cluster={c.name} version={contentVersion(c)} />
      <ClusterHeader c={c} />
      <ReachabilitySection c={c} />
      {crossplaneFirst ? <ProvisioningSection provisioners={c.access.provisioners} /> : null}
      <AccessSection access={c.access} />
      <ArgoSecretSection paths={c.access.paths} />
      <VersionsSection c={c} />
      {crossplaneFirst ? null : <ProvisioningSection provisioners={c.access.provisioners} />}
      <NodesSection nodes={c.nodes} />
      <ManagedFromSection objects={c.managedFrom} />
      <ObjectsSection c={c} view={view} />
      <TransitionsSection transitions={c.transitions} />
      <SubstitutionsSection substitutions={c.substitutions} />
      <DeletedSection deleted={c.deletedObjects} />
    </>
  );
}
