// One Flux object: conditions and message, how long it has been failing, source and commit, last good
// revision, dependencies with their health, inventory, Helm chart and history, kept Events, a timeline
// of transitions and webhook events, and audit entries. Answers from history for a deleted object or an
// unreachable cluster, and says so. Each section is a component of its own under _sections/; the live
// island re-renders them all together when the data changes.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { LiveRefresh } from "@/app/_components/live-refresh.client";
import { actionsBlockedReason } from "@/lib/actions/types";
import { requirePageSession } from "@/lib/auth/guard";
import { getObject } from "@/lib/db/queries/objects";
import { kindFromSlug } from "@/lib/fleet/kinds";
import { objectApiPath } from "@/lib/fleet/urls";
import { contentVersion, OBJECT_VOLATILE_KEYS } from "@/lib/http/content-version";
import { readPageParams, routeParam } from "@/lib/http/route-params";
import { ArgoSection } from "./_sections/argocd-section";
import { ChainSection } from "./_sections/chain-section";
import { DependsSection } from "./_sections/depends-section";
import { EventsSection } from "./_sections/events-section";
import { HelmSection } from "./_sections/helm-section";
import { InventorySection } from "./_sections/inventory-section";
import { ObjectHeader } from "./_sections/object-header";
import { ReconciliationsSection } from "./_sections/reconciliations-section";
import { SourceSection } from "./_sections/source-section";
import { StateNotice } from "./_sections/state-notice";
import { StatusSection } from "./_sections/status-section";
import { TimelineSection } from "./_sections/timeline-section";
import { ObjectActions } from "./object-actions";

type Params = Promise<{ cluster: string; kind: string; namespace: string; name: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const p = await params;
  const [namespace, name, cluster] = [routeParam(p.namespace), routeParam(p.name), routeParam(p.cluster)];
  return { title: namespace && name && cluster ? `${namespace}/${name} · ${cluster}` : "Not found" };
}

export default async function ObjectPage({ params }: { params: Params }) {
  await connection();
  await requirePageSession();
  const p = await readPageParams(params);
  const kind = kindFromSlug(p.kind);
  if (!kind) notFound();
  const d = await getObject({ cluster: p.cluster, kind, namespace: p.namespace, name: p.name });
  if (!d) notFound();
  // A long message is shown in full once, under Status; the timeline and Events show excerpts.
  const secondary = { fullElsewhere: [d.object.readyMessage, d.object.stalledMessage], where: "under Status" };
  return (
    <>
      {/* Re-renders every section below when the object's JSON route reports another version. */}
      <LiveRefresh apiPath={objectApiPath(d.ref)} cluster={d.ref.cluster} version={contentVersion(d, OBJECT_VOLATILE_KEYS)} />
      <ObjectHeader d={d} />
      <StateNotice d={d} />
      {/* Operator actions (reconcile, suspend, resume) and the object's audit trail (auditEntries). */}
      <ObjectActions
        cluster={d.ref.cluster}
        kind={p.kind}
        namespace={d.ref.namespace}
        name={d.ref.name}
        suspended={d.object.suspended}
        exists={!d.object.deletedAt}
        blocked={actionsBlockedReason(d.cluster)}
      />
      <StatusSection o={d.object} />
      <ArgoSection argocd={d.argocd} />
      <SourceSection d={d} />
      <ChainSection d={d} />
      <DependsSection dependsOn={d.dependsOn} />
      <HelmSection helm={d.helm} />
      <ReconciliationsSection reconciliations={d.reconciliations} />
      <InventorySection inventory={d.inventory} />
      <TimelineSection timeline={d.timeline} secondary={secondary} />
      <EventsSection events={d.events} secondary={secondary} />
    </>
  );
}
