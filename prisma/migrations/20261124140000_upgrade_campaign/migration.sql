-- Upgrade campaigns: a named target ("all clusters on 1.35 by 2027-03-01") operators set and managers
-- follow. Progress is never stored: it is derived from what the collector observes.
CREATE TABLE "upgrade_campaign" (
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "targetVersion" TEXT NOT NULL,
    "deadline" TIMESTAMP(3) NOT NULL,
    "waveLabel" TEXT NOT NULL DEFAULT 'env',
    "waveOrder" TEXT[] NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedBy" TEXT NOT NULL,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "upgrade_campaign_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "upgrade_campaign_slug_key" ON "upgrade_campaign"("slug");
