// /go: finds the objects alert labels may mean and lets lib/fleet/go decide where to send the reader.
import {
  decideGo,
  parseGoLabels,
  resolveClusterLabel,
  unnameableLabel,
  type GoCandidate,
  type GoCluster,
  type GoDecision,
  type GoLabels,
} from "../../fleet/go";
import { parseProvisioning } from "../../fleet/provisioning";
import { getPool } from "../client";
import type { ClusterRow } from "../rows";
import { iso } from "./shared";

export interface GoResolution {
  labels: GoLabels;
  decision: GoDecision;
}

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

export async function resolveGo(params: Params): Promise<GoResolution> {
  const labels = parseGoLabels(params);
  const unnameable = unnameableLabel(labels);
  if (unnameable)
    return {
      labels,
      decision: {
        type: "not-found",
        problem: `The ${unnameable} label holds a character no name can contain.`,
        nearest: [],
        nearestClusters: [],
      },
    };
  const pool = getPool();
  const { rows: clusterRows } = await pool.query<
    Pick<
      ClusterRow,
      "name" | "eksArn" | "eksName" | "region" | "lastSuccessAt" | "lastErrorAt" | "lastError" | "provisioning" | "firstSeenAt"
    > & { provisioningSince: Date | null }
  >(
    `SELECT c.name, c."eksArn", c."eksName", c.region, c."lastSuccessAt", c."lastErrorAt", c."lastError", c.provisioning, c."firstSeenAt",
            (SELECT min(p."resourceCreatedAt") FROM provisioning_resource p WHERE p."clusterId" = c.id) AS "provisioningSince"
     FROM cluster c ORDER BY c.name`,
  );
  const clusterNames = clusterRows.map((r) => r.name);
  const clusters: GoCluster[] = clusterRows.map((r) => {
    const provisioning = parseProvisioning(r.provisioning);
    return {
      name: r.name,
      eksArn: r.eksArn,
      eksName: r.eksName,
      region: r.region,
      provisioning: provisioning ? { state: provisioning, since: iso(r.provisioningSince) } : null,
      neverReached: !r.lastSuccessAt && r.lastErrorAt ? { error: r.lastError, since: iso(r.firstSeenAt) } : null,
    };
  });
  // A cluster label in another case, or an EKS cluster ARN, still means that cluster.
  if (labels.cluster && !clusterNames.includes(labels.cluster)) {
    const resolved = resolveClusterLabel(labels.cluster, clusters);
    if (resolved) labels.cluster = resolved;
  }
  const clusterKnown = labels.cluster !== null && clusterNames.includes(labels.cluster);

  let candidates: GoCandidate[] = [];
  if (labels.name) {
    // Exact matches fleet-wide plus near ones: the named cluster's objects, or names sharing a word.
    const words = labels.name
      .toLowerCase()
      .split(/[-_.]/)
      .filter((w) => w.length >= 3)
      .slice(0, 5);
    const { rows } = await pool.query<{ cluster: string; kind: string; namespace: string; name: string; deleted: boolean }>(
      `SELECT c.name AS cluster, o.kind, o.namespace, o.name, o."deletedAt" IS NOT NULL AS deleted
       FROM flux_object o JOIN cluster c ON c.id = o."clusterId"
       WHERE o.name = $1
          OR ($2::text IS NOT NULL AND c.name = $2)
          OR lower(o.name) LIKE ANY ($3::text[])
       ORDER BY (o.name = $1) DESC, c.name, o.kind, o.namespace, o.name
       LIMIT 5000`,
      [labels.name, clusterKnown ? labels.cluster : null, words.map((w) => `%${w.replace(/[%_\\]/g, "\\$&")}%`)],
    );
    candidates = rows;
  }
  return { labels, decision: decideGo(labels, candidates, clusterNames, clusters) };
}
