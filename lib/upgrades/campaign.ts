// Upgrade campaigns: a named target ("all clusters on 1.35 by 2027-03-01"), the clusters grouped in waves
// by an ordered label (default env: dev → staging → prod), and where each cluster stands. Progress is what
// the collector observes (versions, EKS status, readiness blockers), never a box someone ticks.
import { z } from "zod";
import { clusterVersionAt, present, type HistoryCluster } from "./fleet-history";
import type { VersionKnowledge } from "./known-version";
import type { Finding } from "./readiness";
import { compareVersions, kubernetesMinor } from "./versions";

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const DEFAULT_WAVE_LABEL = "env";
export const DEFAULT_WAVE_ORDER = ["dev", "staging", "prod"] as const;

/** A cluster column (env, team, region) or a key of the cluster's labels. */
const labelKey = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,62}$/, "a label key: letters, digits, . _ / -");

export const campaignInputSchema = z.object({
  name: z.string().trim().min(3, "at least 3 characters").max(120),
  targetVersion: z
    .string()
    .trim()
    .regex(/^1\.\d{1,3}$/, "a Kubernetes minor such as 1.35"),
  deadline: z
    .string()
    .regex(DATE, "expected YYYY-MM-DD")
    .refine((v) => !Number.isNaN(new Date(`${v}T00:00:00Z`).getTime()), "not a date"),
  waveLabel: labelKey.default(DEFAULT_WAVE_LABEL),
  /** Label values in wave order; clusters with another value (or none) form a last wave. */
  waveOrder: z
    .array(z.string().trim().min(1).max(63))
    .min(1)
    .max(20)
    .refine((v) => new Set(v).size === v.length, "each value once")
    .default([...DEFAULT_WAVE_ORDER]),
});

export type CampaignInput = z.infer<typeof campaignInputSchema>;

/** The campaign the demo and the page benchmark start with: the simulator's newest version, by a date a few months out. */
export const EXAMPLE_CAMPAIGN: CampaignInput = {
  name: "All clusters on 1.35 by 2027-03-01",
  targetVersion: "1.35",
  deadline: "2027-03-01",
  waveLabel: DEFAULT_WAVE_LABEL,
  waveOrder: [...DEFAULT_WAVE_ORDER],
};

/** Form fields (a comma-separated wave order) → the campaign input; throws a ZodError with every problem. */
export function parseCampaignForm(fields: Record<string, unknown>): CampaignInput {
  const order =
    typeof fields.waveOrder === "string"
      ? fields.waveOrder
          .split(/[,→>]+/)
          .map((s) => s.trim())
          .filter(Boolean)
      : fields.waveOrder;
  return campaignInputSchema.parse({ ...fields, waveOrder: order && (!Array.isArray(order) || order.length) ? order : undefined });
}

/** URL-safe name: "All clusters on 1.35!" → "all-clusters-on-1-35". */
export function campaignSlug(name: string): string {
  return (
    name
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "campaign"
  );
}

export type CampaignState = "done" | "upgrading" | "blocked" | "not-started" | "unknown";
export const CAMPAIGN_STATES: readonly CampaignState[] = ["done", "upgrading", "blocked", "not-started", "unknown"];

export interface CampaignClusterInput {
  name: string;
  env: string | null;
  team: string | null;
  region: string | null;
  labels: Record<string, string>;
  knowledge: VersionKnowledge;
  eksStatus: string | null;
  /** Readiness blockers for its next upgrade. */
  blockers: readonly Finding[];
  /** Its control-plane version when the campaign started (from history). */
  versionAtStart: string | null;
}

export interface CampaignCluster {
  name: string;
  version: string | null;
  versionSource: VersionKnowledge["source"];
  why: string | null;
  state: CampaignState;
  /** Minors still to go to the target. */
  minorsToGo: number | null;
  blockers: Finding[];
}

export interface CampaignWave {
  /** The label value, or null for the last wave (values outside the order, or no value). */
  value: string | null;
  clusters: CampaignCluster[];
  counts: Record<CampaignState, number>;
}

export interface CampaignProgress {
  waves: CampaignWave[];
  counts: Record<CampaignState, number>;
  total: number;
}

export function labelValue(c: Pick<CampaignClusterInput, "env" | "team" | "region" | "labels">, key: string): string | null {
  if (key === "env" || key === "team" || key === "region") return c[key];
  const v = c.labels[key];
  return typeof v === "string" && v ? v : null;
}

