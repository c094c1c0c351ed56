// EKS facts per cluster (control plane, node groups, managed add-ons, insights) and fleet-wide catalogues
// (DescribeAddonVersions per Kubernetes version, DescribeClusterVersions). Version changes are recorded
// as history; rows are only rewritten when something differs.
import type pg from "pg";
import type { AddonCatalogEntry, EksAddonInfo, EksClusterInfo, EksInsightInfo, EksNodeGroupInfo, EksVersionInfo } from "../../aws/eks";
import { crossplaneMayWrite, type CrossplaneEksFacts } from "../../fleet/cluster-facts";
import type { CrossplaneNodeGroupRecord } from "../../kube/types";
import { recordVersionChanges, type VersionChange } from "./clusters";

type Db = Pick<pg.Pool, "query">;

export interface EksSnapshot {
  cluster: EksClusterInfo;
  nodeGroups: EksNodeGroupInfo[] | null;
  addons: EksAddonInfo[] | null;
  insights: EksInsightInfo[] | null;
}

/** Writes what the EKS API said about one cluster; returns rows written. */
export async function writeEksSnapshot(db: Db, clusterId: number, at: Date, snap: EksSnapshot): Promise<number> {
  let written = 0;
  const changes: VersionChange[] = [];
  const { rows } = await db.query<{ eksVersion: string | null; platformVersion: string | null }>(
    `SELECT "eksVersion", "platformVersion" FROM cluster WHERE id = $1`,
    [clusterId],
  );
  const before = rows[0];
  const c = snap.cluster;
  if (before?.eksVersion && c.version && before.eksVersion !== c.version)
    changes.push({ component: "eks", fromVersion: before.eksVersion, toVersion: c.version });
  if (before?.platformVersion && c.platformVersion && before.platformVersion !== c.platformVersion) {
    changes.push({ component: "eks-platform", fromVersion: before.platformVersion, toVersion: c.platformVersion });
  }
  // The EKS API answered: its facts win over Crossplane's, and any earlier refusal is over.
  const { rowCount } = await db.query(
    `UPDATE cluster SET "eksVersion" = $2, "platformVersion" = $3, "eksStatus" = $4, "supportType" = $5, "eksHealth" = $6::jsonb,
            "eksArn" = COALESCE("eksArn", $7), "accountId" = COALESCE("accountId", $8), region = COALESCE(region, $9), endpoint = COALESCE(endpoint, $10),
            "eksFactsSource" = 'eks-api', "eksError" = NULL, "eksErrorSince" = NULL
      WHERE id = $1 AND ("eksVersion", "platformVersion", "eksStatus", "supportType", "eksHealth", "eksFactsSource", "eksError")
            IS DISTINCT FROM ($2, $3, $4, $5, $6::jsonb, 'eks-api', NULL)`,
    [clusterId, c.version, c.platformVersion, c.status, c.supportType, JSON.stringify(c.health), c.arn, c.accountId, c.region, c.endpoint],
  );
  written += rowCount ?? 0;

  if (snap.nodeGroups) written += await writeNodeGroups(db, clusterId, at, "eks-api", snap.nodeGroups, changes);

  if (snap.addons) {
    const { rows: old } = await db.query<{ name: string; version: string | null }>(
      `SELECT name, version FROM managed_addon WHERE "clusterId" = $1 AND "deletedAt" IS NULL`,
      [clusterId],
    );
    const prev = new Map(old.map((r) => [r.name, r.version]));
    for (const a of snap.addons) {
      if (prev.has(a.name) && prev.get(a.name) !== a.version)
        changes.push({ component: "addon", subject: a.name, fromVersion: prev.get(a.name) ?? null, toVersion: a.version });
    }
    const res = await db.query(
      `INSERT INTO managed_addon ("clusterId", name, version, status, health, "deletedAt", "updatedAt")
       SELECT $1, x.name, x.version, x.status, x.health, NULL, now()
         FROM jsonb_to_recordset($2::jsonb) AS x(name text, version text, status text, health jsonb)
       ON CONFLICT ("clusterId", name) DO UPDATE SET version = EXCLUDED.version, status = EXCLUDED.status, health = EXCLUDED.health,
              "deletedAt" = NULL, "updatedAt" = now()
        WHERE (managed_addon.version, managed_addon.status, managed_addon.health, managed_addon."deletedAt")
              IS DISTINCT FROM (EXCLUDED.version, EXCLUDED.status, EXCLUDED.health, NULL::timestamp(3))`,
      [clusterId, JSON.stringify(snap.addons)],
    );
    written += res.rowCount ?? 0;
    const gone = await db.query(
      `UPDATE managed_addon SET "deletedAt" = $3, "updatedAt" = $3 WHERE "clusterId" = $1 AND "deletedAt" IS NULL AND NOT (name = ANY($2::text[]))`,
      [clusterId, snap.addons.map((a) => a.name), at],
    );
    written += gone.rowCount ?? 0;
  }

  if (snap.insights) {
    const res = await db.query(
      `INSERT INTO upgrade_insight ("clusterId", "insightId", name, category, "kubernetesVersion", status, reason, description, recommendation,
              resources, details, "lastRefreshTime", "updatedAt")
       SELECT $1, x."insightId", x.name, x.category, x."kubernetesVersion", x.status, x.reason, x.description, x.recommendation,
              x.resources, x.details, x."lastRefreshTime", now()
         FROM jsonb_to_recordset($2::jsonb) AS x("insightId" text, name text, category text, "kubernetesVersion" text, status text, reason text,
              description text, recommendation text, resources jsonb, details jsonb, "lastRefreshTime" timestamp(3))
       ON CONFLICT ("clusterId", "insightId") DO UPDATE SET name = EXCLUDED.name, category = EXCLUDED.category,
              "kubernetesVersion" = EXCLUDED."kubernetesVersion", status = EXCLUDED.status, reason = EXCLUDED.reason,
              description = EXCLUDED.description, recommendation = EXCLUDED.recommendation, resources = EXCLUDED.resources,
              details = EXCLUDED.details, "lastRefreshTime" = EXCLUDED."lastRefreshTime", "updatedAt" = now()
        WHERE (upgrade_insight.status, upgrade_insight.reason, upgrade_insight.resources, upgrade_insight.details, upgrade_insight."kubernetesVersion",
               upgrade_insight."lastRefreshTime")
              IS DISTINCT FROM (EXCLUDED.status, EXCLUDED.reason, EXCLUDED.resources, EXCLUDED.details, EXCLUDED."kubernetesVersion", EXCLUDED."lastRefreshTime")`,
      [clusterId, JSON.stringify(snap.insights)],
    );
    written += res.rowCount ?? 0;
    const gone = await db.query(`DELETE FROM upgrade_insight WHERE "clusterId" = $1 AND NOT ("insightId" = ANY($2::text[]))`, [
      clusterId,
      snap.insights.map((i) => i.insightId),
    ]);
    written += gone.rowCount ?? 0;
  }
  written += await recordVersionChanges(db, clusterId, at, changes);
  return written;
}

