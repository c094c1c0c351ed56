// Nodes per cluster: upserted when something a person reads changed (Ready, its reason or message, kubelet,
// node group…), marked deleted when they leave, pruned with history. The same write serves a full list now
// and a watch later (a watch passes the nodes it saw change and no deletions).
import type pg from "pg";
import type { NodeRecord } from "../../kube/types";

type Db = Pick<pg.Pool, "query">;

/**
 * Writes the nodes a cluster has now. `complete` says the list is every node (a LIST): nodes not in it are
 * marked deleted. Returns rows written.
 */
export async function upsertNodes(db: Db, clusterId: number, at: Date, nodes: NodeRecord[], complete = true): Promise<number> {
  let written = 0;
  if (nodes.length) {
    const { rowCount } = await db.query(
      `INSERT INTO node ("clusterId", name, "nodeGroup", "kubeletVersion", "readyStatus", "readyReason", "readyMessage", "readySince",
              "capacityType", "instanceType", "firstSeenAt", "deletedAt", "updatedAt")
       SELECT $1, x.name, x."nodeGroup", x."kubeletVersion", x."readyStatus", x."readyReason", x."readyMessage", x."readySince",
              x."capacityType", x."instanceType", $3, NULL, $3
         FROM jsonb_to_recordset($2::jsonb) AS x(name text, "nodeGroup" text, "kubeletVersion" text, "readyStatus" text, "readyReason" text,
              "readyMessage" text, "readySince" timestamp(3), "capacityType" text, "instanceType" text)
       ON CONFLICT ("clusterId", name) DO UPDATE SET "nodeGroup" = EXCLUDED."nodeGroup", "kubeletVersion" = EXCLUDED."kubeletVersion",
              "readyStatus" = EXCLUDED."readyStatus", "readyReason" = EXCLUDED."readyReason", "readyMessage" = EXCLUDED."readyMessage",
              "readySince" = EXCLUDED."readySince", "capacityType" = EXCLUDED."capacityType", "instanceType" = EXCLUDED."instanceType",
              "deletedAt" = NULL, "updatedAt" = $3
        WHERE (node."nodeGroup", node."kubeletVersion", node."readyStatus", node."readyReason", node."readyMessage", node."readySince",
               node."capacityType", node."instanceType", node."deletedAt")
              IS DISTINCT FROM (EXCLUDED."nodeGroup", EXCLUDED."kubeletVersion", EXCLUDED."readyStatus", EXCLUDED."readyReason",
               EXCLUDED."readyMessage", EXCLUDED."readySince", EXCLUDED."capacityType", EXCLUDED."instanceType", NULL::timestamp(3))`,
      [clusterId, JSON.stringify(nodes), at],
    );
    written += rowCount ?? 0;
  }
  if (complete) {
    const { rowCount } = await db.query(
      `UPDATE node SET "deletedAt" = $3, "updatedAt" = $3 WHERE "clusterId" = $1 AND "deletedAt" IS NULL AND NOT (name = ANY($2::text[]))`,
      [clusterId, nodes.map((n) => n.name), at],
    );
    written += rowCount ?? 0;
  }
  return written;
}
