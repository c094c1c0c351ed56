-- Crow's Nest: first schema (clusters, Flux objects and their history, events, webhook inbox, audit,
-- EKS versions and upgrade data, collector coordination).

-- Cluster
CREATE TABLE "cluster" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'spoke',
    "accessPaths" JSONB NOT NULL DEFAULT '[]',
    "endpoint" TEXT,
    "eksArn" TEXT,
    "eksName" TEXT,
    "region" TEXT,
    "accountId" TEXT,
    "env" TEXT,
    "team" TEXT,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "lifecycle" TEXT NOT NULL DEFAULT 'active',
    "goneAt" TIMESTAMP(3),
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastAttemptAt" TIMESTAMP(3),
    "lastSuccessAt" TIMESTAMP(3),
    "lastErrorAt" TIMESTAMP(3),
    "lastError" TEXT,
    "lastErrorKind" TEXT,
    "latencyMs" INTEGER,
    "objectCount" INTEGER NOT NULL DEFAULT 0,
    "kubernetesVersion" TEXT,
    "eksVersion" TEXT,
    "platformVersion" TEXT,
    "eksStatus" TEXT,
    "supportType" TEXT,
    "eksHealth" JSONB,
    "kubeletVersions" JSONB NOT NULL DEFAULT '{}',
    "fluxVersion" TEXT,
    "fluxReport" JSONB,
    "substitutions" JSONB NOT NULL DEFAULT '{}',
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cluster_pkey" PRIMARY KEY ("id")
);

-- ProvisioningResource
CREATE TABLE "provisioning_resource" (
    "id" SERIAL NOT NULL,
    "clusterId" INTEGER NOT NULL,
    "apiVersion" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "namespace" TEXT NOT NULL DEFAULT '',
    "name" TEXT NOT NULL,
    "ready" TEXT,
    "readyReason" TEXT,
    "synced" TEXT,
    "syncedReason" TEXT,
    "conditions" JSONB NOT NULL DEFAULT '[]',
    "secretNamespace" TEXT,
    "secretName" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provisioning_resource_pkey" PRIMARY KEY ("id")
);

-- FluxObject
CREATE TABLE "flux_object" (
    "id" BIGSERIAL NOT NULL,
    "clusterId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "apiVersion" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "uid" TEXT,
    "generation" INTEGER,
    "observedGeneration" INTEGER,
    "health" TEXT NOT NULL,
    "readyStatus" TEXT,
    "readyReason" TEXT,
    "readyMessage" TEXT,
    "stalledReason" TEXT,
    "stalledMessage" TEXT,
    "reconciling" BOOLEAN NOT NULL DEFAULT false,
    "suspended" BOOLEAN NOT NULL DEFAULT false,
    "conditions" JSONB NOT NULL DEFAULT '[]',
    "attemptedRevision" TEXT,
    "appliedRevision" TEXT,
    "originRevision" TEXT,
    "sourceKind" TEXT,
    "sourceNamespace" TEXT,
    "sourceName" TEXT,
    "url" TEXT,
    "chartName" TEXT,
    "chartVersion" TEXT,
    "appVersion" TEXT,
    "desiredChartVersion" TEXT,
    "dependsOn" JSONB NOT NULL DEFAULT '[]',
    "interval" TEXT,
    "intervalSeconds" INTEGER,
    "lastHandledReconcileAt" TEXT,
    "lastReconcileAt" TIMESTAMP(3),
    "inventory" JSONB,
    "history" JSONB,
    "spec" JSONB NOT NULL DEFAULT '{}',
    "contentHash" TEXT NOT NULL,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "firstFailedAt" TIMESTAMP(3),
    "lastReadyAt" TIMESTAMP(3),
    "lastGoodRevision" TEXT,
    "deletedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "flux_object_pkey" PRIMARY KEY ("id")
);

