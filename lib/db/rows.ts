// Row types for raw SQL through node-postgres, derived from the Prisma models so they follow
// prisma/schema.prisma (which schema-drift.test.ts holds equal to the migrations). Queries pick the columns
// they select: `pool.query<Pick<FluxObjectRow, "kind" | "name">>(...)`.
import type * as Models from "./generated/client";

/**
 * What node-postgres returns for a model's columns: int8 (Prisma BigInt) arrives as a string, timestamps
 * as Dates (client.ts parses `timestamp` as UTC), JSON parsed.
 */
export type PgRow<Model> = {
  [Column in keyof Model]: Model[Column] extends bigint ? string : Model[Column] extends bigint | null ? string | null : Model[Column];
};

export type ClusterRow = PgRow<Models.Cluster>;
export type ProvisioningResourceRow = PgRow<Models.ProvisioningResource>;
export type FluxObjectRow = PgRow<Models.FluxObject>;
export type FluxObjectTransitionRow = PgRow<Models.FluxObjectTransition>;
export type KubeEventRow = PgRow<Models.KubeEvent>;
export type WebhookEventRow = PgRow<Models.WebhookEvent>;
export type AuditEntryRow = PgRow<Models.AuditEntry>;
export type NodeGroupRow = PgRow<Models.NodeGroup>;
export type NodeRow = PgRow<Models.Node>;
export type ClusterVersionChangeRow = PgRow<Models.ClusterVersionChange>;
export type ManagedAddonRow = PgRow<Models.ManagedAddon>;
export type EksVersionRow = PgRow<Models.EksVersion>;
export type AddonVersionCatalogRow = PgRow<Models.AddonVersionCatalog>;
export type UpgradeInsightRow = PgRow<Models.UpgradeInsight>;
export type ChartUpstreamRow = PgRow<Models.ChartUpstream>;
export type UpgradeCampaignRow = PgRow<Models.UpgradeCampaign>;
