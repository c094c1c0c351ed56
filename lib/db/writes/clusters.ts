// Cluster rows: discovery results (upserted only when something differs), poll outcomes, version changes,
// and clusters that left discovery (marked gone, never deleted).
import type pg from "pg";
import type { DiscoveredCluster, DiscoveredProvisioner, KubePollResult } from "../types";

type Db = Pick<pg.Pool, "query">;

export interface ClusterRow {
  id: number;
  name: string;
  role: string;
  accessPaths: DiscoveredCluster["accessPaths"];
  endpoint: string | null;
  eksArn: string | null;
  eksName: string | null;
  region: string | null;
  lifecycle: string;
  provisioning: string | null;
  kubernetesVersion: string | null;
  eksVersion: string | null;
  platformVersion: string | null;
  fluxVersion: string | null;
  kubeletVersions: Record<string, number>;
  lastSuccessAt: Date | null;
}

const CLUSTER_ROW_COLUMNS = `id, name, role, "accessPaths", endpoint, "eksArn", "eksName", region, lifecycle, provisioning, "kubernetesVersion", "eksVersion",
            "platformVersion", "fluxVersion", "kubeletVersions", "lastSuccessAt"`;

/** The clusters of these names (nudges name clusters). */
export async function clustersByName(db: Db, names: string[]): Promise<ClusterRow[]> {
  const { rows } = await db.query<ClusterRow>(`SELECT ${CLUSTER_ROW_COLUMNS} FROM cluster WHERE name = ANY($1::text[])`, [names]);
  return rows;
}

/** Clusters per reachability, as the pages derive it (the collector's /metrics gauge). */
export async function reachabilityTotals(db: Db): Promise<Array<{ reachability: string; n: number }>> {
  const { rows } = await db.query<{ reachability: string; n: string }>(
    `SELECT CASE WHEN lifecycle = 'gone' THEN 'gone'
                 WHEN provisioning IS NOT NULL THEN 'provisioning'
                 WHEN "lastSuccessAt" IS NULL AND "lastErrorAt" IS NULL THEN 'pending'
                 WHEN "lastSuccessAt" IS NULL OR "lastErrorAt" > "lastSuccessAt" THEN 'unreachable'
                 ELSE 'reachable' END AS reachability, count(*)::text AS n
       FROM cluster GROUP BY 1`,
  );
  return rows.map((r) => ({ reachability: r.reachability, n: Number(r.n) }));
}

/** EKS versions of active clusters (whose add-on catalogues the collector keeps). */
export async function eksVersionsInUse(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ v: string }>(
    `SELECT DISTINCT "eksVersion" AS v FROM cluster WHERE "eksVersion" IS NOT NULL AND lifecycle = 'active'`,
  );
  return rows.map((r) => r.v);
}

export async function listClusters(db: Db, options: { activeOnly?: boolean } = {}): Promise<ClusterRow[]> {
  const { rows } = await db.query<ClusterRow>(
    `SELECT id, name, role, "accessPaths", endpoint, "eksArn", "eksName", region, lifecycle, provisioning, "kubernetesVersion", "eksVersion",
            "platformVersion", "fluxVersion", "kubeletVersions", "lastSuccessAt"
       FROM cluster ${options.activeOnly ? "WHERE lifecycle = 'active'" : ""} ORDER BY id`,
  );
  return rows;
}

