// Upgrade campaigns as a manager follows them: each cluster's state in its wave, from what the collector
// observed (version, EKS status, readiness blockers), and the burn-down from the version history. The
// campaigns themselves are read afresh on every request (a handful of rows: whoever just saved one sees
// it); the fleet data they are measured against is the cached copy the other upgrade pages share.
import { burnDown, campaignProgress, type BurnDownPoint, type CampaignProgress } from "../../upgrades/campaign";
import { clusterVersionAt } from "../../upgrades/fleet-history";
import { compareVersions } from "../../upgrades/versions";
import { getPool } from "../client";
import type { UpgradeCampaignRow } from "../rows";
import { derived, getUpgradeData } from "./upgrade-data";
import { upgradeFacts } from "./upgrades";

export interface CampaignRecord {
  id: number;
  slug: string;
  name: string;
  targetVersion: string;
  /** YYYY-MM-DD */
  deadline: string;
  waveLabel: string;
  waveOrder: string[];
  createdAt: Date;
  createdBy: string;
  updatedAt: Date;
  updatedBy: string;
}

/** Campaigns not archived, oldest first (or the one with this slug). */
async function readCampaigns(slug?: string): Promise<CampaignRecord[]> {
  const { rows } = await getPool().query<
    Pick<
      UpgradeCampaignRow,
      | "id"
      | "slug"
      | "name"
      | "targetVersion"
      | "deadline"
      | "waveLabel"
      | "waveOrder"
      | "createdAt"
      | "createdBy"
      | "updatedAt"
      | "updatedBy"
    >
  >(
    `SELECT id, slug, name, "targetVersion", deadline, "waveLabel", "waveOrder", "createdAt", "createdBy", "updatedAt", "updatedBy"
       FROM upgrade_campaign WHERE "archivedAt" IS NULL ${slug === undefined ? "" : "AND slug = $1"} ORDER BY "createdAt", id`,
    slug === undefined ? [] : [slug],
  );
  return rows.map((c) => ({ ...c, deadline: c.deadline.toISOString().slice(0, 10) }));
}

const DAY_MS = 86_400_000;
/** The burn-down starts this long before the campaign was created, to show where it came from. */
export const BURN_DOWN_LEAD_DAYS = 30;

export interface CampaignSummary extends Omit<CampaignRecord, "createdAt" | "updatedAt"> {
  url: string;
  createdAt: string;
  updatedAt: string;
  total: number;
  done: number;
  unknown: number;
  daysLeft: number;
}

export interface CampaignView extends CampaignSummary {
  progress: CampaignProgress;
  burnDown: BurnDownPoint[];
  /** The target version is newer than any version known to exist. */
  targetUnknown: boolean;
}

export const campaignPath = (slug: string) => `/upgrades/campaigns/${encodeURIComponent(slug)}`;

function viewOf(c: CampaignRecord, progress: CampaignProgress, now: Date): CampaignSummary {
  return {
    ...c,
    url: campaignPath(c.slug),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    total: progress.total,
    done: progress.counts.done,
    unknown: progress.counts.unknown,
    daysLeft: Math.ceil((new Date(`${c.deadline}T00:00:00Z`).getTime() - now.getTime()) / DAY_MS),
  };
}

async function progressOf(slug: string | null, now?: Date) {
  const [data, campaigns] = await Promise.all([getUpgradeData(), readCampaigns(slug ?? undefined)]);
  const at = now ?? new Date();
  const facts = upgradeFacts(data, at);
  const byName = new Map(data.history.clusters.map((h) => [h.name, h]));
  return {
    data,
    at,
    results: campaigns.map((c) =>
      derived(data, `campaign:${c.id}`, `${Math.floor(at.getTime() / 60_000)}@${c.updatedAt.getTime()}`, () => {
        const progress = campaignProgress(
          c,
          data.clusters.map((cluster, i) => ({
            name: cluster.name,
            env: cluster.env,
            team: cluster.team,
            region: cluster.region,
            labels: cluster.labels,
            knowledge: facts[i].view.knowledge,
            eksStatus: cluster.eksStatus,
            blockers: facts[i].view.blockers,
            versionAtStart: byName.get(cluster.name) ? clusterVersionAt(byName.get(cluster.name)!, c.createdAt.getTime()) : null,
          })),
        );
        return { campaign: c, progress };
      }),
    ),
  };
}

export async function listCampaigns(now?: Date): Promise<CampaignSummary[]> {
  const { results, at } = await progressOf(null, now);
  return results.map((r) => viewOf(r.campaign, r.progress, at));
}

export async function getCampaignView(slug: string, now?: Date): Promise<CampaignView | null> {
  const { data, results, at } = await progressOf(slug, now);
  const r = results[0];
  if (!r) return null;
  const c = r.campaign;
  const start = new Date(c.createdAt.getTime() - BURN_DOWN_LEAD_DAYS * DAY_MS);
  const firstSeen = Math.min(...data.history.clusters.map((h) => h.firstSeenAt.getTime()));
  // Only a change of the history (a new copy of the data) or of the day moves it, not the minute.
  const points = derived(data, `burn-down:${c.id}`, `${Math.floor(at.getTime() / DAY_MS)}@${c.updatedAt.getTime()}`, () =>
    burnDown(data.history.clusters, c, new Date(Math.max(start.getTime(), Number.isFinite(firstSeen) ? firstSeen : start.getTime())), at),
  );
  return {
    ...viewOf(c, r.progress, at),
    progress: r.progress,
    burnDown: points,
    targetUnknown: !data.knownVersions.some((v) => compareVersions(v, c.targetVersion) >= 0),
  };
}
