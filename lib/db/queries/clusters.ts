// One cluster: how it is reached, versions, node groups, objects by kind with health, recent
// transitions and the substitution variables its Kustomizations use.
import type { ClusterVersionKnowledge, FactSource } from "../../fleet/cluster-facts";
import { OBJECT_KINDS, kindSlug } from "../../fleet/kinds";
import { helmVersions, type HelmVersions } from "../../fleet/helm-versions";
import { parseProvisioning } from "../../fleet/provisioning";
import { entryRevision } from "../../fleet/revisions";
import {
  failingForSeconds,
  healthRank,
  parseHealth,
  parseHealthDetail,
  unclaimedForSeconds,
  type Health,
  type HealthDetail,
  type Reachability,
} from "../../fleet/status";
import { clusterPath, objectPath } from "../../fleet/urls";
import { supportInfo, type SupportInfo } from "../../upgrades/support";
import { z } from "zod";
import type { EksNodeGroupInfo } from "../../aws/eks";
import { obj, records, str } from "../../kube/raw";
import { getPool } from "../client";
import type {
  ClusterRow,
  ClusterVersionChangeRow,
  EksVersionRow,
  FluxObjectRow,
  KubeEventRow,
  ManagedAddonRow,
  NodeGroupRow,
  NodeRow,
  ProvisioningResourceRow,
} from "../rows";
import { emptyCounts, type HealthCounts } from "./fleet";
import { healthOf, hubReachable, iso, reachabilityOf, substitutionList, versionKnowledgeOf, type TransitionListRow } from "./shared";

export interface AccessPath {
  via: string;
  secretNamespace: string | null;
  secretName: string | null;
  key: string | null;
  region: string | null;
  roleArn: string | null;
  /** What an Argo CD cluster secret says about the cluster (null for other ways in). */
  argocd: ArgoPathFacts | null;
}

const repoSchema = z
  .object({ url: z.string().nullable(), basepath: z.string().nullable(), path: z.string().nullable(), revision: z.string().nullable() })
  .nullable()
  .catch(null);
const argoPathSchema = z.object({
  name: z.string().nullable().catch(null),
  server: z.string(),
  access: z.string(),
  problem: z.string().nullable().catch(null),
  warnings: z.array(z.string()).catch([]),
  gitopsBridge: z
    .object({
      clusterName: z.string().nullable().catch(null),
      environment: z.string().nullable().catch(null),
      region: z.string().nullable().catch(null),
      accountId: z.string().nullable().catch(null),
      vpcId: z.string().nullable().catch(null),
      kubernetesVersion: z.string().nullable().catch(null),
      addons: z.record(z.string(), z.boolean()).catch({}),
      addonsRepo: repoSchema,
      workloadRepo: repoSchema,
    })
    .catch({
      clusterName: null,
      environment: null,
      region: null,
      accountId: null,
      vpcId: null,
      kubernetesVersion: null,
      addons: {},
      addonsRepo: null,
      workloadRepo: null,
    }),
});
export type ArgoPathFacts = z.infer<typeof argoPathSchema>;

export interface ClusterObject {
  kind: string;
  namespace: string;
  name: string;
  url: string;
  health: Health;
  /** static (OCI HelmRepository) or drifted (Ready, Drifted=True); shown, never counted as a problem. */
  healthDetail: HealthDetail | null;
  /** The Drifted condition's message when drifted. */
  driftMessage: string | null;
  readyReason: string | null;
  readyMessage: string | null;
  suspended: boolean;
  /** Applied revision (attempted when none applied); for a HelmRelease the deployed chart version. */
  revision: string | null;
  chartName: string | null;
  /** HelmRelease: the deployed chart version and, when it differs, the last attempt and its outcome. */
  helm: HelmVersions | null;
  lastReconcileAt: string | null;
  firstFailedAt: string | null;
  failingForSeconds: number | null;
  /** New or unclaimed: seconds since creation without a word from its controller, and the creation time. */
  waitingForSeconds: number | null;
  creationTimestamp: string | null;
}

export interface ClusterTransition {
  at: string;
  kind: string;
  namespace: string;
  name: string;
  url: string;
  change: string;
  fields: string[];
  health: string;
  previousHealth: string | null;
  readyReason: string | null;
  readyMessage: string | null;
  revision: string | null;
}