/** Inserts new clusters and updates those whose discovered facts changed; returns name → id. */
export async function upsertDiscoveredClusters(db: Db, clusters: DiscoveredCluster[]): Promise<Map<string, number>> {
  if (!clusters.length) return new Map();
  const rows = clusters.map((c) => ({
    name: c.name,
    role: c.role,
    accessPaths: c.accessPaths,
    endpoint: c.endpoint,
    eksArn: c.eksArn,
    eksName: c.eksName,
    region: c.region,
    accountId: c.accountId,
    env: c.env,
    team: c.team,
    labels: c.labels,
    provisioning: c.provisioning,
    desiredVersion: c.desiredVersion,
  }));
  // provisioning and desiredVersion come from Crossplane alone: null means it no longer says so.
  await db.query(
    `INSERT INTO cluster (name, role, "accessPaths", endpoint, "eksArn", "eksName", region, "accountId", env, team, labels, provisioning,
            "desiredVersion", lifecycle, "goneAt", "updatedAt")
     SELECT x.name, x.role, x."accessPaths", x.endpoint, x."eksArn", x."eksName", x.region, x."accountId", x.env, x.team, x.labels, x.provisioning,
            x."desiredVersion", 'active', NULL, now()
       FROM jsonb_to_recordset($1::jsonb) AS x(name text, role text, "accessPaths" jsonb, endpoint text, "eksArn" text, "eksName" text,
            region text, "accountId" text, env text, team text, labels jsonb, provisioning text, "desiredVersion" text)
     ON CONFLICT (name) DO UPDATE SET role = EXCLUDED.role, "accessPaths" = EXCLUDED."accessPaths",
            endpoint = COALESCE(EXCLUDED.endpoint, cluster.endpoint), "eksArn" = COALESCE(EXCLUDED."eksArn", cluster."eksArn"),
            "eksName" = COALESCE(EXCLUDED."eksName", cluster."eksName"), region = COALESCE(EXCLUDED.region, cluster.region),
            "accountId" = COALESCE(EXCLUDED."accountId", cluster."accountId"), env = COALESCE(EXCLUDED.env, cluster.env),
            team = COALESCE(EXCLUDED.team, cluster.team), labels = EXCLUDED.labels, provisioning = EXCLUDED.provisioning,
            "desiredVersion" = EXCLUDED."desiredVersion", lifecycle = 'active', "goneAt" = NULL, "updatedAt" = now()
      WHERE (cluster.role, cluster."accessPaths", cluster.endpoint, cluster."eksArn", cluster."eksName", cluster.region, cluster."accountId",
             cluster.env, cluster.team, cluster.labels, cluster.provisioning, cluster."desiredVersion", cluster.lifecycle)
            IS DISTINCT FROM
            (EXCLUDED.role, EXCLUDED."accessPaths", COALESCE(EXCLUDED.endpoint, cluster.endpoint), COALESCE(EXCLUDED."eksArn", cluster."eksArn"),
             COALESCE(EXCLUDED."eksName", cluster."eksName"), COALESCE(EXCLUDED.region, cluster.region),
             COALESCE(EXCLUDED."accountId", cluster."accountId"), COALESCE(EXCLUDED.env, cluster.env), COALESCE(EXCLUDED.team, cluster.team),
             EXCLUDED.labels, EXCLUDED.provisioning, EXCLUDED."desiredVersion", 'active')`,
    [JSON.stringify(rows)],
  );
  const { rows: ids } = await db.query<{ id: number; name: string }>(`SELECT id, name FROM cluster WHERE name = ANY($1::text[])`, [
    clusters.map((c) => c.name),
  ]);
  return new Map(ids.map((r) => [r.name, r.id]));
}

/** Clusters no longer discovered are marked gone (with their history kept). Returns their names. */
export async function markGoneClusters(db: Db, stillThere: string[], now: Date): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `UPDATE cluster SET lifecycle = 'gone', "goneAt" = $2, "updatedAt" = $2
      WHERE lifecycle = 'active' AND NOT (name = ANY($1::text[])) RETURNING name`,
    [stillThere, now],
  );
  return rows.map((r) => r.name);
}

/**
 * The Crossplane resources that provision each cluster: conditions, the EKS facts they observed, their
 * connection secret's state and what each is doing. Rows of resources no longer listed are removed when
 * `complete` (every hub list answered), so a deleted resource does not haunt its cluster.
 */