-- FluxObjectTransition
CREATE TABLE "flux_object_transition" (
    "id" BIGSERIAL NOT NULL,
    "objectId" BIGINT NOT NULL,
    "clusterId" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "change" TEXT NOT NULL,
    "fields" TEXT[] NOT NULL,
    "health" TEXT NOT NULL,
    "previousHealth" TEXT,
    "readyStatus" TEXT,
    "readyReason" TEXT,
    "readyMessage" TEXT,
    "attemptedRevision" TEXT,
    "appliedRevision" TEXT,
    "chartVersion" TEXT,
    "appVersion" TEXT,
    "suspended" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "flux_object_transition_pkey" PRIMARY KEY ("id")
);

-- ClusterVersionChange
CREATE TABLE "cluster_version_change" (
    "id" BIGSERIAL NOT NULL,
    "clusterId" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "component" TEXT NOT NULL,
    "subject" TEXT NOT NULL DEFAULT '',
    "fromVersion" TEXT,
    "toVersion" TEXT,

    CONSTRAINT "cluster_version_change_pkey" PRIMARY KEY ("id")
);

-- KubeEvent
CREATE TABLE "kube_event" (
    "id" BIGSERIAL NOT NULL,
    "clusterId" INTEGER NOT NULL,
    "objectId" BIGINT,
    "uid" TEXT NOT NULL,
    "involvedKind" TEXT NOT NULL,
    "involvedNamespace" TEXT NOT NULL,
    "involvedName" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,
    "firstTimestamp" TIMESTAMP(3) NOT NULL,
    "lastTimestamp" TIMESTAMP(3) NOT NULL,
    "reportingController" TEXT,

    CONSTRAINT "kube_event_pkey" PRIMARY KEY ("id")
);

-- WebhookEvent
CREATE TABLE "webhook_event" (
    "id" BIGSERIAL NOT NULL,
    "clusterId" INTEGER NOT NULL,
    "objectId" BIGINT,
    "dedupeKey" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "involvedKind" TEXT NOT NULL,
    "involvedNamespace" TEXT NOT NULL,
    "involvedName" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "revision" TEXT,
    "eventTime" TIMESTAMP(3),
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "reportingController" TEXT,

    CONSTRAINT "webhook_event_pkey" PRIMARY KEY ("id")
);

-- AuditEntry
CREATE TABLE "audit_entry" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "actorName" TEXT,
    "role" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "clusterName" TEXT,
    "kind" TEXT,
    "namespace" TEXT,
    "name" TEXT,
    "result" TEXT NOT NULL,
    "detail" TEXT,

    CONSTRAINT "audit_entry_pkey" PRIMARY KEY ("id")
);

-- NodeGroup
CREATE TABLE "node_group" (
    "id" SERIAL NOT NULL,
    "clusterId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT,
    "releaseVersion" TEXT,
    "status" TEXT,
    "capacityType" TEXT,
    "amiType" TEXT,
    "instanceTypes" TEXT[] NOT NULL,
    "desiredSize" INTEGER,
    "health" JSONB NOT NULL DEFAULT '[]',
    "deletedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "node_group_pkey" PRIMARY KEY ("id")
);

-- ManagedAddon
CREATE TABLE "managed_addon" (
    "id" SERIAL NOT NULL,
    "clusterId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT,
    "status" TEXT,
    "health" JSONB NOT NULL DEFAULT '[]',
    "deletedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "managed_addon_pkey" PRIMARY KEY ("id")
);

-- AddonVersionCatalog
CREATE TABLE "addon_version_catalog" (
    "id" SERIAL NOT NULL,
    "addonName" TEXT NOT NULL,
    "kubernetesVersion" TEXT NOT NULL,
    "versions" JSONB NOT NULL DEFAULT '[]',
    "fetchedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "addon_version_catalog_pkey" PRIMARY KEY ("id")
);

-- EksVersion
CREATE TABLE "eks_version" (
    "clusterVersion" TEXT NOT NULL,
    "versionStatus" TEXT,
    "releaseDate" TIMESTAMP(3),
    "endOfStandardSupportDate" TIMESTAMP(3),
    "endOfExtendedSupportDate" TIMESTAMP(3),
    "defaultPlatformVersion" TEXT,
    "defaultVersion" BOOLEAN NOT NULL DEFAULT false,
    "fetchedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "eks_version_pkey" PRIMARY KEY ("clusterVersion")
);