/** A Kubernetes Event kept for a node or a Crossplane resource. */
export interface ClusterEvent {
  type: string;
  reason: string;
  message: string;
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
  reportingController: string | null;
}

export interface ClusterProvisioner {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  ready: string | null;
  readyReason: string | null;
  synced: string | null;
  syncedReason: string | null;
  conditions: Array<{ type: string; status: string; reason: string | null; message: string | null; lastTransitionTime: string | null }>;
  secretNamespace: string | null;
  secretName: string | null;
  /** missing | empty | kubeconfig */
  secretState: string | null;
  createdAt: string | null;
  desiredVersion: string | null;
  version: string | null;
  platformVersion: string | null;
  eksStatus: string | null;
  /** creating | waiting | available | updating | failed | deleting | paused (lib/fleet/provisioning.ts) */
  state: string | null;
  stateReason: string | null;
  stateMessage: string | null;
  stateSince: string | null;
  /** Events of this resource, kept from the hub (newest first). */
  events: ClusterEvent[];
}

export interface NotReadyNode {
  name: string;
  nodeGroup: string | null;
  kubeletVersion: string | null;
  /** Ready condition status: False or Unknown (null: none reported) */
  readyStatus: string | null;
  readyReason: string | null;
  readyMessage: string | null;
  /** NotReady since (Ready.lastTransitionTime) */
  since: string | null;
  /** NodeNotReady and other Events of this node (newest first). */
  events: ClusterEvent[];
}

export interface ClusterDetail {
  generatedAt: string;
  name: string;
  url: string;
  role: string;
  env: string | null;
  team: string | null;
  region: string | null;
  accountId: string | null;
  labels: Record<string, string>;
  lifecycle: string;
  goneAt: string | null;
  reachability: Reachability;
  firstSeenAt: string;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  lastErrorKind: string | null;
  latencyMs: number | null;
  /** How the collector reads it (null: no collector has said yet) and why it is polled when watching was wanted. */
  collection: { mode: "watch" | "poll"; reason: string | null; since: string | null } | null;
  /** Crossplane is still creating this cluster, or failed to: there is nothing to reach yet. */
  provisioning: {
    state: "creating" | "failed";
    desiredVersion: string | null;
    /** When its first Crossplane resource was created. */
    since: string | null;
  } | null;
  access: {
    endpoint: string | null;
    eksArn: string | null;
    /** Where the ARN came from: the EKS API, a Crossplane resource, or the kubeconfig in a connection secret. */
    eksArnSource: FactSource | "kubeconfig" | null;
    eksName: string | null;
    paths: AccessPath[];
    provisioners: ClusterProvisioner[];
  };
  /** What we know of the cluster's version, how and since when (read by the upgrade pages too). */
  versionKnowledge: ClusterVersionKnowledge;
  versions: {
    kubernetes: string | null;
    eks: string | null;
    platform: string | null;
    eksStatus: string | null;
    /** Where the EKS version, platform version and status came from. */
    eksSource: FactSource | null;
    /** The EKS API's refusal for this cluster (AccessDenied…), and since when. */
    eksError: { message: string; since: string | null } | null;
    supportType: string | null;
    support: SupportInfo | null;
    flux: string | null;
    kubelets: Array<{ version: string; nodes: number }>;
  };
  /** The EKS API's node group facts (or Crossplane's, same fields) without their health issues. */
  nodeGroups: Array<
    Omit<EksNodeGroupInfo, "health"> & {
      /** Where this node group's facts came from. */
      source: FactSource;
      /** Nodes carrying its eks.amazonaws.com/nodegroup label, and how many of them are not Ready. */
      nodes: number;
      notReadyNodes: number;
    }
  >;
  /** Nodes as last listed: counts, and the ones not Ready with their Events. */
  nodes: {
    total: number;
    notReady: NotReadyNode[];
    /** Nodes in no managed node group (Karpenter, self-managed, Fargate). */
    outsideNodeGroups: number;
  };
  /** Objects in other clusters (hub Kustomizations and HelmReleases with spec.kubeConfig) that apply to this one. */
  managedFrom: Array<{ cluster: string; clusterUrl: string; kind: string; namespace: string; name: string; url: string; health: Health }>;
  addons: Array<{ name: string; version: string | null; status: string | null }>;
  counts: Record<string, HealthCounts>;
  totals: HealthCounts;
  objects: ClusterObject[];
  deletedObjects: Array<{ kind: string; namespace: string; name: string; url: string; deletedAt: string }>;
  transitions: ClusterTransition[];
  substitutions: Array<{ name: string; value: string; from: string | null }>;
}

