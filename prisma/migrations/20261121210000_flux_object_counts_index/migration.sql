-- The fleet overview counts objects per cluster, kind and health; with this index Postgres answers from
-- the index alone instead of reading every (wide) flux_object row.
CREATE INDEX "flux_object_clusterId_kind_health_deletedAt_idx" ON "flux_object"("clusterId", "kind", "health", "deletedAt");
