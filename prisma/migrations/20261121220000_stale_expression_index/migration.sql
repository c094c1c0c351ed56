-- "Stale" (a ready or progressing Kustomization not reconciled for 2 × interval + 300 s; see
-- lib/fleet/status.ts) is asked of the whole fleet on every render of / and /failures. Without an index
-- that question scans every object. Prisma cannot declare an expression index, so this one lives in SQL
-- only; lib/db/schema-drift.test.ts lists it, and lib/db/queries/stale-index.test.ts proves the pages'
-- query uses it.
CREATE INDEX "flux_object_stale_after_idx" ON "flux_object" (("lastReconcileAt" + make_interval(secs => 2 * "intervalSeconds" + 300)))
  WHERE "deletedAt" IS NULL AND health IN ('ready', 'progressing') AND kind = 'Kustomization' AND "intervalSeconds" > 0;