function accessPaths(value: unknown): AccessPath[] {
  // Only the fields that say how, never anything a secret holds.
  return records(value).map((p) => ({
    via: str(p.via) ?? "unknown",
    secretNamespace: str(p.secretNamespace),
    secretName: str(p.secretName),
    key: str(p.key),
    region: str(p.region),
    roleArn: str(p.roleArn),
    // A stored shape we cannot read is shown as absent, never guessed.
    argocd: p.argocd === undefined ? null : (argoPathSchema.safeParse(p.argocd).data ?? null),
  }));
}

function conditionList(value: unknown) {
  return records(value).map((c) => ({
    type: str(c.type) ?? "",
    status: str(c.status) ?? "",
    reason: str(c.reason),
    message: str(c.message),
    lastTransitionTime: str(c.lastTransitionTime),
  }));
}

type ClusterDetailRow = Pick<
  ClusterRow,
  | "id"
  | "provisioning"
  | "desiredVersion"
  | "eksFactsSource"
  | "eksError"
  | "eksErrorSince"
  | "name"
  | "role"
  | "env"
  | "team"
  | "region"
  | "accountId"
  | "labels"
  | "lifecycle"
  | "goneAt"
  | "firstSeenAt"
  | "lastAttemptAt"
  | "lastSuccessAt"
  | "lastErrorAt"
  | "lastError"
  | "lastErrorKind"
  | "latencyMs"
  | "collectionMode"
  | "collectionModeReason"
  | "collectionModeSince"
  | "endpoint"
  | "eksArn"
  | "eksName"
  | "accessPaths"
  | "kubernetesVersion"
  | "eksVersion"
  | "platformVersion"
  | "eksStatus"
  | "supportType"
  | "fluxVersion"
  | "kubeletVersions"
  | "substitutions"
> &
  Pick<EksVersionRow, "versionStatus" | "endOfStandardSupportDate" | "endOfExtendedSupportDate">;

type ClusterObjectRow = Pick<
  FluxObjectRow,
  | "kind"
  | "namespace"
  | "name"
  | "health"
  | "healthDetail"
  | "creationTimestamp"
  | "firstSeenAt"
  | "deployedChartVersion"
  | "intervalSeconds"
  | "lastReconcileAt"
  | "readyReason"
  | "readyMessage"
  | "suspended"
  | "appliedRevision"
  | "attemptedRevision"
  | "chartName"
  | "chartVersion"
  | "firstFailedAt"
  | "deletedAt"
> & { lastReleaseStatus: string | null; driftMessage: string | null };

type ClusterTransitionRow = TransitionListRow & Pick<FluxObjectRow, "kind" | "namespace" | "name">;

type ProvisionerRow = Pick<
  ProvisioningResourceRow,
  | "apiVersion"
  | "kind"
  | "namespace"
  | "name"
  | "ready"
  | "readyReason"
  | "synced"
  | "syncedReason"
  | "conditions"
  | "secretNamespace"
  | "secretName"
  | "secretState"
  | "resourceCreatedAt"
  | "desiredVersion"
  | "eksArn"
  | "version"
  | "platformVersion"
  | "eksStatus"
  | "state"
  | "stateReason"
  | "stateMessage"
  | "stateSince"
>;

type NodeGroupListRow = Pick<
  NodeGroupRow,
  | "name"
  | "source"
  | "version"
  | "releaseVersion"
  | "status"
  | "capacityType"
  | "amiType"
  | "instanceTypes"
  | "desiredSize"
  | "minSize"
  | "maxSize"
>;

type NodeListRow = Pick<NodeRow, "name" | "nodeGroup" | "kubeletVersion" | "readyStatus" | "readyReason" | "readyMessage" | "readySince">;

type EventListRow = Pick<
  KubeEventRow,
  "involvedKind" | "involvedName" | "type" | "reason" | "message" | "count" | "firstTimestamp" | "lastTimestamp" | "reportingController"
>;

type ManagedFromRow = Pick<
  FluxObjectRow,
  "kind" | "namespace" | "name" | "health" | "intervalSeconds" | "lastReconcileAt" | "creationTimestamp" | "firstSeenAt"
> & {
  cluster: string;
} & Pick<ClusterRow, "lifecycle" | "lastSuccessAt" | "lastErrorAt" | "provisioning">;

