// The scenario timeline, in milliseconds relative to the model's epoch t0 (the simulator's start).
// docs/simulator-scenarios.md describes the same numbers; keep both in step.
import { unit } from "./random";

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const TIMELINE = {
  /** kube-prometheus-stack in the helm-upgrade-stall spoke is bumped 77.14.0 → 79.5.0. */
  helmUpgradeStart: 1 * MINUTE,
  /** each upgrade attempt runs this long before it fails */
  helmAttemptDuration: 40 * SECOND,
  /** wait between a failure and the next attempt */
  helmRetryBackoff: 30 * SECOND,
  helmMaxAttempts: 3,
  /**
   * bad commit in fleet-apps main: the `checkout-api` image tag does not exist. Pushed before t0, so the
   * first page of the demo already shows one failure across several clusters.
   */
  badCommit: -30 * MINUTE,
  /** a second commit on main, still broken (README change) */
  secondBadCommit: 6 * MINUTE,
  /** the fix: image tag reverted */
  fixCommit: 15 * MINUTE,
  /** health check timeout of the `apps` Kustomization (spec.timeout) */
  appsHealthTimeout: 2 * MINUTE,
  /** time the fixed revision needs to pass health checks */
  appsHealthPass: 25 * SECOND,
  unreachableFrom: 3 * MINUTE,
  unreachableUntil: 33 * MINUTE,
  /** scheduled control plane upgrade N → N+1 */
  controlPlaneUpgradeStart: 5 * MINUTE,
  controlPlaneUpgradeEnd: 9 * MINUTE,
  nodeGroupUpgradeStart: 10 * MINUTE,
  nodeGroupUpgradeEnd: 14 * MINUTE,
  /** the expired-token spoke's ClusterAuth last refreshed this long before t0 */
  expiredTokenAge: 25 * MINUTE,
  /** the huge-message spoke's `tenants` health check first failed this long before t0 (then every 15 min) */
  tenantsFailingSince: -50 * MINUTE,
  /** the dependency-chain root started failing this long before t0 */
  dependencyRootFailingFor: 47 * MINUTE,
  /** how often connection-secret tokens are re-minted (classic provider / composite) */
  classicTokenRotation: 5 * MINUTE,
  /** ClusterAuth refreshPeriod */
  clusterAuthRefresh: 10 * MINUTE,
  /** every spoke reconciles its Kustomizations on this grid (status.history lastReconciled moves) */
  reconcileTick: 10 * MINUTE,
} as const;

/** Upgrade attempt k (1-based): [start, failure] relative to t0. */
export function helmAttempt(k: number): { start: number; fail: number } {
  const start = TIMELINE.helmUpgradeStart + (k - 1) * (TIMELINE.helmAttemptDuration + TIMELINE.helmRetryBackoff);
  return { start, fail: start + TIMELINE.helmAttemptDuration };
}

export interface Commit {
  id: "base" | "bad" | "bad2" | "fix";
  at: number;
  broken: boolean;
}

export const APPS_COMMITS: readonly Commit[] = [
  { id: "base", at: -3 * HOUR - 12 * MINUTE, broken: false },
  { id: "bad", at: TIMELINE.badCommit, broken: true },
  { id: "bad2", at: TIMELINE.secondBadCommit, broken: true },
  { id: "fix", at: TIMELINE.fixCommit, broken: false },
];

/** The `apps` GitRepository polls every 1m or 5m; a spoke sees a commit up to one interval later. */
export function appsSourceInterval(cluster: string): number {
  return unit(`apps-interval:${cluster}`) < 0.5 ? MINUTE : 5 * MINUTE;
}

export function appsFetchDelay(cluster: string): number {
  return 5 * SECOND + Math.floor(unit(`apps-delay:${cluster}`) * (appsSourceInterval(cluster) - 5 * SECOND));
}

/** Phase of a spoke's reconcile grid (ms within one tick). */
export function tickPhase(cluster: string): number {
  return Math.floor(unit(`tick:${cluster}`) * TIMELINE.reconcileTick);
}

/** Number of grid points p + k*period in (from, to]. */
export function gridPointsIn(from: number, to: number, phase: number, period: number): number {
  return Math.floor((to - phase) / period) - Math.floor((from - phase) / period);
}

/** Last grid point at or before `at`. */
export function lastGridPoint(at: number, phase: number, period: number): number {
  return Math.floor((at - phase) / period) * period + phase;
}