export async function upsertProvisioners(db: Db, byCluster: Map<number, DiscoveredProvisioner[]>, complete = false): Promise<number> {
  const rows = [...byCluster].flatMap(([clusterId, list]) =>
    list.map(({ verdict, createdAt, secret, eksName: _eksName, region: _region, ...p }) => ({
      clusterId,
      ...p,
      secretState: secret,
      resourceCreatedAt: createdAt,
      state: verdict.state,
      stateReason: verdict.reason,
      stateMessage: verdict.message,
      stateSince: verdict.since,
    })),
  );
  let written = 0;
  if (rows.length) {
    const { rowCount } = await db.query(
      `INSERT INTO provisioning_resource ("clusterId", "apiVersion", kind, namespace, name, ready, "readyReason", synced, "syncedReason",
              conditions, "secretNamespace", "secretName", "secretState", "resourceCreatedAt", "desiredVersion", "eksArn", version, "platformVersion",
              "eksStatus", "supportType", state, "stateReason", "stateMessage", "stateSince", "updatedAt")
       SELECT x."clusterId", x."apiVersion", x.kind, x.namespace, x.name, x.ready, x."readyReason", x.synced, x."syncedReason",
              x.conditions, x."secretNamespace", x."secretName", x."secretState", x."resourceCreatedAt", x."desiredVersion", x."eksArn", x.version,
              x."platformVersion", x."eksStatus", x."supportType", x.state, x."stateReason", x."stateMessage", x."stateSince", now()
         FROM jsonb_to_recordset($1::jsonb) AS x("clusterId" int, "apiVersion" text, kind text, namespace text, name text, ready text,
              "readyReason" text, synced text, "syncedReason" text, conditions jsonb, "secretNamespace" text, "secretName" text, "secretState" text,
              "resourceCreatedAt" timestamp(3), "desiredVersion" text, "eksArn" text, version text, "platformVersion" text, "eksStatus" text,
              "supportType" text, state text, "stateReason" text, "stateMessage" text, "stateSince" timestamp(3))
       ON CONFLICT ("clusterId", kind, namespace, name) DO UPDATE SET "apiVersion" = EXCLUDED."apiVersion", ready = EXCLUDED.ready,
              "readyReason" = EXCLUDED."readyReason", synced = EXCLUDED.synced, "syncedReason" = EXCLUDED."syncedReason",
              conditions = EXCLUDED.conditions, "secretNamespace" = EXCLUDED."secretNamespace", "secretName" = EXCLUDED."secretName",
              "secretState" = EXCLUDED."secretState", "resourceCreatedAt" = EXCLUDED."resourceCreatedAt", "desiredVersion" = EXCLUDED."desiredVersion",
              "eksArn" = EXCLUDED."eksArn", version = EXCLUDED.version, "platformVersion" = EXCLUDED."platformVersion",
              "eksStatus" = EXCLUDED."eksStatus", "supportType" = EXCLUDED."supportType", state = EXCLUDED.state,
              "stateReason" = EXCLUDED."stateReason", "stateMessage" = EXCLUDED."stateMessage", "stateSince" = EXCLUDED."stateSince",
              "updatedAt" = now()
        WHERE (provisioning_resource."apiVersion", provisioning_resource.ready, provisioning_resource."readyReason", provisioning_resource.synced,
               provisioning_resource."syncedReason", provisioning_resource.conditions, provisioning_resource."secretNamespace",
               provisioning_resource."secretName", provisioning_resource."secretState", provisioning_resource."resourceCreatedAt",
               provisioning_resource."desiredVersion", provisioning_resource."eksArn", provisioning_resource.version,
               provisioning_resource."platformVersion", provisioning_resource."eksStatus", provisioning_resource."supportType",
               provisioning_resource.state, provisioning_resource."stateReason", provisioning_resource."stateMessage",
               provisioning_resource."stateSince")
              IS DISTINCT FROM (EXCLUDED."apiVersion", EXCLUDED.ready, EXCLUDED."readyReason", EXCLUDED.synced, EXCLUDED."syncedReason",
               EXCLUDED.conditions, EXCLUDED."secretNamespace", EXCLUDED."secretName", EXCLUDED."secretState", EXCLUDED."resourceCreatedAt",
               EXCLUDED."desiredVersion", EXCLUDED."eksArn", EXCLUDED.version, EXCLUDED."platformVersion", EXCLUDED."eksStatus",
               EXCLUDED."supportType", EXCLUDED.state, EXCLUDED."stateReason", EXCLUDED."stateMessage", EXCLUDED."stateSince")`,
      [JSON.stringify(rows)],
    );
    written += rowCount ?? 0;
  }
  if (complete) {
    const keep = rows.map((r) => `${r.clusterId}/${r.kind}/${r.namespace}/${r.name}`);
    const { rowCount } = await db.query(
      `DELETE FROM provisioning_resource WHERE NOT ("clusterId"::text || '/' || kind || '/' || namespace || '/' || name = ANY($1::text[]))`,
      [keep],
    );
    written += rowCount ?? 0;
  }
  return written;
}