/** Events kept per node or Crossplane resource, at most this many each. */
const EVENTS_PER_SUBJECT = 10;

const factSource = (value: string | null): FactSource | null =>
  value === "eks-api" || value === "crossplane" || value === "kubernetes" ? value : null;

function eventOf(e: EventListRow): ClusterEvent {
  return {
    type: e.type,
    reason: e.reason,
    message: e.message,
    count: e.count,
    firstTimestamp: iso(e.firstTimestamp)!,
    lastTimestamp: iso(e.lastTimestamp)!,
    reportingController: e.reportingController,
  };
}

/** Kept Events of some subjects (kind + name) in one cluster, newest first, EVENTS_PER_SUBJECT each. */
async function eventsOf(
  pool: ReturnType<typeof getPool>,
  clusterId: number | null,
  subjects: Array<{ kind: string; name: string }>,
): Promise<Map<string, ClusterEvent[]>> {
  const out = new Map<string, ClusterEvent[]>();
  if (clusterId === null || !subjects.length) return out;
  // Read only: which Events the collector keeps is its own policy. Nodes and cluster-scoped Crossplane
  // resources have their Events in namespace "default" with an empty involvedObject.namespace.
  const { rows } = await pool.query<EventListRow>(
    `SELECT "involvedKind", "involvedName", type, reason, message, count, "firstTimestamp", "lastTimestamp", "reportingController"
       FROM (SELECT e.*, row_number() OVER (PARTITION BY "involvedKind", "involvedName" ORDER BY "lastTimestamp" DESC, id DESC) AS n
               FROM kube_event e
              WHERE "clusterId" = $1 AND ("involvedKind", "involvedName") IN (SELECT * FROM unnest($2::text[], $3::text[]))) ranked
      WHERE n <= $4 ORDER BY "lastTimestamp" DESC`,
    [clusterId, subjects.map((s) => s.kind), subjects.map((s) => s.name), EVENTS_PER_SUBJECT],
  );
  for (const e of rows) {
    const key = `${e.involvedKind}/${e.involvedName}`;
    const list = out.get(key) ?? [];
    list.push(eventOf(e));
    out.set(key, list);
  }
  return out;
}

