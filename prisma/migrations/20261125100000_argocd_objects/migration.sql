-- Argo CD Applications and ApplicationSets are stored beside Flux objects (issue 15): same table, same
-- history, with Argo CD's own specifics (sources, sync and health verdicts, operation, resources summary,
-- destination; an ApplicationSet's generated Applications) in one JSON column. Flux rows keep it null.
ALTER TABLE "flux_object" ADD COLUMN "details" JSONB;
