// One cluster: how it is reached, versions, node groups, objects by kind with health, recent
// transitions and the substitution variables its Kustomizations use.
import { FLUX_KINDS, kindSlug } from "../../fleet/kinds";
import { failingForSeconds, healthRank, parseHealth, type Health, type Reachability } from "../../fleet/status";
import { clusterPath, objectPath } from "../../fleet/urls";
import { supportInfo, type SupportInfo } from "../../upgrades/support";
import { obj, records, str } from "../../kube/raw";
import { getPool } from "../client";
import type { ClusterRow, EksVersionRow, FluxObjectRow, ManagedAddonRow, NodeGroupRow, ProvisioningResourceRow } from "../rows";
import { emptyCounts, type HealthCounts } from "./fleet";
import { healthOf, iso, reachabilityOf, substitutionList, type TransitionListRow } from "./shared";

export interface AccessPath {
  via: string;
  secretNamespace: string | null;
  secretName: string | null;
  key: string | null;
  region: string | null;
  roleArn: string | null;
}

export interface ClusterObject {
  kind: string;
  namespace: string;
  name: string;
  url: string;
  health: Health;
  readyReason: string | null;
  readyMessage: string | null;
  suspended: boolean;
  revision: string | null;
  chartName: string | null;
  chartVersion: string | null;
  lastReconcileAt: string | null;
  firstFailedAt: string | null;
  failingForSeconds: number | null;
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
  access: {
    endpoint: string | null;
    eksArn: string | null;
    eksName: string | null;
    paths: AccessPath[];
    provisioners: Array<{
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
    }>;
  };
  versions: {
    kubernetes: string | null;
    eks: string | null;
    platform: string | null;
    eksStatus: string | null;
    supportType: string | null;
    support: SupportInfo | null;
    flux: string | null;
    kubelets: Array<{ version: string; nodes: number }>;
  };
  nodeGroups: Array<{
    name: string;
    version: string | null;
    releaseVersion: string | null;
    status: string | null;
    capacityType: string | null;
    amiType: string | null;
    instanceTypes: string[];
    desiredSize: number | null;
  }>;
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
>;

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
>;

type NodeGroupListRow = Pick<
  NodeGroupRow,
  "name" | "version" | "releaseVersion" | "status" | "capacityType" | "amiType" | "instanceTypes" | "desiredSize"
>;

export async function getCluster(name: string, now = new Date()): Promise<ClusterDetail | null> {
  const pool = getPool();
  const { rows } = await pool.query<ClusterDetailRow>(
    `SELECT c.id, c.name, c.role, c.env, c.team, c.region, c."accountId", c.labels, c.lifecycle, c."goneAt", c."firstSeenAt",
            c."lastAttemptAt", c."lastSuccessAt", c."lastErrorAt", c."lastError", c."lastErrorKind", c."latencyMs", c.endpoint,
            c."eksArn", c."eksName", c."accessPaths", c."kubernetesVersion", c."eksVersion", c."platformVersion", c."eksStatus",
            c."supportType", c."fluxVersion", c."kubeletVersions", c.substitutions,
            v."versionStatus", v."endOfStandardSupportDate", v."endOfExtendedSupportDate"
     FROM cluster c LEFT JOIN eks_version v ON v."clusterVersion" = c."eksVersion" WHERE c.name = $1`,
    [name],
  );
  const c = rows[0];
  if (!c) return null;
  const [objects, transitions, provisioners, nodeGroups, addons] = await Promise.all([
    pool.query<ClusterObjectRow>(
      `SELECT kind, namespace, name, health, "intervalSeconds", "lastReconcileAt", "readyReason", "readyMessage", suspended,
              "appliedRevision", "attemptedRevision", "chartName", "chartVersion", "firstFailedAt", "deletedAt"
       FROM flux_object WHERE "clusterId" = $1`,
      [c.id],
    ),
    pool.query<ClusterTransitionRow>(
      `SELECT t.at, o.kind, o.namespace, o.name, t.change, t.fields, t.health, t."previousHealth", t."readyReason", t."readyMessage",
              t."appliedRevision", t."attemptedRevision", t."chartVersion"
       FROM flux_object_transition t JOIN flux_object o ON o.id = t."objectId"
       WHERE t."clusterId" = $1 ORDER BY t.at DESC, t.id DESC LIMIT 50`,
      [c.id],
    ),
    pool.query<ProvisionerRow>(
      `SELECT "apiVersion", kind, namespace, name, ready, "readyReason", synced, "syncedReason", conditions, "secretNamespace", "secretName"
       FROM provisioning_resource WHERE "clusterId" = $1 ORDER BY kind, namespace, name`,
      [c.id],
    ),
    pool.query<NodeGroupListRow>(
      `SELECT name, version, "releaseVersion", status, "capacityType", "amiType", "instanceTypes", "desiredSize"
       FROM node_group WHERE "clusterId" = $1 AND "deletedAt" IS NULL ORDER BY name`,
      [c.id],
    ),
    pool.query<Pick<ManagedAddonRow, "name" | "version" | "status">>(
      `SELECT name, version, status FROM managed_addon WHERE "clusterId" = $1 AND "deletedAt" IS NULL ORDER BY name`,
      [c.id],
    ),
  ]);

  const reachability = reachabilityOf(c);
  const counts: Record<string, HealthCounts> = Object.fromEntries(FLUX_KINDS.map((k) => [kindSlug(k), emptyCounts()]));
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
      readyReason: o.readyReason,
      readyMessage: o.readyMessage,
      suspended: o.suspended,
      revision: o.kind === "HelmRelease" ? o.chartVersion : (o.appliedRevision ?? o.attemptedRevision),
      chartName: o.chartName,
      chartVersion: o.chartVersion,
      lastReconcileAt: iso(o.lastReconcileAt),
      firstFailedAt: iso(o.firstFailedAt),
      failingForSeconds: failingForSeconds(health === "unknown" ? parseHealth(o.health) : health, o.firstFailedAt, now),
    });
  }
  const kindOrder = (k: string) => {
    const i = (FLUX_KINDS as readonly string[]).indexOf(k);
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
    access: {
      endpoint: c.endpoint,
      eksArn: c.eksArn,
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
      })),
    },
    versions: {
      kubernetes: c.kubernetesVersion,
      eks: c.eksVersion,
      platform: c.platformVersion,
      eksStatus: c.eksStatus,
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
      version: n.version,
      releaseVersion: n.releaseVersion,
      status: n.status,
      capacityType: n.capacityType,
      amiType: n.amiType,
      instanceTypes: n.instanceTypes ?? [],
      desiredSize: n.desiredSize,
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
      revision: t.kind === "HelmRelease" ? t.chartVersion : (t.appliedRevision ?? t.attemptedRevision),
    })),
    substitutions: substitutionList(c.substitutions),
  };
}
