// Deployed is not attempted: a HelmRelease's version is the chart of its newest deployed release, and when
// the last attempt was another chart version, that attempt and how it ended are said apart
// ("77.14.0 deployed · 79.5.0 failed"). Build metadata (+<digest> on charts from OCI sources) is ignored
// when versions are compared.

/** "6.6.1+0cc9a8446c95" → "6.6.1". */
export function stripBuildMetadata(version: string): string {
  const plus = version.indexOf("+");
  return plus < 0 ? version : version.slice(0, plus);
}

export function sameChartVersion(a: string | null | undefined, b: string | null | undefined): boolean {
  return a != null && b != null && stripBuildMetadata(a) === stripBuildMetadata(b);
}

export type AttemptOutcome = "failed" | "in progress" | "uninstalled" | "not deployed";

export interface HelmVersions {
  /** Chart version of the newest deployed release; null when nothing is deployed. */
  deployed: string | null;
  /** The last attempt, when it was another version than the deployed one. */
  attempt: { version: string; outcome: AttemptOutcome } | null;
}

export interface HelmVersionsInput {
  /** Newest snapshot with status deployed (status.history). */
  deployed: string | null;
  /** status.lastAttemptedRevision: the chart version helm-controller last tried. */
  attempted: string | null;
  /** The newest snapshot (status.history[0]): what Helm recorded of the last release action. */
  latest: { chartVersion: string | null; status: string | null } | null;
  /** Stored health: tells an attempt Helm never recorded (a chart that could not be pulled) failed or runs. */
  health: string;
}

function outcomeOfSnapshot(status: string | null): AttemptOutcome | null {
  if (status === "failed") return "failed";
  if (status === "uninstalled" || status === "uninstalling") return "uninstalled";
  if (status?.startsWith("pending-")) return "in progress";
  return null;
}

export function helmVersions(input: HelmVersionsInput): HelmVersions {
  const attemptedVersion = input.attempted ?? input.latest?.chartVersion ?? null;
  if (!attemptedVersion || sameChartVersion(attemptedVersion, input.deployed)) return { deployed: input.deployed, attempt: null };
  const recorded =
    input.latest && sameChartVersion(input.latest.chartVersion, attemptedVersion) ? outcomeOfSnapshot(input.latest.status) : null;
  const outcome: AttemptOutcome =
    recorded ??
    (input.health === "failing" || input.health === "stalled"
      ? "failed"
      : input.health === "progressing" || input.health === "new"
        ? "in progress"
        : "not deployed");
  return { deployed: input.deployed, attempt: { version: attemptedVersion, outcome } };
}

/** "2.13.2 deployed · 2.14.0 failed", "2.13.2", "nothing deployed · 1.0.0 failed", or null when nothing is known. */
export function formatHelmVersions(v: HelmVersions): string | null {
  if (!v.attempt) return v.deployed;
  return `${v.deployed ? `${v.deployed} deployed` : "nothing deployed"} · ${v.attempt.version} ${v.attempt.outcome}`;
}
