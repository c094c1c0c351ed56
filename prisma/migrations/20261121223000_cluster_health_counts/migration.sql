-- Objects per kind and stored health, kept by the collector after each successful poll, so the fleet
-- overview reads a thousand small rows instead of aggregating every object on every render.
ALTER TABLE "cluster" ADD COLUMN "healthCounts" JSONB;
