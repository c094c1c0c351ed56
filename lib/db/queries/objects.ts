// One Flux object with everything needed to understand it: conditions, source chain and commit, last good
// revision, dependencies with their health, inventory, Helm history and versions, kept Events, a timeline
// of transitions and webhook events, and audit entries. Answers from history for a deleted object or an
// unreachable cluster.
import { commitLink, type CommitLink } from "../../fleet/commit-url";
import { helmVersions, type HelmVersions } from "../../fleet/helm-versions";
import type { ObjectKind } from "../../fleet/kinds";
import { lastGoodFromStatus } from "../../fleet/last-good";
import { conditionMessage } from "../../fleet/message";
import { entryRevision } from "../../fleet/revisions";
import { troubledSource, upstreamOf, type ChainLink, type ChainRef } from "../../fleet/source-chain";
import {
  failingForSeconds,
  parseHealth,
  parseHealthDetail,
  unclaimedForSeconds,
  type Health,
  type HealthDetail,
  type Reachability,
} from "../../fleet/status";
import { clusterPath, objectPath } from "../../fleet/urls";
import { fluxKubeconfigRef } from "../../kube/crossplane";
import type { ClusterEvent } from "./clusters";
import { num, obj, records, str } from "../../kube/raw";
import { getPool } from "../client";
import { argoDetailView, type ArgoDetailView } from "./argocd-details";
import type { AuditEntryRow, ClusterRow, FluxObjectRow, KubeEventRow, WebhookEventRow } from "../rows";
import { healthOf, iso, parseDependsOn, reachabilityOf, type TransitionListRow } from "./shared";

export interface ObjectRef {
  cluster: string;
  kind: ObjectKind;
  namespace: string;
  name: string;
}

export interface RevisionInfo {
  revision: string;
  commit: CommitLink | null;
}

export type TimelineEntry =
  | {
      type: "transition";
      at: string;
      change: string;
      fields: string[];
      health: string;
      /** drifted / static, when the entry records drift found ("drift" in fields). */
      healthDetail: string | null;
      previousHealth: string | null;
      reason: string | null;
      message: string | null;
      revision: string | null;
    }
  | {
      type: "webhook";
      at: string;
      severity: string;
      reason: string;
      message: string;
      revision: string | null;
      reportingController: string | null;
    };