export function clusterState(c: CampaignClusterInput, target: string): CampaignCluster {
  const version = c.knowledge.version;
  const minor = kubernetesMinor(version);
  const toGo = minor ? Math.max(0, Number(target.split(".")[1]) - Number(minor.split(".")[1])) : null;
  let state: CampaignState;
  // A version we do not know (or one Crossplane is still creating) is neither done nor to do: counted apart.
  if (!minor || c.knowledge.source === "unknown" || c.knowledge.source === "desired") state = "unknown";
  else if (compareVersions(minor, target) >= 0) state = "done";
  else if ((c.eksStatus ?? "").toUpperCase() === "UPDATING") state = "upgrading";
  else if (c.versionAtStart && compareVersions(minor, c.versionAtStart) > 0)
    state = "upgrading"; // moved since the start, not there yet
  else if (c.blockers.length) state = "blocked";
  else state = "not-started";
  return {
    name: c.name,
    version: minor,
    versionSource: c.knowledge.source,
    why: c.knowledge.why,
    state,
    minorsToGo: toGo,
    blockers: state === "blocked" || state === "not-started" || state === "upgrading" ? [...c.blockers] : [],
  };
}

const emptyCounts = () => Object.fromEntries(CAMPAIGN_STATES.map((s) => [s, 0])) as Record<CampaignState, number>;

export function campaignProgress(
  campaign: Pick<CampaignInput, "targetVersion" | "waveLabel" | "waveOrder">,
  clusters: readonly CampaignClusterInput[],
): CampaignProgress {
  const waves: CampaignWave[] = [...campaign.waveOrder, null].map((value) => ({ value, clusters: [], counts: emptyCounts() }));
  const counts = emptyCounts();
  for (const c of clusters) {
    const value = labelValue(c, campaign.waveLabel);
    const wave = waves.find((w) => w.value !== null && w.value === value) ?? waves[waves.length - 1];
    const cc = clusterState(c, campaign.targetVersion);
    wave.clusters.push(cc);
    wave.counts[cc.state]++;
    counts[cc.state]++;
  }
  const order: Record<CampaignState, number> = { blocked: 0, unknown: 1, "not-started": 2, upgrading: 3, done: 4 };
  for (const w of waves) w.clusters.sort((a, b) => order[a.state] - order[b.state] || a.name.localeCompare(b.name));
  return { waves: waves.filter((w) => w.value !== null || w.clusters.length), counts, total: clusters.length };
}

export interface BurnDownPoint {
  date: string;
  /** Clusters present that day not yet on the target version (unknown versions included: not done). */
  remaining: number;
  done: number;
  /** The straight line from the start to zero at the deadline. */
  ideal: number | null;
}

/**
 * Clusters still to upgrade per day, from the version history, from `start` (the campaign's creation, or
 * earlier to show where it came from) to today, with the ideal line from the remaining count at the
 * campaign's creation to zero on the deadline.
 */
export function burnDown(
  clusters: readonly HistoryCluster[],
  campaign: { targetVersion: string; deadline: string; createdAt: Date },
  start: Date,
  now: Date,
): BurnDownPoint[] {
  const first = Math.floor(start.getTime() / DAY_MS) * DAY_MS;
  const created = Math.floor(campaign.createdAt.getTime() / DAY_MS) * DAY_MS;
  const deadline = new Date(`${campaign.deadline}T00:00:00Z`).getTime();
  const points: BurnDownPoint[] = [];
  let startRemaining: number | null = null;
  for (let day = first; day <= now.getTime(); day += DAY_MS) {
    const t = Math.min(day + DAY_MS - 1, now.getTime());
    let remaining = 0;
    let done = 0;
    for (const c of clusters) {
      if (!present(c.firstSeenAt, c.goneAt, t)) continue;
      const v = clusterVersionAt(c, t);
      if (v && compareVersions(v, campaign.targetVersion) >= 0) done++;
      else remaining++;
    }
    if (day === created) startRemaining = remaining;
    const ideal =
      startRemaining !== null && day >= created
        ? Math.max(0, Math.round(startRemaining * (1 - (day - created) / Math.max(DAY_MS, deadline - created)) * 10) / 10)
        : null;
    points.push({ date: new Date(day).toISOString().slice(0, 10), remaining, done, ideal });
  }
  return points;
}