type NodeGroupFacts = Pick<
  EksNodeGroupInfo,
  "name" | "version" | "releaseVersion" | "status" | "capacityType" | "amiType" | "instanceTypes" | "desiredSize" | "minSize" | "maxSize"
> & { health?: EksNodeGroupInfo["health"] };

/** A cluster's node groups as one source knows them; groups it no longer lists are marked deleted. */
async function writeNodeGroups(
  db: Db,
  clusterId: number,
  at: Date,
  source: "eks-api" | "crossplane",
  groups: NodeGroupFacts[],
  changes: VersionChange[],
): Promise<number> {
  const { rows: old } = await db.query<{ name: string; version: string | null; releaseVersion: string | null }>(
    `SELECT name, version, "releaseVersion" FROM node_group WHERE "clusterId" = $1 AND "deletedAt" IS NULL`,
    [clusterId],
  );
  const prev = new Map(old.map((r) => [r.name, r]));
  for (const n of groups) {
    const p = prev.get(n.name);
    const was = p ? `${p.version ?? ""}/${p.releaseVersion ?? ""}` : null;
    const now = `${n.version ?? ""}/${n.releaseVersion ?? ""}`;
    if (p && was !== now)
      changes.push({
        component: "nodegroup",
        subject: n.name,
        fromVersion: p.releaseVersion ?? p.version,
        toVersion: n.releaseVersion ?? n.version,
      });
  }
  const rows = groups.map((g) => ({ ...g, health: g.health ?? [] }));
  const res = await db.query(
    `INSERT INTO node_group ("clusterId", name, source, version, "releaseVersion", status, "capacityType", "amiType", "instanceTypes", "desiredSize",
            "minSize", "maxSize", health, "deletedAt", "updatedAt")
     SELECT $1, x.name, $3, x.version, x."releaseVersion", x.status, x."capacityType", x."amiType",
            ARRAY(SELECT jsonb_array_elements_text(x."instanceTypes")), x."desiredSize", x."minSize", x."maxSize", x.health, NULL, now()
       FROM jsonb_to_recordset($2::jsonb) AS x(name text, version text, "releaseVersion" text, status text, "capacityType" text, "amiType" text,
            "instanceTypes" jsonb, "desiredSize" int, "minSize" int, "maxSize" int, health jsonb)
     ON CONFLICT ("clusterId", name) DO UPDATE SET source = EXCLUDED.source, version = EXCLUDED.version, "releaseVersion" = EXCLUDED."releaseVersion",
            status = EXCLUDED.status, "capacityType" = EXCLUDED."capacityType", "amiType" = EXCLUDED."amiType", "instanceTypes" = EXCLUDED."instanceTypes",
            "desiredSize" = EXCLUDED."desiredSize", "minSize" = EXCLUDED."minSize", "maxSize" = EXCLUDED."maxSize", health = EXCLUDED.health,
            "deletedAt" = NULL, "updatedAt" = now()
      WHERE (node_group.source, node_group.version, node_group."releaseVersion", node_group.status, node_group."desiredSize", node_group."minSize",
             node_group."maxSize", node_group.health, node_group."deletedAt", node_group."instanceTypes", node_group."capacityType", node_group."amiType")
            IS DISTINCT FROM (EXCLUDED.source, EXCLUDED.version, EXCLUDED."releaseVersion", EXCLUDED.status, EXCLUDED."desiredSize", EXCLUDED."minSize",
             EXCLUDED."maxSize", EXCLUDED.health, NULL::timestamp(3), EXCLUDED."instanceTypes", EXCLUDED."capacityType", EXCLUDED."amiType")`,
    [clusterId, JSON.stringify(rows), source],
  );
  const gone = await db.query(
    `UPDATE node_group SET "deletedAt" = $3, "updatedAt" = $3 WHERE "clusterId" = $1 AND "deletedAt" IS NULL AND NOT (name = ANY($2::text[]))`,
    [clusterId, groups.map((n) => n.name), at],
  );
  return (res.rowCount ?? 0) + (gone.rowCount ?? 0);
}