export interface VersionChange {
  component: "kubernetes" | "eks-platform" | "eks" | "nodegroup" | "addon" | "flux" | "kubelet";
  subject?: string;
  fromVersion: string | null;
  toVersion: string | null;
}

export async function recordVersionChanges(db: Db, clusterId: number, at: Date, changes: VersionChange[]): Promise<number> {
  if (!changes.length) return 0;
  await db.query(
    `INSERT INTO cluster_version_change ("clusterId", at, component, subject, "fromVersion", "toVersion")
     SELECT $1, $2, x.component, COALESCE(x.subject, ''), x."fromVersion", x."toVersion"
       FROM jsonb_to_recordset($3::jsonb) AS x(component text, subject text, "fromVersion" text, "toVersion" text)`,
    [clusterId, at, JSON.stringify(changes)],
  );
  return changes.length;
}

/** Whether a poll found versions the cluster row does not hold yet (nulls mean "not seen": they keep what is stored). */
export function versionsDiffer(
  row: Pick<ClusterRow, "kubernetesVersion" | "fluxVersion" | "kubeletVersions">,
  poll: Pick<KubePollResult, "kubernetesVersion" | "fluxVersion" | "kubeletVersions">,
): boolean {
  if (poll.kubernetesVersion !== null && poll.kubernetesVersion !== row.kubernetesVersion) return true;
  if (poll.fluxVersion !== null && poll.fluxVersion !== row.fluxVersion) return true;
  if (poll.kubeletVersions === null) return false;
  const stored = row.kubeletVersions ?? {};
  const found = Object.keys(poll.kubeletVersions);
  return found.length !== Object.keys(stored).length || found.some((v) => stored[v] !== poll.kubeletVersions![v]);
}

/** Version changes between what the cluster row holds and what a poll found (nulls mean "not seen"). */
export function kubeVersionChanges(
  before: Pick<ClusterRow, "kubernetesVersion" | "fluxVersion" | "kubeletVersions">,
  poll: KubePollResult,
): VersionChange[] {
  const out: VersionChange[] = [];
  if (poll.kubernetesVersion && before.kubernetesVersion && poll.kubernetesVersion !== before.kubernetesVersion) {
    out.push({ component: "kubernetes", fromVersion: before.kubernetesVersion, toVersion: poll.kubernetesVersion });
  }
  if (poll.fluxVersion && before.fluxVersion && poll.fluxVersion !== before.fluxVersion) {
    out.push({ component: "flux", fromVersion: before.fluxVersion, toVersion: poll.fluxVersion });
  }
  if (poll.kubeletVersions && before.kubeletVersions && Object.keys(before.kubeletVersions).length) {
    const was = Object.keys(before.kubeletVersions).sort();
    const now = Object.keys(poll.kubeletVersions).sort();
    if (was.join(",") !== now.join(","))
      out.push({ component: "kubelet", fromVersion: was.join(", ") || null, toVersion: now.join(", ") || null });
  }
  return out;
}

export interface PollSuccess {
  clusterId: number;
  at: Date;
  /** What the cluster said, or null when nothing of it changed since the last success recorded: only the time is written. */
  poll: KubePollResult | null;
}

