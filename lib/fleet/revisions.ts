// Which revision a history entry (or a list row) is about. A failure is about the revision that was
// attempted and failed, not the old one still applied; a healthy state is about what is applied. For a
// HelmRelease the applied revision is the deployed chart version, the attempted one the chart version
// helm-controller last tried (status.lastAttemptedRevision).

export interface EntryRevisionInput {
  kind: string;
  health: string;
  attemptedRevision: string | null;
  appliedRevision: string | null;
  /** HelmRelease: the newest release snapshot's chart version. */
  chartVersion?: string | null;
}

const IN_TROUBLE = new Set(["failing", "stalled", "progressing"]);

export function entryRevision(e: EntryRevisionInput): string | null {
  const chart = e.kind === "HelmRelease" ? (e.chartVersion ?? null) : null;
  if (IN_TROUBLE.has(e.health)) return e.attemptedRevision ?? chart ?? e.appliedRevision;
  return e.appliedRevision ?? chart ?? e.attemptedRevision;
}