/**
 * The EKS API refused or failed for this cluster (AccessDenied for a cross-account cluster without the role,
 * throttling…): kept with the time it started, so pages say why EKS facts come from elsewhere or are old.
 */
export async function recordEksError(db: Db, clusterId: number, at: Date, message: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE cluster SET "eksError" = $2, "eksErrorSince" = COALESCE("eksErrorSince", $3) WHERE id = $1 AND "eksError" IS DISTINCT FROM $2`,
    [clusterId, message.slice(0, 1000), at],
  );
  return rowCount ?? 0;
}

export interface CrossplaneSnapshot {
  facts: CrossplaneEksFacts | null;
  nodeGroups: CrossplaneNodeGroupRecord[];
}

/**
 * What Crossplane observed about a cluster's EKS side (atProvider of its Cluster and NodeGroups), written only
 * where the EKS API does not answer for it: the EKS API wins whenever it does (lib/fleet/cluster-facts.ts).
 * Version changes are recorded as history, as for EKS API facts. Writes nothing when nothing changed.
 */
export async function writeCrossplaneFacts(db: Db, clusterId: number, at: Date, snap: CrossplaneSnapshot): Promise<number> {
  const { rows } = await db.query<{
    eksVersion: string | null;
    platformVersion: string | null;
    eksFactsSource: string | null;
    eksError: string | null;
  }>(`SELECT "eksVersion", "platformVersion", "eksFactsSource", "eksError" FROM cluster WHERE id = $1`, [clusterId]);
  const before = rows[0];
  if (!before || !crossplaneMayWrite(before)) return 0;
  const f = snap.facts;
  let written = 0;
  const changes: VersionChange[] = [];
  if (f?.version) {
    if (before.eksVersion && before.eksVersion !== f.version)
      changes.push({ component: "eks", fromVersion: before.eksVersion, toVersion: f.version });
    if (before.platformVersion && f.platformVersion && before.platformVersion !== f.platformVersion)
      changes.push({ component: "eks-platform", fromVersion: before.platformVersion, toVersion: f.platformVersion });
    const { rowCount } = await db.query(
      `UPDATE cluster SET "eksVersion" = $2, "platformVersion" = $3, "eksStatus" = $4, "supportType" = COALESCE($5, "supportType"),
              "eksArn" = COALESCE("eksArn", $6), "eksFactsSource" = 'crossplane'
        WHERE id = $1 AND ("eksVersion", "platformVersion", "eksStatus", "supportType", "eksArn", "eksFactsSource")
              IS DISTINCT FROM ($2, $3, $4, COALESCE($5, "supportType"), COALESCE("eksArn", $6), 'crossplane')`,
      [clusterId, f.version, f.platformVersion, f.eksStatus, f.supportType, f.eksArn],
    );
    written += rowCount ?? 0;
  }
  if (snap.nodeGroups.length) {
    const groups: NodeGroupFacts[] = snap.nodeGroups.map((g) => ({
      name: g.name,
      version: g.version,
      releaseVersion: g.releaseVersion,
      status: g.status,
      capacityType: g.capacityType,
      amiType: g.amiType,
      instanceTypes: g.instanceTypes,
      desiredSize: g.desiredSize,
      minSize: g.minSize,
      maxSize: g.maxSize,
    }));
    written += await writeNodeGroups(db, clusterId, at, "crossplane", groups, changes);
  }
  written += await recordVersionChanges(db, clusterId, at, changes);
  return written;
}

/** Kubernetes versions whose add-on catalogue is missing or older than `maxAgeMs`. */
export async function staleCatalogVersions(db: Db, versions: string[], maxAgeMs: number): Promise<string[]> {
  if (!versions.length) return [];
  const { rows } = await db.query<{ kubernetesVersion: string }>(
    `SELECT "kubernetesVersion" FROM addon_version_catalog WHERE "kubernetesVersion" = ANY($1::text[])
      GROUP BY "kubernetesVersion" HAVING min("fetchedAt") > $2`,
    [versions, new Date(Date.now() - maxAgeMs)],
  );
  const fresh = new Set(rows.map((r) => r.kubernetesVersion));
  return versions.filter((v) => !fresh.has(v));
}

export async function writeAddonCatalog(db: Db, kubernetesVersion: string, entries: AddonCatalogEntry[]): Promise<number> {
  if (!entries.length) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO addon_version_catalog ("addonName", "kubernetesVersion", versions, "fetchedAt")
     SELECT x."addonName", $1, x.versions, now() FROM jsonb_to_recordset($2::jsonb) AS x("addonName" text, versions jsonb)
     ON CONFLICT ("addonName", "kubernetesVersion") DO UPDATE SET versions = EXCLUDED.versions, "fetchedAt" = now()`,
    [kubernetesVersion, JSON.stringify(entries)],
  );
  return rowCount ?? 0;
}

