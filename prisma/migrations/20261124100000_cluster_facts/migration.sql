-- Cluster facts (issue 12 items 2, 8, 10; issue 13 items 3, 4): clusters Crossplane is still creating, EKS
-- facts from Crossplane when the EKS API may not be asked (with their source), nodes, and the cluster a hub
-- object applies to.

ALTER TABLE "cluster" ADD COLUMN "provisioning" TEXT,
    ADD COLUMN "desiredVersion" TEXT,
    ADD COLUMN "eksFactsSource" TEXT,
    ADD COLUMN "eksError" TEXT,
    ADD COLUMN "eksErrorSince" TIMESTAMP(3);

-- EKS facts stored before this migration came from the EKS API.
UPDATE "cluster" SET "eksFactsSource" = 'eks-api' WHERE "eksVersion" IS NOT NULL;

ALTER TABLE "provisioning_resource" ADD COLUMN "secretState" TEXT,
    ADD COLUMN "resourceCreatedAt" TIMESTAMP(3),
    ADD COLUMN "desiredVersion" TEXT,
    ADD COLUMN "eksArn" TEXT,
    ADD COLUMN "version" TEXT,
    ADD COLUMN "platformVersion" TEXT,
    ADD COLUMN "eksStatus" TEXT,
    ADD COLUMN "supportType" TEXT,
    ADD COLUMN "state" TEXT,
    ADD COLUMN "stateReason" TEXT,
    ADD COLUMN "stateMessage" TEXT,
    ADD COLUMN "stateSince" TIMESTAMP(3);

ALTER TABLE "node_group" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'eks-api',
    ADD COLUMN "minSize" INTEGER,
    ADD COLUMN "maxSize" INTEGER;

ALTER TABLE "flux_object" ADD COLUMN "targetClusterId" INTEGER;
ALTER TABLE "flux_object" ADD CONSTRAINT "flux_object_targetClusterId_fkey" FOREIGN KEY ("targetClusterId") REFERENCES "cluster"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "flux_object_targetClusterId_idx" ON "flux_object"("targetClusterId");

CREATE TABLE "node" (
    "id" BIGSERIAL NOT NULL,
    "clusterId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "nodeGroup" TEXT,
    "kubeletVersion" TEXT,
    "readyStatus" TEXT,
    "readyReason" TEXT,
    "readyMessage" TEXT,
    "readySince" TIMESTAMP(3),
    "capacityType" TEXT,
    "instanceType" TEXT,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "node_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "node_clusterId_name_key" ON "node"("clusterId", "name");
ALTER TABLE "node" ADD CONSTRAINT "node_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The fleet page counts NotReady nodes of every cluster on each render: only those rows are indexed.
-- Prisma cannot declare a partial index; lib/db/schema-drift.test.ts lists it.
CREATE INDEX "node_not_ready_idx" ON "node"("clusterId") WHERE "deletedAt" IS NULL AND "readyStatus" IS DISTINCT FROM 'True';
