// Creating and editing upgrade campaigns (operators and admins, from the web app; the route audits). The
// pages read campaigns afresh on every request, so nothing cached needs telling.
import { campaignSlug, type CampaignInput } from "../../upgrades/campaign";
import { getPool } from "../client";
import type { UpgradeCampaignRow } from "../rows";

/** Creates the campaign under a slug of its name (made unique with -2, -3, …); returns the slug. */
export async function createCampaign(input: CampaignInput, actor: string): Promise<string> {
  const base = campaignSlug(input.name);
  const { rows } = await getPool().query<Pick<UpgradeCampaignRow, "slug">>(
    `SELECT slug FROM upgrade_campaign WHERE slug = $1 OR slug LIKE $2`,
    [base, `${base}-%`],
  );
  const taken = new Set(rows.map((r) => r.slug));
  let slug = base;
  for (let i = 2; taken.has(slug); i++) slug = `${base}-${i}`;
  await getPool().query(
    `INSERT INTO upgrade_campaign (slug, name, "targetVersion", deadline, "waveLabel", "waveOrder", "createdBy", "updatedBy")
     VALUES ($1, $2, $3, $4::date, $5, $6, $7, $7)`,
    [slug, input.name, input.targetVersion, input.deadline, input.waveLabel, input.waveOrder, actor],
  );
  return slug;
}

/** Changes a campaign (its slug stays, so links keep working); false when there is none by that slug. */
export async function updateCampaign(slug: string, input: CampaignInput, actor: string): Promise<boolean> {
  const { rowCount } = await getPool().query(
    `UPDATE upgrade_campaign SET name = $2, "targetVersion" = $3, deadline = $4::date, "waveLabel" = $5, "waveOrder" = $6,
            "updatedAt" = now(), "updatedBy" = $7
      WHERE slug = $1 AND "archivedAt" IS NULL`,
    [slug, input.name, input.targetVersion, input.deadline, input.waveLabel, input.waveOrder, actor],
  );
  return !!rowCount;
}

export async function archiveCampaign(slug: string, actor: string): Promise<boolean> {
  const { rowCount } = await getPool().query(
    `UPDATE upgrade_campaign SET "archivedAt" = now(), "updatedAt" = now(), "updatedBy" = $2 WHERE slug = $1 AND "archivedAt" IS NULL`,
    [slug, actor],
  );
  return !!rowCount;
}

/** The demo's campaign, created at start-up when there is none. */
export async function seedCampaignIfNone(input: CampaignInput, actor: string): Promise<string | null> {
  const { rows } = await getPool().query<{ n: number }>(`SELECT count(*)::int AS n FROM upgrade_campaign`);
  if (rows[0].n > 0) return null;
  return createCampaign(input, actor);
}