-- UpgradeInsight
CREATE TABLE "upgrade_insight" (
    "id" SERIAL NOT NULL,
    "clusterId" INTEGER NOT NULL,
    "insightId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "kubernetesVersion" TEXT,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "description" TEXT,
    "recommendation" TEXT,
    "resources" JSONB NOT NULL DEFAULT '[]',
    "details" JSONB NOT NULL DEFAULT '{}',
    "lastRefreshTime" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "upgrade_insight_pkey" PRIMARY KEY ("id")
);

-- ChartUpstream
CREATE TABLE "chart_upstream" (
    "id" SERIAL NOT NULL,
    "repositoryUrl" TEXT NOT NULL,
    "chartName" TEXT NOT NULL,
    "latestVersion" TEXT,
    "versions" JSONB NOT NULL DEFAULT '[]',
    "etag" TEXT,
    "fetchedAt" TIMESTAMP(3),
    "error" TEXT,
    "errorAt" TIMESTAMP(3),

    CONSTRAINT "chart_upstream_pkey" PRIMARY KEY ("id")
);

-- CollectorLease
CREATE TABLE "collector_lease" (
    "clusterId" INTEGER NOT NULL,
    "holder" TEXT NOT NULL,
    "acquiredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "collector_lease_pkey" PRIMARY KEY ("clusterId")
);

-- CollectorRun
CREATE TABLE "collector_run" (
    "id" BIGSERIAL NOT NULL,
    "replica" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "clusters" INTEGER NOT NULL DEFAULT 0,
    "failedClusters" INTEGER NOT NULL DEFAULT 0,
    "objects" INTEGER NOT NULL DEFAULT 0,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "rowsWritten" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER,

    CONSTRAINT "collector_run_pkey" PRIMARY KEY ("id")
);

-- CollectorNudge
CREATE TABLE "collector_nudge" (
    "id" BIGSERIAL NOT NULL,
    "clusterName" TEXT NOT NULL,
    "kind" TEXT,
    "namespace" TEXT,
    "name" TEXT,
    "reason" TEXT NOT NULL,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "handledAt" TIMESTAMP(3),

    CONSTRAINT "collector_nudge_pkey" PRIMARY KEY ("id")
);