export interface ObjectDetail {
  generatedAt: string;
  ref: ObjectRef & { url: string };
  cluster: {
    name: string;
    url: string;
    reachability: Reachability;
    lastSuccessAt: string | null;
    lastErrorAt: string | null;
    lastError: string | null;
  };
  /**
   * A hub object with spec.kubeConfig.secretRef: it lives in `cluster` but applies to the cluster its secret
   * reaches (null cluster when the secret leads to no cluster we know).
   */
  appliesTo: { cluster: string | null; url: string | null; secret: string; through?: string } | null;
  /** Argo CD's specifics of an Application or ApplicationSet (null for Flux kinds). */
  argocd: ArgoDetailView | null;
  /** Set when what is shown is not live: the cluster is unreachable or the object was deleted. */
  historical: { reason: "cluster-unreachable" | "deleted"; asOf: string | null } | null;
  object: {
    apiVersion: string;
    health: Health;
    storedHealth: string;
    /** static (OCI HelmRepository: healthy with an empty status) or drifted (Ready, Drifted=True). */
    healthDetail: HealthDetail | null;
    /** The Drifted condition when the object is drifted: what differs, since when. */
    drift: { reason: string | null; message: string | null; since: string | null } | null;
    /** New or unclaimed: seconds since creation without a word from its controller. */
    waitingForSeconds: number | null;
    creationTimestamp: string | null;
    readyStatus: string | null;
    readyReason: string | null;
    readyMessage: string | null;
    stalledReason: string | null;
    stalledMessage: string | null;
    reconciling: boolean;
    suspended: boolean;
    conditions: Array<{ type: string; status: string; reason: string | null; message: string | null; lastTransitionTime: string | null }>;
    generation: number | null;
    observedGeneration: number | null;
    interval: string | null;
    lastReconcileAt: string | null;
    lastHandledReconcileAt: string | null;
    firstSeenAt: string;
    firstFailedAt: string | null;
    failingForSeconds: number | null;
    /** Ready.lastTransitionTime, only while the object is ready. */
    readySince: string | null;
    lastReadyAt: string | null;
    deletedAt: string | null;
    updatedAt: string;
    url: string | null;
  };
  revisions: {
    applied: RevisionInfo | null;
    attempted: RevisionInfo | null;
    /** "observed": we saw the object ready on it; "status": from its own status.history (first seen failing). */
    lastGood: (RevisionInfo & { at: string | null; from: "observed" | "status" }) | null;
  };
  source: {
    kind: string;
    namespace: string;
    name: string;
    url: string;
    health: Health | "missing";
    repositoryUrl: string | null;
    revision: string | null;
  } | null;
  /** Where the manifests come from, link by link (HelmRelease → HelmChart → HelmRepository …), each with its health. */
  chain: Array<ChainLink & { url: string }>;
  /** The first link in trouble while this object is ready: it runs on the last artifact that link gave. */
  chainTrouble: (ChainLink & { url: string }) | null;
  dependsOn: Array<{ kind: string; namespace: string; name: string; url: string; health: Health | "missing" }>;
  inventory: {
    total: number;
    byKind: Array<{ kind: string; count: number }>;
    entries: Array<{ namespace: string; name: string; group: string; kind: string; version: string }>;
  } | null;
  helm: {
    chartName: string | null;
    /** The newest release's chart version, whatever its status (see versions for what is deployed). */
    chartVersion: string | null;
    /** Chart version of the newest deployed release: what runs. */
    deployedChartVersion: string | null;
    versions: HelmVersions;
    appVersion: string | null;
    desiredChartVersion: string | null;
    history: Array<{
      version: number | null;
      status: string | null;
      action: string | null;
      chartName: string | null;
      chartVersion: string | null;
      appVersion: string | null;
      firstDeployed: string | null;
      lastDeployed: string | null;
    }>;
  } | null;
  reconciliations: Array<{
    revision: string | null;
    status: string | null;
    firstReconciled: string | null;
    lastReconciled: string | null;
    total: number | null;
  }>;
  events: Array<
    ClusterEvent & {
      /** Flux's revision annotation on the Event (helm-controller: the chart version). */
      revision: string | null;
    }
  >;
  timeline: TimelineEntry[];
  auditEntries: Array<{
    at: string;
    actor: string;
    actorName: string | null;
    role: string;
    action: string;
    result: string;
    detail: string | null;
  }>;
}

/** Inventory ids are `<namespace>_<name>_<group>_<kind>` (core group empty). */
export function parseInventoryId(id: string, version: string) {
  const parts = id.split("_");
  if (parts.length < 4) return { namespace: "", name: id, group: "", kind: "", version };
  return { namespace: parts[0], name: parts[1], group: parts.slice(2, -1).join("_"), kind: parts[parts.length - 1], version };
}

function inventoryOf(value: unknown): ObjectDetail["inventory"] {
  if (!Array.isArray(value)) return null;
  const entries = records(value).map((e) => parseInventoryId(String(e.id ?? ""), String(e.v ?? "")));
  const counts = new Map<string, number>();
  for (const e of entries) {
    const k = e.group ? `${e.kind}.${e.group}` : e.kind;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return {
    total: entries.length,
    byKind: [...counts.entries()]
      .map(([kind, count]) => ({ kind, count }))
      .sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind)),
    entries: entries.slice(0, 200),
  };
}

type ObjectDetailRow = FluxObjectRow & { clusterName: string; targetClusterName: string | null } & Pick<
    ClusterRow,
    "lifecycle" | "lastSuccessAt" | "lastErrorAt" | "lastError" | "provisioning"
  >;
