// How fresh is what the pages show: the newest collector cycle and the newest successful poll.
import { getPool } from "../client";

export interface Freshness {
  clusters: number;
  reachableClusters: number;
  lastCycleAt: string | null;
  lastSuccessAt: string | null;
}

export async function getFreshness(): Promise<Freshness> {
  const { rows } = await getPool().query<{
    clusters: string;
    reachable: string;
    last_success: Date | null;
    last_cycle: Date | null;
  }>(`
    SELECT
      -- Clusters Crossplane is still creating have nothing to reach: they count neither way.
      (SELECT count(*) FROM cluster WHERE lifecycle = 'active' AND provisioning IS NULL) AS clusters,
      (SELECT count(*) FROM cluster WHERE lifecycle = 'active' AND "lastSuccessAt" IS NOT NULL
         AND ("lastErrorAt" IS NULL OR "lastErrorAt" <= "lastSuccessAt")) AS reachable,
      (SELECT max("lastSuccessAt") FROM cluster) AS last_success,
      (SELECT max("finishedAt") FROM collector_run) AS last_cycle`);
  const r = rows[0];
  return {
    clusters: Number(r.clusters),
    reachableClusters: Number(r.reachable),
    lastSuccessAt: r.last_success?.toISOString() ?? null,
    lastCycleAt: r.last_cycle?.toISOString() ?? null,
  };
}
