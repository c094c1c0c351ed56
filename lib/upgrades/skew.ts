// kubelet ↔ API server version skew (Kubernetes version-skew policy): a kubelet may be up to three
// minors older than the API server and never newer. Before the control plane goes from N to N+1, every
// kubelet must therefore already be at N-2 or newer.
import { kubernetesMinor, minorsBehind, nextMinor } from "./versions";

export const MAX_KUBELET_MINORS_BEHIND = 3;

export interface KubeletGroup {
  /** Node group name, or "" for nodes counted from kubelet versions without a node group. */
  source: string;
  version: string;
  /** Number of nodes, when known. */
  nodes: number | null;
}

export interface SkewFinding extends KubeletGroup {
  minor: string;
  /** Minors behind the control plane now (negative: newer than the control plane). */
  behindNow: number;
  /** Minors behind after the control plane moves to N+1. */
  behindNext: number;
  /** Outside the policy today. */
  violatesNow: boolean;
  /** Would be outside the policy after N→N+1: blocks the upgrade. */
  blocksNext: boolean;
}

export interface SkewReport {
  controlPlane: string;
  next: string;
  groups: SkewFinding[];
  /** Largest skew now across all kubelets (0 when all match). */
  maxBehindNow: number;
  maxBehindNext: number;
  /** Oldest kubelet minor allowed before N→N+1 (N-2). */
  minimumForNext: string;
}

/** Kubelet versions as the collector stores them ({ "v1.33.4-eks-…": 3 }) → groups. */
export function kubeletGroupsFromCounts(counts: unknown): KubeletGroup[] {
  if (!counts || typeof counts !== "object") return [];
  return Object.entries(counts as Record<string, unknown>)
    .filter(([v]) => kubernetesMinor(v))
    .map(([version, n]) => ({ source: "", version, nodes: typeof n === "number" ? n : null }));
}

export function skewReport(controlPlane: string, kubelets: readonly KubeletGroup[]): SkewReport | null {
  const cp = kubernetesMinor(controlPlane);
  if (!cp) return null;
  const next = nextMinor(cp);
  const groups: SkewFinding[] = [];
  for (const k of kubelets) {
    const minor = kubernetesMinor(k.version);
    if (!minor) continue;
    const behindNow = minorsBehind(minor, cp);
    const behindNext = minorsBehind(minor, next);
    if (behindNow === null || behindNext === null) continue;
    groups.push({
      ...k,
      minor,
      behindNow,
      behindNext,
      violatesNow: behindNow < 0 || behindNow > MAX_KUBELET_MINORS_BEHIND,
      blocksNext: behindNext > MAX_KUBELET_MINORS_BEHIND,
    });
  }
  const [major, minorN] = cp.split(".").map(Number);
  return {
    controlPlane: cp,
    next,
    groups,
    maxBehindNow: Math.max(0, ...groups.map((g) => g.behindNow)),
    maxBehindNext: Math.max(0, ...groups.map((g) => g.behindNext)),
    minimumForNext: `${major}.${minorN - 2}`,
  };
}