type RelatedRow = Pick<
  FluxObjectRow,
  | "kind"
  | "namespace"
  | "name"
  | "health"
  | "intervalSeconds"
  | "lastReconcileAt"
  | "creationTimestamp"
  | "firstSeenAt"
  | "url"
  | "appliedRevision"
  | "deletedAt"
  | "readyReason"
  | "readyMessage"
  | "sourceKind"
  | "sourceNamespace"
  | "sourceName"
  | "helmChartNamespace"
  | "helmChartName"
>;
const RELATED_COLUMNS = `kind, namespace, name, health, "intervalSeconds", "lastReconcileAt", "creationTimestamp", "firstSeenAt", url,
  "appliedRevision", "deletedAt", "readyReason", "readyMessage", "sourceKind", "sourceNamespace", "sourceName", "helmChartNamespace",
  "helmChartName"`;
type TimelineWebhookRow = Pick<
  WebhookEventRow,
  "receivedAt" | "eventTime" | "severity" | "reason" | "message" | "revision" | "reportingController"
>;
type ObjectEventRow = Pick<
  KubeEventRow,
  "type" | "reason" | "message" | "count" | "firstTimestamp" | "lastTimestamp" | "reportingController" | "revision"
>;
type ObjectAuditRow = Pick<AuditEntryRow, "at" | "actor" | "actorName" | "role" | "action" | "result" | "detail">;