/** Successful polls of many clusters in one statement (the collector flushes them in batches). */
export async function recordPollSuccesses(db: Db, successes: PollSuccess[]): Promise<void> {
  if (!successes.length) return;
  const rows = successes.map(({ clusterId, at, poll }) =>
    poll
      ? {
          id: clusterId,
          at: at.toISOString(),
          latencyMs: poll.latencyMs,
          objectCount: poll.objectCount,
          kubernetesVersion: poll.kubernetesVersion,
          kubeletVersions: poll.kubeletVersions,
          fluxVersion: poll.fluxVersion,
          fluxReport: poll.fluxReport,
          substitutions: poll.substitutions ?? null,
          healthCounts: poll.healthCounts ?? null,
        }
      : { id: clusterId, at: at.toISOString() },
  );
  await db.query(
    `UPDATE cluster c SET "lastAttemptAt" = x.at, "lastSuccessAt" = x.at, "latencyMs" = COALESCE(x."latencyMs", c."latencyMs"), "objectCount" = COALESCE(x."objectCount", c."objectCount"),
            "kubernetesVersion" = COALESCE(x."kubernetesVersion", c."kubernetesVersion"), "kubeletVersions" = COALESCE(x."kubeletVersions", c."kubeletVersions"),
            "fluxVersion" = COALESCE(x."fluxVersion", c."fluxVersion"), "fluxReport" = COALESCE(x."fluxReport", c."fluxReport"),
            "substitutions" = COALESCE(x.substitutions, c.substitutions),
            "healthCounts" = COALESCE(x."healthCounts", c."healthCounts"), "updatedAt" = x.at
       FROM jsonb_to_recordset($1::jsonb) AS x(id int, at timestamp(3), "latencyMs" int, "objectCount" int, "kubernetesVersion" text,
            "kubeletVersions" jsonb, "fluxVersion" text, "fluxReport" jsonb, substitutions jsonb, "healthCounts" jsonb)
      WHERE c.id = x.id`,
    [JSON.stringify(rows)],
  );
}

export async function recordPollFailure(
  db: Db,
  clusterId: number,
  at: Date,
  error: { message: string; kind: string },
  latencyMs: number | null,
): Promise<void> {
  await db.query(
    `UPDATE cluster SET "lastAttemptAt" = $2, "lastErrorAt" = $2, "lastError" = $3, "lastErrorKind" = $4,
            "latencyMs" = COALESCE($5, "latencyMs"), "updatedAt" = $2
      WHERE id = $1`,
    [clusterId, at, error.message.slice(0, 1000), error.kind, latencyMs],
  );
}

export interface CollectionMode {
  clusterId: number;
  mode: "watch" | "poll";
  /** Why a cluster is polled when watching was wanted; null in watch mode. */
  reason: string | null;
}

/** The collection mode per cluster, written only where it changed (the since column keeps when). */
export async function recordCollectionModes(db: Db, modes: CollectionMode[], at: Date): Promise<number> {
  if (!modes.length) return 0;
  const { rowCount } = await db.query(
    `UPDATE cluster c SET "collectionMode" = x.mode, "collectionModeReason" = x.reason, "collectionModeSince" = $2
       FROM jsonb_to_recordset($1::jsonb) AS x(id int, mode text, reason text)
      WHERE c.id = x.id AND (c."collectionMode", c."collectionModeReason") IS DISTINCT FROM (x.mode, x.reason)`,
    [JSON.stringify(modes.map((m) => ({ id: m.clusterId, mode: m.mode, reason: m.reason }))), at],
  );
  return rowCount ?? 0;
}

/**
 * Version changes and the cluster's version columns in one transaction, so a crash between the two can
 * neither record a change twice (the columns would still say the old version) nor lose one.
 */
export async function recordVersionsWithChanges(
  db: Pick<pg.Pool, "connect">,
  clusterId: number,
  at: Date,
  versions: Pick<KubePollResult, "kubernetesVersion" | "kubeletVersions" | "fluxVersion">,
  changes: VersionChange[],
): Promise<number> {
  const client = await db.connect();
  try {
    await client.query("BEGIN");
    await recordVersionChanges(client, clusterId, at, changes);
    await client.query(
      `UPDATE cluster SET "kubernetesVersion" = COALESCE($2, "kubernetesVersion"), "kubeletVersions" = COALESCE($3::jsonb, "kubeletVersions"),
              "fluxVersion" = COALESCE($4, "fluxVersion"), "updatedAt" = $5 WHERE id = $1`,
      [
        clusterId,
        versions.kubernetesVersion,
        versions.kubeletVersions ? JSON.stringify(versions.kubeletVersions) : null,
        versions.fluxVersion,
        at,
      ],
    );
    await client.query("COMMIT");
    return changes.length;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
