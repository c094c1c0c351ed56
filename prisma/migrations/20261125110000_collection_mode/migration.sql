-- How the collector reads each cluster (issue 14): "watch" (LIST + WATCH sessions) or "poll", and why a
-- cluster is polled when watching was wanted (the watch engine's verdict, or COLLECTOR_MODE=poll).
ALTER TABLE "cluster" ADD COLUMN "collectionMode" TEXT;
ALTER TABLE "cluster" ADD COLUMN "collectionModeReason" TEXT;
ALTER TABLE "cluster" ADD COLUMN "collectionModeSince" TIMESTAMP(3);