export async function getObject(ref: ObjectRef, now = new Date()): Promise<ObjectDetail | null> {
  const pool = getPool();
  // Every flux_object column: the page shows nearly all of them, and the row type follows the schema.
  const { rows } = await pool.query<ObjectDetailRow>(
    `SELECT o.*, c.name AS "clusterName", c.lifecycle, c."lastSuccessAt", c."lastErrorAt", c."lastError", c.provisioning,
            t.name AS "targetClusterName"
     FROM flux_object o JOIN cluster c ON c.id = o."clusterId" LEFT JOIN cluster t ON t.id = o."targetClusterId"
     WHERE c.name = $1 AND o.kind = $2 AND o.namespace = $3 AND o.name = $4`,
    [ref.cluster, ref.kind, ref.namespace, ref.name],
  );
  const o = rows[0];
  if (!o) return null;

  const deps = parseDependsOn(o.dependsOn, o.namespace);
  const depKind = o.kind === "HelmRelease" ? "HelmRelease" : "Kustomization";
  const related: Array<{ kind: string; namespace: string; name: string }> = deps.map((d) => ({ kind: depKind, ...d }));
  const sourceRef =
    o.sourceKind && o.sourceName ? { kind: o.sourceKind, namespace: o.sourceNamespace ?? o.namespace, name: o.sourceName } : null;
  if (sourceRef) related.push(sourceRef);
  const firstHop = upstreamOf(o);
  if (
    firstHop &&
    !(sourceRef && firstHop.kind === sourceRef.kind && firstHop.namespace === sourceRef.namespace && firstHop.name === sourceRef.name)
  ) {
    related.push(firstHop);
  }

  const [relatedRows, transitions, webhooks, events, audit] = await Promise.all([
    related.length
      ? pool.query<RelatedRow>(
          `SELECT ${RELATED_COLUMNS}
           FROM flux_object WHERE "clusterId" = $1 AND (kind, namespace, name) IN (SELECT * FROM unnest($2::text[], $3::text[], $4::text[]))`,
          [o.clusterId, related.map((r) => r.kind), related.map((r) => r.namespace), related.map((r) => r.name)],
        )
      : Promise.resolve({ rows: [] as RelatedRow[] }),
    pool.query<TransitionListRow>(
      `SELECT at, change, fields, health, "healthDetail", "previousHealth", "readyReason", "readyMessage", "appliedRevision",
              "attemptedRevision", "chartVersion"
       FROM flux_object_transition WHERE "objectId" = $1 ORDER BY at DESC, id DESC LIMIT 200`,
      [o.id],
    ),
    pool.query<TimelineWebhookRow>(
      `SELECT "receivedAt", "eventTime", severity, reason, message, revision, "reportingController"
       FROM webhook_event WHERE "clusterId" = $1 AND "involvedKind" = $2 AND "involvedNamespace" = $3 AND "involvedName" = $4
       ORDER BY "receivedAt" DESC LIMIT 100`,
      [o.clusterId, o.kind, o.namespace, o.name],
    ),
    pool.query<ObjectEventRow>(
      `SELECT type, reason, message, count, "firstTimestamp", "lastTimestamp", "reportingController", revision
       FROM kube_event WHERE "clusterId" = $1 AND "involvedKind" = $2 AND "involvedNamespace" = $3 AND "involvedName" = $4
       ORDER BY "lastTimestamp" DESC LIMIT 100`,
      [o.clusterId, o.kind, o.namespace, o.name],
    ),
    pool.query<ObjectAuditRow>(
      `SELECT at, actor, "actorName", role, action, result, detail FROM audit_entry
       WHERE "clusterName" = $1 AND lower(kind) = lower($2) AND namespace = $3 AND name = $4 ORDER BY at DESC LIMIT 50`,
      [ref.cluster, o.kind, o.namespace, o.name],
    ),
  ]);

  const reachability = reachabilityOf(o);
  const health = healthOf(o, reachability, now);
  const relatedKey = (r: { kind: string; namespace: string; name: string }) => `${r.kind}/${r.namespace}/${r.name}`;
  const byKey = new Map(relatedRows.rows.map((r) => [relatedKey(r), r]));
  const healthOfRelated = (r: { kind: string; namespace: string; name: string }): Health | "missing" => {
    const row = byKey.get(relatedKey(r));
    return !row || row.deletedAt ? "missing" : healthOf(row, reachability, now);
  };

  const sourceRow = sourceRef ? byKey.get(relatedKey(sourceRef)) : undefined;
  // The Git URL a revision belongs to: the object's own (a GitRepository) or its source's.
  const repositoryUrl: string | null =
    o.kind === "GitRepository" ? o.url : sourceRef?.kind === "GitRepository" ? (sourceRow?.url ?? null) : null;
  const revisionInfo = (revision: string | null | undefined): RevisionInfo | null =>
    revision ? { revision, commit: commitLink(repositoryUrl, revision) } : null;

  const chainRows = await loadChain(o, byKey);
  const chain = chainRows.map(({ ref, row }) => ({
    ...ref,
    url: objectPath({ cluster: o.clusterName, ...ref }),
    health: !row || row.deletedAt ? ("missing" as const) : healthOf(row, reachability, now),
    reason: row?.readyReason ?? null,
    message: row?.readyMessage ?? null,
  }));

  const history = records(o.history);
  const isHelm = o.kind === "HelmRelease";
  const healthDetail = health === "ready" ? parseHealthDetail(o.healthDetail) : null;
  const conditions = records(o.conditions).map((c) => ({
    type: str(c.type) ?? "",
    status: str(c.status) ?? "",
    reason: str(c.reason),
    message: conditionMessage(c, o.readyMessage),
    lastTransitionTime: str(c.lastTransitionTime),
  }));
  const readyCondition = conditions.find((c) => c.type === "Ready");
  const driftCondition = healthDetail === "drifted" ? conditions.find((c) => c.type === "Drifted") : undefined;
  const waitingForSeconds = unclaimedForSeconds(health, o.creationTimestamp ?? o.firstSeenAt, now);
  const ownLastGood = o.lastGoodRevision ? { revision: o.lastGoodRevision, at: iso(o.lastReadyAt), from: "observed" as const } : null;
  const statusLastGood = ownLastGood ? null : lastGoodFromStatus(o.kind, o.history);
  const lastGood = ownLastGood ?? (statusLastGood ? { ...statusLastGood, from: "status" as const } : null);
  const timeline: TimelineEntry[] = [
    ...transitions.rows.map((t): TimelineEntry => ({
      type: "transition",
      at: iso(t.at)!,
      change: t.change,
      fields: t.fields ?? [],
      health: t.health,
      healthDetail: t.healthDetail,
      previousHealth: t.previousHealth,
      reason: t.readyReason,
      message: t.readyMessage,
      revision: entryRevision({ kind: o.kind, ...t }),
    })),
    ...webhooks.rows.map((w): TimelineEntry => ({
      type: "webhook",
      at: iso(w.eventTime ?? w.receivedAt)!,
      severity: w.severity,
      reason: w.reason,
      message: w.message,
      revision: w.revision,
      reportingController: w.reportingController,
    })),
  ].sort((a, b) => b.at.localeCompare(a.at));

  const deletedAt = iso(o.deletedAt);
  const argocd = argoDetailView(o);
  const kubeConfig = fluxKubeconfigRef({ metadata: { namespace: o.namespace }, spec: obj(o.spec) });
  return {
    generatedAt: now.toISOString(),
    ref: {
      cluster: o.clusterName,
      // The row was selected by this kind, so it is the kind asked for.
      kind: ref.kind,
      namespace: o.namespace,
      name: o.name,
      url: objectPath({ cluster: o.clusterName, kind: o.kind, namespace: o.namespace, name: o.name }),
    },
    cluster: {
      name: o.clusterName,
      url: clusterPath(o.clusterName),
      reachability,
      lastSuccessAt: iso(o.lastSuccessAt),
      lastErrorAt: iso(o.lastErrorAt),
      lastError: o.lastError,
    },
    appliesTo: kubeConfig
      ? {
          cluster: o.targetClusterName,
          url: o.targetClusterName ? clusterPath(o.targetClusterName) : null,
          secret: `${kubeConfig.namespace}/${kubeConfig.name}`,
        }
      : argocd?.kind === "Application" && o.targetClusterName
        ? {
            cluster: o.targetClusterName,
            url: clusterPath(o.targetClusterName),
            secret: "",
            through: `spec.destination ${argocd.app.destination.server ?? argocd.app.destination.name ?? ""}`,
          }
        : null,
    argocd,
    historical: deletedAt
      ? { reason: "deleted", asOf: deletedAt }
      : reachability === "unreachable" || reachability === "gone"
        ? { reason: "cluster-unreachable", asOf: iso(o.lastSuccessAt) }
        : null,
    object: {
      apiVersion: o.apiVersion,
      health,
      storedHealth: o.health,
      healthDetail,
      drift: driftCondition
        ? { reason: driftCondition.reason, message: driftCondition.message, since: driftCondition.lastTransitionTime }
        : null,
      waitingForSeconds,
      creationTimestamp: iso(o.creationTimestamp),
      readyStatus: o.readyStatus,
      readyReason: o.readyReason,
      readyMessage: o.readyMessage,
      stalledReason: o.stalledReason,
      stalledMessage: o.stalledMessage,
      reconciling: o.reconciling,
      suspended: o.suspended,
      conditions,
      generation: o.generation,
      observedGeneration: o.observedGeneration,
      interval: o.interval,
      lastReconcileAt: iso(o.lastReconcileAt),
      lastHandledReconcileAt: o.lastHandledReconcileAt,
      firstSeenAt: iso(o.firstSeenAt)!,
      firstFailedAt: iso(o.firstFailedAt),
      failingForSeconds: failingForSeconds(health === "unknown" ? parseHealth(o.health) : health, o.firstFailedAt, now),
      readySince: o.health === "ready" && readyCondition?.status === "True" ? iso(readyCondition.lastTransitionTime) : null,
      lastReadyAt: iso(o.lastReadyAt),
      deletedAt,
      updatedAt: iso(o.updatedAt)!,
      url: o.url,
    },
    revisions: {
      applied: revisionInfo(o.appliedRevision),
      attempted: revisionInfo(o.attemptedRevision),
      lastGood: lastGood ? { ...revisionInfo(lastGood.revision)!, at: lastGood.at, from: lastGood.from } : null,
    },
    source: sourceRef
      ? {
          ...sourceRef,
          url: objectPath({ cluster: o.clusterName, ...sourceRef }),
          health: healthOfRelated(sourceRef),
          repositoryUrl: sourceRow?.url ?? null,
          revision: sourceRow?.appliedRevision ?? null,
        }
      : null,
    chain,
    // A deleted object consumes nothing any more: its chain is history, not a warning.
    chainTrouble: deletedAt ? null : troubledSource(health, chain),
    dependsOn: deps.map((d) => {
      const r = { kind: depKind, ...d };
      return { ...r, url: objectPath({ cluster: o.clusterName, ...r }), health: healthOfRelated(r) };
    }),
    inventory: inventoryOf(o.inventory),
    helm: isHelm
      ? {
          chartName: o.chartName,
          chartVersion: o.chartVersion,
          deployedChartVersion: o.deployedChartVersion,
          versions: helmVersions({
            deployed: o.deployedChartVersion,
            attempted: o.attemptedRevision,
            latest: history[0] ? { chartVersion: str(history[0].chartVersion), status: str(history[0].status) } : null,
            health: o.health,
          }),
          appVersion: o.appVersion,
          desiredChartVersion: o.desiredChartVersion,
          history: history.map((h) => ({
            version: num(h.version),
            status: str(h.status),
            action: str(h.action),
            chartName: str(h.chartName),
            chartVersion: str(h.chartVersion),
            appVersion: str(h.appVersion),
            firstDeployed: str(h.firstDeployed),
            lastDeployed: str(h.lastDeployed),
          })),
        }
      : null,
    reconciliations: isHelm
      ? []
      : history.map((h) => {
          const meta = obj(h.metadata);
          return {
            revision: str(meta.revision),
            status: str(h.lastReconciledStatus),
            firstReconciled: str(h.firstReconciled),
            lastReconciled: str(h.lastReconciled),
            total: num(h.totalReconciliations),
          };
        }),
    events: events.rows.map((e) => ({
      type: e.type,
      reason: e.reason,
      message: e.message,
      count: e.count,
      firstTimestamp: iso(e.firstTimestamp)!,
      lastTimestamp: iso(e.lastTimestamp)!,
      reportingController: e.reportingController,
      revision: e.revision,
    })),
    timeline,
    auditEntries: audit.rows.map((a) => ({
      at: iso(a.at)!,
      actor: a.actor,
      actorName: a.actorName,
      role: a.role,
      action: a.action,
      result: a.result,
      detail: a.detail,
    })),
  };
}

