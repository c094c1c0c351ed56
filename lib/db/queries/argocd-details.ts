// Argo CD's specifics of a stored Application or ApplicationSet (the `details` column), read back through
// a schema: a stored shape we cannot read is shown as absent, never guessed.
import { z } from "zod";
import { commitLink, type CommitLink } from "../../fleet/commit-url";
import { clusterPath, objectPath } from "../../fleet/urls";

const text = z.string().nullable().catch(null);
const counts = z.record(z.string(), z.number()).catch({});

const source = z.object({
  repoURL: z.string().catch(""),
  path: text,
  chart: text,
  targetRevision: text,
  ref: text,
  kind: z.string().catch("git"),
});

const applicationSchema = z.object({
  project: text,
  syncStatus: text,
  healthStatus: text,
  operation: z
    .object({
      phase: z.string(),
      message: text,
      startedAt: text,
      finishedAt: text,
      initiatedBy: text,
      revisions: z.array(z.string()).catch([]),
      retryCount: z.number().nullable().catch(null),
    })
    .nullable()
    .catch(null),
  operationRequested: z.boolean().catch(false),
  refreshRequested: text,
  sources: z.array(source).catch([]),
  primarySource: z.number().nullable().catch(null),
  syncedRevisions: z.array(z.string()).catch([]),
  destination: z.object({ server: text, name: text, namespace: text }).catch({ server: null, name: null, namespace: null }),
  automatedSync: z.object({ enabled: z.boolean(), prune: z.boolean(), selfHeal: z.boolean() }).nullable().catch(null),
  resources: z
    .object({
      total: z.number(),
      byKind: counts,
      byStatus: counts,
      byHealth: counts,
      healthSource: z.string().catch("appTree"),
      apiVersions: z.array(z.object({ group: z.string(), version: z.string(), kind: z.string(), count: z.number() })).catch([]),
    })
    .nullable()
    .catch(null),
  history: z
    .array(
      z.object({
        id: z.number(),
        revisions: z.array(z.string()).catch([]),
        deployedAt: text,
        initiatedBy: text,
        chart: text,
        chartVersion: text,
      }),
    )
    .catch([]),
  warnings: z.array(z.string()).catch([]),
  drift: z.object({ reason: z.string(), message: z.string() }).nullable().catch(null),
  applicationSet: text,
});

const applicationSetSchema = z.object({
  generated: z.number().nullable().catch(null),
  byHealth: counts,
  byStatus: counts,
  applications: z.array(z.object({ namespace: z.string(), name: z.string(), health: text, status: text })).catch([]),
  generators: z.array(z.string()).catch([]),
  goTemplate: z.boolean().catch(false),
});

type StoredApplication = z.infer<typeof applicationSchema>;
type Source = z.infer<typeof source> & { commit: CommitLink | null };

export type ArgoApplicationView = Omit<StoredApplication, "sources" | "history"> & {
  sources: Source[];
  /** The synced revisions, each linked to its commit in the primary (else first) Git source when it can be. */
  synced: Array<{ revision: string; commit: CommitLink | null }>;
  history: Array<StoredApplication["history"][number] & { commits: Array<CommitLink | null> }>;
  /** Our cluster the destination resolves to (null: the cluster it lives in, or one we do not know). */
  destinationCluster: { name: string; url: string } | null;
  applicationSetUrl: string | null;
};

export type ArgoApplicationSetView = Omit<z.infer<typeof applicationSetSchema>, "applications"> & {
  applications: Array<{ namespace: string; name: string; health: string | null; status: string | null; url: string }>;
};

export type ArgoDetailView = { kind: "Application"; app: ArgoApplicationView } | { kind: "ApplicationSet"; set: ArgoApplicationSetView };

/** The view of a stored Argo CD object's details, or null for Flux kinds and unreadable details. */
export function argoDetailView(row: {
  kind: string;
  namespace: string;
  details: unknown;
  clusterName: string;
  targetClusterName: string | null;
}): ArgoDetailView | null {
  if (row.kind === "Application") {
    const parsed = applicationSchema.safeParse(row.details);
    if (!parsed.success) return null;
    const app = parsed.data;
    // Revisions belong to the sources in order (multi-source), else to the one source.
    const repoOf = (i: number) => app.sources[i]?.repoURL ?? app.sources[app.primarySource ?? 0]?.repoURL ?? null;
    const link = (revision: string, i: number) => commitLink(repoOf(app.sources.length > 1 ? i : 0), revision);
    return {
      kind: "Application",
      app: {
        ...app,
        sources: app.sources.map((s) => ({ ...s, commit: s.targetRevision ? commitLink(s.repoURL, s.targetRevision) : null })),
        synced: app.syncedRevisions.map((revision, i) => ({ revision, commit: link(revision, i) })),
        history: app.history.map((h) => ({ ...h, commits: h.revisions.map((r, i) => link(r, i)) })),
        destinationCluster: row.targetClusterName ? { name: row.targetClusterName, url: clusterPath(row.targetClusterName) } : null,
        applicationSetUrl: app.applicationSet
          ? objectPath({ cluster: row.clusterName, kind: "ApplicationSet", namespace: row.namespace, name: app.applicationSet })
          : null,
      },
    };
  }
  if (row.kind === "ApplicationSet") {
    const parsed = applicationSetSchema.safeParse(row.details);
    if (!parsed.success) return null;
    return {
      kind: "ApplicationSet",
      set: {
        ...parsed.data,
        applications: parsed.data.applications.map((a) => ({
          ...a,
          url: objectPath({ cluster: row.clusterName, kind: "Application", namespace: a.namespace, name: a.name }),
        })),
      },
    };
  }
  return null;
}