export async function eksVersionsFetchedAt(db: Db): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(`SELECT max("fetchedAt") AS at FROM eks_version`);
  return rows[0]?.at ?? null;
}

export async function writeEksVersions(db: Db, versions: EksVersionInfo[]): Promise<number> {
  if (!versions.length) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO eks_version ("clusterVersion", "versionStatus", "releaseDate", "endOfStandardSupportDate", "endOfExtendedSupportDate",
            "defaultPlatformVersion", "defaultVersion", "fetchedAt")
     SELECT x."clusterVersion", x."versionStatus", x."releaseDate", x."endOfStandardSupportDate", x."endOfExtendedSupportDate",
            x."defaultPlatformVersion", x."defaultVersion", now()
       FROM jsonb_to_recordset($1::jsonb) AS x("clusterVersion" text, "versionStatus" text, "releaseDate" timestamp(3),
            "endOfStandardSupportDate" timestamp(3), "endOfExtendedSupportDate" timestamp(3), "defaultPlatformVersion" text, "defaultVersion" boolean)
     ON CONFLICT ("clusterVersion") DO UPDATE SET "versionStatus" = EXCLUDED."versionStatus", "releaseDate" = EXCLUDED."releaseDate",
            "endOfStandardSupportDate" = EXCLUDED."endOfStandardSupportDate", "endOfExtendedSupportDate" = EXCLUDED."endOfExtendedSupportDate",
            "defaultPlatformVersion" = EXCLUDED."defaultPlatformVersion", "defaultVersion" = EXCLUDED."defaultVersion", "fetchedAt" = now()`,
    [JSON.stringify(versions)],
  );
  return rowCount ?? 0;
}