/**
 * The source chain of an object, link by link, each with its stored row when there is one. A HelmChart
 * not generated yet (or already collected) is a missing link; the chain then goes on from the release's
 * own source reference, so the repository still shows.
 */
async function loadChain(
  o: Parameters<typeof upstreamOf>[0] & { clusterId: number },
  known: Map<string, RelatedRow>,
): Promise<Array<{ ref: ChainRef; row: RelatedRow | undefined }>> {
  const key = (r: ChainRef) => `${r.kind}/${r.namespace}/${r.name}`;
  const out: Array<{ ref: ChainRef; row: RelatedRow | undefined }> = [];
  const seen = new Set([key(o)]);
  let next = upstreamOf(o);
  while (next && !seen.has(key(next)) && out.length < 4) {
    seen.add(key(next));
    let row = known.get(key(next));
    if (!row) {
      const { rows } = await getPool().query<RelatedRow>(
        `SELECT ${RELATED_COLUMNS} FROM flux_object WHERE "clusterId" = $1 AND kind = $2 AND namespace = $3 AND name = $4`,
        [o.clusterId, next.kind, next.namespace, next.name],
      );
      row = rows[0];
      if (row) known.set(key(next), row);
    }
    out.push({ ref: next, row });
    const present = row && !row.deletedAt ? row : undefined;
    next = present
      ? upstreamOf(present)
      : out.length === 1 &&
          o.kind === "HelmRelease" &&
          next.kind === "HelmChart" &&
          o.sourceKind &&
          o.sourceName &&
          o.sourceKind !== "HelmChart"
        ? { kind: o.sourceKind, namespace: o.sourceNamespace ?? o.namespace, name: o.sourceName }
        : null;
  }
  return out;
}