-- OperatorAction
CREATE TABLE "operator_action" (
    "id" BIGSERIAL NOT NULL,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "clusterName" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "result" TEXT,
    "handledAt" TIMESTAMP(3),
    "handledBy" TEXT,

    CONSTRAINT "operator_action_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "cluster_name_key" ON "cluster"("name");
CREATE UNIQUE INDEX "cluster_eksArn_key" ON "cluster"("eksArn");
CREATE INDEX "cluster_lifecycle_idx" ON "cluster"("lifecycle");
CREATE INDEX "cluster_env_team_region_idx" ON "cluster"("env", "team", "region");
CREATE UNIQUE INDEX "provisioning_resource_clusterId_kind_namespace_name_key" ON "provisioning_resource"("clusterId", "kind", "namespace", "name");
CREATE INDEX "flux_object_clusterId_health_idx" ON "flux_object"("clusterId", "health");
CREATE INDEX "flux_object_health_idx" ON "flux_object"("health");
CREATE INDEX "flux_object_kind_namespace_name_idx" ON "flux_object"("kind", "namespace", "name");
CREATE INDEX "flux_object_chartName_idx" ON "flux_object"("chartName");
CREATE UNIQUE INDEX "flux_object_clusterId_kind_namespace_name_key" ON "flux_object"("clusterId", "kind", "namespace", "name");
CREATE INDEX "flux_object_transition_objectId_at_idx" ON "flux_object_transition"("objectId", "at");
CREATE INDEX "flux_object_transition_clusterId_at_idx" ON "flux_object_transition"("clusterId", "at");
CREATE INDEX "flux_object_transition_at_idx" ON "flux_object_transition"("at");
CREATE INDEX "cluster_version_change_clusterId_at_idx" ON "cluster_version_change"("clusterId", "at");
CREATE INDEX "cluster_version_change_at_idx" ON "cluster_version_change"("at");
CREATE INDEX "cluster_version_change_component_at_idx" ON "cluster_version_change"("component", "at");
CREATE INDEX "kube_event_objectId_lastTimestamp_idx" ON "kube_event"("objectId", "lastTimestamp");
CREATE INDEX "kube_event_involved_idx" ON "kube_event"("clusterId", "involvedKind", "involvedNamespace", "involvedName");
CREATE INDEX "kube_event_lastTimestamp_idx" ON "kube_event"("lastTimestamp");
CREATE UNIQUE INDEX "kube_event_clusterId_uid_key" ON "kube_event"("clusterId", "uid");
CREATE UNIQUE INDEX "webhook_event_dedupeKey_key" ON "webhook_event"("dedupeKey");
CREATE INDEX "webhook_event_involved_idx" ON "webhook_event"("clusterId", "involvedKind", "involvedNamespace", "involvedName", "receivedAt");
CREATE INDEX "webhook_event_objectId_receivedAt_idx" ON "webhook_event"("objectId", "receivedAt");
CREATE INDEX "webhook_event_receivedAt_idx" ON "webhook_event"("receivedAt");
CREATE INDEX "audit_entry_at_idx" ON "audit_entry"("at");
CREATE INDEX "audit_entry_clusterName_kind_namespace_name_at_idx" ON "audit_entry"("clusterName", "kind", "namespace", "name", "at");
CREATE UNIQUE INDEX "node_group_clusterId_name_key" ON "node_group"("clusterId", "name");
CREATE UNIQUE INDEX "managed_addon_clusterId_name_key" ON "managed_addon"("clusterId", "name");
CREATE UNIQUE INDEX "addon_version_catalog_addonName_kubernetesVersion_key" ON "addon_version_catalog"("addonName", "kubernetesVersion");
CREATE UNIQUE INDEX "upgrade_insight_clusterId_insightId_key" ON "upgrade_insight"("clusterId", "insightId");
CREATE UNIQUE INDEX "chart_upstream_repositoryUrl_chartName_key" ON "chart_upstream"("repositoryUrl", "chartName");
CREATE INDEX "collector_lease_expiresAt_idx" ON "collector_lease"("expiresAt");
CREATE INDEX "collector_run_startedAt_idx" ON "collector_run"("startedAt");
CREATE INDEX "collector_nudge_handledAt_requestedAt_idx" ON "collector_nudge"("handledAt", "requestedAt");
CREATE INDEX "operator_action_status_requestedAt_idx" ON "operator_action"("status", "requestedAt");

ALTER TABLE "provisioning_resource" ADD CONSTRAINT "provisioning_resource_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "flux_object" ADD CONSTRAINT "flux_object_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "flux_object_transition" ADD CONSTRAINT "flux_object_transition_objectId_fkey" FOREIGN KEY ("objectId") REFERENCES "flux_object"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "flux_object_transition" ADD CONSTRAINT "flux_object_transition_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "cluster_version_change" ADD CONSTRAINT "cluster_version_change_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "kube_event" ADD CONSTRAINT "kube_event_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "kube_event" ADD CONSTRAINT "kube_event_objectId_fkey" FOREIGN KEY ("objectId") REFERENCES "flux_object"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "webhook_event" ADD CONSTRAINT "webhook_event_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_event" ADD CONSTRAINT "webhook_event_objectId_fkey" FOREIGN KEY ("objectId") REFERENCES "flux_object"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "node_group" ADD CONSTRAINT "node_group_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "managed_addon" ADD CONSTRAINT "managed_addon_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "upgrade_insight" ADD CONSTRAINT "upgrade_insight_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;
