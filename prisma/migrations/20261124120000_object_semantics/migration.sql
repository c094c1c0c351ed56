-- Object semantics as the Flux controllers really write them (issue 12): when an object was created (a new
-- object waits for its controller from then), the healthy-but-different details (static OCI
-- HelmRepository, drifted HelmRelease), the deployed chart version apart from the last attempt, the
-- HelmChart a HelmRelease generated, and on kept Events the involved object's API version and Flux's
-- revision annotation.
ALTER TABLE "flux_object" ADD COLUMN "creationTimestamp" TIMESTAMP(3);
ALTER TABLE "flux_object" ADD COLUMN "healthDetail" TEXT;
ALTER TABLE "flux_object" ADD COLUMN "deployedChartVersion" TEXT;
ALTER TABLE "flux_object" ADD COLUMN "helmChartNamespace" TEXT;
ALTER TABLE "flux_object" ADD COLUMN "helmChartName" TEXT;
CREATE INDEX "flux_object_healthDetail_idx" ON "flux_object" ("healthDetail");

ALTER TABLE "flux_object_transition" ADD COLUMN "healthDetail" TEXT;

ALTER TABLE "kube_event" ADD COLUMN "involvedApiVersion" TEXT;
ALTER TABLE "kube_event" ADD COLUMN "revision" TEXT;

-- HelmReleases stored before this migration: what runs is the deployed version already kept as the applied revision.
UPDATE "flux_object" SET "deployedChartVersion" = "appliedRevision" WHERE kind = 'HelmRelease' AND "appliedRevision" IS NOT NULL;