export async function getCluster(name: string, now = new Date()): Promise<ClusterDetail | null> {
  const pool = getPool();
  const { rows } = await pool.query<ClusterDetailRow>(
    `SELECT c.id, c.name, c.role, c.env, c.team, c.region, c."accountId", c.labels, c.lifecycle, c."goneAt", c."firstSeenAt",
            c."lastAttemptAt", c."lastSuccessAt", c."lastErrorAt", c."lastError", c."lastErrorKind", c."latencyMs", c.endpoint,
            c."collectionMode", c."collectionModeReason", c."collectionModeSince",
            c."eksArn", c."eksName", c."accessPaths", c."kubernetesVersion", c."eksVersion", c."platformVersion", c."eksStatus",
            c."supportType", c."fluxVersion", c."kubeletVersions", c.substitutions, c.provisioning, c."desiredVersion",
            c."eksFactsSource", c."eksError", c."eksErrorSince",
            v."versionStatus", v."endOfStandardSupportDate", v."endOfExtendedSupportDate"
     FROM cluster c LEFT JOIN eks_version v ON v."clusterVersion" = c."eksVersion" WHERE c.name = $1`,
    [name],
  );
  const c = rows[0];
  if (!c) return null;
  const [objects, transitions, provisioners, nodeGroups, addons, nodes, managedFrom, hub, lastChange, hubId] = await Promise.all([
    pool.query<ClusterObjectRow>(
      `SELECT kind, namespace, name, health, "healthDetail", "creationTimestamp", "firstSeenAt", "deployedChartVersion",
              "intervalSeconds", "lastReconcileAt", "readyReason", "readyMessage", suspended, "appliedRevision", "attemptedRevision",
              "chartName", "chartVersion", "firstFailedAt", "deletedAt", history->0->>'status' AS "lastReleaseStatus",
              CASE WHEN "healthDetail" = 'drifted'
                   THEN (SELECT c->>'message' FROM jsonb_array_elements(conditions) c WHERE c->>'type' = 'Drifted' LIMIT 1) END AS "driftMessage"
       FROM flux_object WHERE "clusterId" = $1`,
      [c.id],
    ),
    pool.query<ClusterTransitionRow>(
      `SELECT t.at, o.kind, o.namespace, o.name, t.change, t.fields, t.health, t."healthDetail", t."previousHealth", t."readyReason", t."readyMessage",
              t."appliedRevision", t."attemptedRevision", t."chartVersion"
       FROM flux_object_transition t JOIN flux_object o ON o.id = t."objectId"
       WHERE t."clusterId" = $1 AND t.change <> 'first-seen' ORDER BY t.at DESC, t.id DESC LIMIT 50`,
      [c.id],
    ),
    pool.query<ProvisionerRow>(
      `SELECT "apiVersion", kind, namespace, name, ready, "readyReason", synced, "syncedReason", conditions, "secretNamespace", "secretName",
              "secretState", "resourceCreatedAt", "desiredVersion", "eksArn", version, "platformVersion", "eksStatus", state, "stateReason",
              "stateMessage", "stateSince"
       FROM provisioning_resource WHERE "clusterId" = $1 ORDER BY kind, namespace, name`,
      [c.id],
    ),
    pool.query<NodeGroupListRow>(
      `SELECT name, source, version, "releaseVersion", status, "capacityType", "amiType", "instanceTypes", "desiredSize", "minSize", "maxSize"
       FROM node_group WHERE "clusterId" = $1 AND "deletedAt" IS NULL ORDER BY name`,
      [c.id],
    ),
    pool.query<Pick<ManagedAddonRow, "name" | "version" | "status">>(
      `SELECT name, version, status FROM managed_addon WHERE "clusterId" = $1 AND "deletedAt" IS NULL ORDER BY name`,
      [c.id],
    ),
    pool.query<NodeListRow>(
      `SELECT name, "nodeGroup", "kubeletVersion", "readyStatus", "readyReason", "readyMessage", "readySince"
       FROM node WHERE "clusterId" = $1 AND "deletedAt" IS NULL ORDER BY name`,
      [c.id],
    ),
    pool.query<ManagedFromRow>(
      `SELECT h.name AS cluster, h.lifecycle, h."lastSuccessAt", h."lastErrorAt", h.provisioning,
              o.kind, o.namespace, o.name, o.health, o."intervalSeconds", o."lastReconcileAt", o."creationTimestamp", o."firstSeenAt"
       FROM flux_object o JOIN cluster h ON h.id = o."clusterId"
       WHERE o."targetClusterId" = $1 AND o."deletedAt" IS NULL ORDER BY h.name, o.kind, o.namespace, o.name`,
      [c.id],
    ),
    hubReachable(pool),
    pool.query<Pick<ClusterVersionChangeRow, "at">>(
      `SELECT at FROM cluster_version_change WHERE "clusterId" = $1 AND component IN ('kubernetes', 'eks') ORDER BY at DESC LIMIT 1`,
      [c.id],
    ),
    pool.query<Pick<ClusterRow, "id">>(`SELECT id FROM cluster WHERE role = 'hub' ORDER BY lifecycle = 'active' DESC, id LIMIT 1`),
  ]);
  const notReadyRows = nodes.rows.filter((n) => n.readyStatus !== "True");
  // Events of NotReady nodes (in this cluster) and of the Crossplane resources (in the hub that holds them).
  const [nodeEvents, provisionerEvents] = await Promise.all([
    eventsOf(
      pool,
      c.id,
      notReadyRows.map((n) => ({ kind: "Node", name: n.name })),
    ),
    eventsOf(
      pool,
      hubId.rows[0]?.id ?? null,
      provisioners.rows.map((p) => ({ kind: p.kind, name: p.name })),
    ),
  ]);

  const reachability = reachabilityOf(c);
  const counts: Record<string, HealthCounts> = Object.fromEntries(OBJECT_KINDS.map((k) => [kindSlug(k), emptyCounts()]));
  const totals = emptyCounts();
  const live: ClusterObject[] = [];
  const deleted: ClusterDetail["deletedObjects"] = [];
  for (const o of objects.rows) {
    const ref = { cluster: c.name, kind: o.kind, namespace: o.namespace, name: o.name };
    if (o.deletedAt) {
      deleted.push({ kind: o.kind, namespace: o.namespace, name: o.name, url: objectPath(ref), deletedAt: iso(o.deletedAt)! });
      continue;
    }
    const health = healthOf(o, reachability, now);
    counts[kindSlug(o.kind)] ??= emptyCounts();
    counts[kindSlug(o.kind)][health]++;
    totals[health]++;
    live.push({
      kind: o.kind,
      namespace: o.namespace,
      name: o.name,
      url: objectPath(ref),
      health,
      healthDetail: health === "ready" ? parseHealthDetail(o.healthDetail) : null,
      driftMessage: o.driftMessage,
      readyReason: o.readyReason,
      readyMessage: o.readyMessage,
      suspended: o.suspended,
      revision: o.kind === "HelmRelease" ? o.deployedChartVersion : (o.appliedRevision ?? o.attemptedRevision),
      chartName: o.chartName,
      helm:
        o.kind === "HelmRelease"
          ? helmVersions({
              deployed: o.deployedChartVersion,
              attempted: o.attemptedRevision,
              latest: { chartVersion: o.chartVersion, status: o.lastReleaseStatus },
              health: o.health,
            })
          : null,
      lastReconcileAt: iso(o.lastReconcileAt),
      firstFailedAt: iso(o.firstFailedAt),
      failingForSeconds: failingForSeconds(health === "unknown" ? parseHealth(o.health) : health, o.firstFailedAt, now),
      waitingForSeconds: unclaimedForSeconds(health, o.creationTimestamp ?? o.firstSeenAt, now),
      creationTimestamp: iso(o.creationTimestamp ?? o.firstSeenAt),
    });
  }
  const kindOrder = (k: string) => {
    const i = (OBJECT_KINDS as readonly string[]).indexOf(k);
    return i < 0 ? 99 : i;
  };
  live.sort(
    (a, b) =>
      kindOrder(a.kind) - kindOrder(b.kind) ||
      healthRank(a.health) - healthRank(b.health) ||
      a.namespace.localeCompare(b.namespace) ||
      a.name.localeCompare(b.name),
  );
  deleted.sort((a, b) => b.deletedAt.localeCompare(a.deletedAt));

  const kubelets = Object.entries(obj(c.kubeletVersions))
    .flatMap(([version, n]) => (typeof n === "number" ? [{ version, nodes: n }] : []))
    .sort((a, b) => a.version.localeCompare(b.version));
  const labels = Object.fromEntries(Object.entries(obj(c.labels)).filter((e): e is [string, string] => typeof e[1] === "string"));

  const provisioningState = parseProvisioning(c.provisioning);
  const provisioning =
    provisioningState !== null
      ? {
          state: provisioningState,
          desiredVersion: c.desiredVersion,
          since:
            provisioners.rows
              .map((p) => iso(p.resourceCreatedAt))
              .filter((t): t is string => !!t)
              .sort()[0] ?? null,
        }
      : null;
  const eksSource = factSource(c.eksFactsSource);
  const nodesPerGroup = new Map<string, { nodes: number; notReady: number }>();
  for (const n of nodes.rows) {
    if (!n.nodeGroup) continue;
    const entry = nodesPerGroup.get(n.nodeGroup) ?? { nodes: 0, notReady: 0 };
    entry.nodes++;
    if (n.readyStatus !== "True") entry.notReady++;
    nodesPerGroup.set(n.nodeGroup, entry);
  }

  return {
    generatedAt: now.toISOString(),
    name: c.name,
    url: clusterPath(c.name),
    role: c.role,
    env: c.env,
    team: c.team,
    region: c.region,
    accountId: c.accountId,
    labels,
    lifecycle: c.lifecycle,
    goneAt: iso(c.goneAt),
    reachability,
    firstSeenAt: iso(c.firstSeenAt)!,
    lastAttemptAt: iso(c.lastAttemptAt),
    lastSuccessAt: iso(c.lastSuccessAt),
    lastErrorAt: iso(c.lastErrorAt),
    lastError: c.lastError,
    lastErrorKind: c.lastErrorKind,
    latencyMs: c.latencyMs,
    collection:
      c.collectionMode === "watch" || c.collectionMode === "poll"
        ? { mode: c.collectionMode, reason: c.collectionModeReason, since: iso(c.collectionModeSince) }
        : null,
    provisioning,
    access: {
      endpoint: c.endpoint,
      eksArn: c.eksArn,
      eksArnSource: !c.eksArn
        ? null
        : eksSource === "eks-api"
          ? "eks-api"
          : provisioners.rows.some((p) => p.eksArn === c.eksArn)
            ? "crossplane"
            : "kubeconfig",
      eksName: c.eksName,
      paths: accessPaths(c.accessPaths),
      provisioners: provisioners.rows.map((p) => ({
        apiVersion: p.apiVersion,
        kind: p.kind,
        namespace: p.namespace,
        name: p.name,
        ready: p.ready,
        readyReason: p.readyReason,
        synced: p.synced,
        syncedReason: p.syncedReason,
        conditions: conditionList(p.conditions),
        secretNamespace: p.secretNamespace,
        secretName: p.secretName,
        secretState: p.secretState,
        createdAt: iso(p.resourceCreatedAt),
        desiredVersion: p.desiredVersion,
        version: p.version,
        platformVersion: p.platformVersion,
        eksStatus: p.eksStatus,
        state: p.state,
        stateReason: p.stateReason,
        stateMessage: p.stateMessage,
        stateSince: iso(p.stateSince),
        events: provisionerEvents.get(`${p.kind}/${p.name}`) ?? [],
      })),
    },
    versionKnowledge: versionKnowledgeOf(c, hub, now, lastChange.rows[0]?.at ?? null),
    versions: {
      kubernetes: c.kubernetesVersion,
      eks: c.eksVersion,
      platform: c.platformVersion,
      eksStatus: c.eksStatus,
      eksSource: c.eksVersion || c.platformVersion || c.eksStatus ? eksSource : null,
      eksError: c.eksError ? { message: c.eksError, since: iso(c.eksErrorSince) } : null,
      supportType: c.supportType,
      support: c.eksVersion
        ? supportInfo(
            c.eksVersion,
            c.versionStatus || c.endOfStandardSupportDate
              ? {
                  clusterVersion: c.eksVersion,
                  versionStatus: c.versionStatus,
                  endOfStandardSupportDate: c.endOfStandardSupportDate,
                  endOfExtendedSupportDate: c.endOfExtendedSupportDate,
                }
              : null,
            now,
          )
        : null,
      flux: c.fluxVersion,
      kubelets,
    },
    nodeGroups: nodeGroups.rows.map((n) => ({
      name: n.name,
      source: factSource(n.source) ?? "eks-api",
      version: n.version,
      releaseVersion: n.releaseVersion,
      status: n.status,
      capacityType: n.capacityType,
      amiType: n.amiType,
      instanceTypes: n.instanceTypes ?? [],
      desiredSize: n.desiredSize,
      minSize: n.minSize,
      maxSize: n.maxSize,
      nodes: nodesPerGroup.get(n.name)?.nodes ?? 0,
      notReadyNodes: nodesPerGroup.get(n.name)?.notReady ?? 0,
    })),
    nodes: {
      total: nodes.rows.length,
      notReady: notReadyRows.map((n) => ({
        name: n.name,
        nodeGroup: n.nodeGroup,
        kubeletVersion: n.kubeletVersion,
        readyStatus: n.readyStatus,
        readyReason: n.readyReason,
        readyMessage: n.readyMessage,
        since: iso(n.readySince),
        events: nodeEvents.get(`Node/${n.name}`) ?? [],
      })),
      outsideNodeGroups: nodes.rows.filter((n) => !n.nodeGroup).length,
    },
    managedFrom: managedFrom.rows.map((o) => ({
      cluster: o.cluster,
      clusterUrl: clusterPath(o.cluster),
      kind: o.kind,
      namespace: o.namespace,
      name: o.name,
      url: objectPath({ cluster: o.cluster, kind: o.kind, namespace: o.namespace, name: o.name }),
      health: healthOf(o, reachabilityOf(o), now),
    })),
    addons: addons.rows.map((a) => ({ name: a.name, version: a.version, status: a.status })),
    counts,
    totals,
    objects: live,
    deletedObjects: deleted.slice(0, 100),
    transitions: transitions.rows.map((t) => ({
      at: iso(t.at)!,
      kind: t.kind,
      namespace: t.namespace,
      name: t.name,
      url: objectPath({ cluster: c.name, kind: t.kind, namespace: t.namespace, name: t.name }),
      change: t.change,
      fields: t.fields ?? [],
      health: t.health,
      previousHealth: t.previousHealth,
      readyReason: t.readyReason,
      readyMessage: t.readyMessage,
      revision: entryRevision(t),
    })),
    substitutions: substitutionList(c.substitutions),
  };
}
