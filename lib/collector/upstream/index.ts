// Latest upstream chart versions for the charts the fleet runs.
//
//   export async function refreshUpstreamVersions(
//     ctx?: UpstreamContext | pg.Pool,   // a pg.Pool (the collector's hook) is accepted and means "defaults"
//     logger?: Logger,
//   ): Promise<UpstreamRefreshSummary>
//
// Call it once per collector cycle (or on its own timer): it reads the (repository, chart) pairs in use
// from flux_object (each HelmRelease resolved through its HelmRepository / OCIRepository in the same
// cluster), skips pairs fetched less than `maxAgeSeconds` ago, fetches each HTTP repository's
// index.yaml once (conditional on its ETag) and each OCI chart's tags, and writes chart_upstream.
// A repository that cannot be read gets `error`/`errorAt` set and keeps what was last read: reported,
// never guessed. It never throws for one repository; it throws only when the database fails.
// UPSTREAM_MIRRORS ("<repository URL prefix>=<mirror URL prefix>,...") reads a repository through a mirror
// (air-gapped networks); rows stay keyed by the URL the HelmRelease's source names.
import type pg from "pg";
import { mapLimit } from "../../concurrency";
import { getPrisma } from "../../db/client";
import { env } from "../../env";
import { logger as rootLogger, type Logger } from "../../logger";
import { normaliseRepositoryUrl } from "../../upgrades/addon-matrix";
import {
  argoChartSource,
  parseOciUrl,
  resolveChartSource,
  sourceKey,
  type ChartSource,
  type SourceObject,
} from "../../upgrades/chart-source";
import { newestVersion, sortNewestFirst } from "../../upgrades/versions";
import { fetchHelmIndex, UpstreamError } from "./helm-index";
import { chartVersionsFromTags, listOciTags } from "./oci-tags";

type Prisma = ReturnType<typeof getPrisma>;

export interface UpstreamContext {
  prisma?: Prisma;
  logger?: Logger;
  now?: () => Date;
  /** Per request (default COLLECTOR_REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Repositories fetched at once (default 4). */
  concurrency?: number;
  /** Re-fetch a pair only when its last fetch is older than this (default 2700 s: the collector calls hourly). */
  maxAgeSeconds?: number;
  /** Retry a failing pair after this (default 600 s). */
  errorRetrySeconds?: number;
  /** Ignore ages and fetch everything in use (still conditional on ETags). */
  force?: boolean;
  /** Repository URL prefix → mirror URL prefix (default: UPSTREAM_MIRRORS). */
  mirrors?: Record<string, string>;
}

/** "a=b,c=d" entries (split at the first "=") → prefix map. */
export function parseMirrors(entries: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of entries) {
    const i = e.indexOf("=");
    if (i > 0 && e.slice(i + 1).trim())
      out[normaliseRepositoryUrl(e.slice(0, i))] = e
        .slice(i + 1)
        .trim()
        .replace(/\/+$/, "");
  }
  return out;
}

/** Where to read a chart source: through the longest matching mirror prefix, else as named. */
export function throughMirror(source: ChartSource, mirrors: Record<string, string>): ChartSource {
  const prefix = Object.keys(mirrors)
    .filter((p) => source.repositoryUrl === p || source.repositoryUrl.startsWith(`${p}/`))
    .sort((a, b) => b.length - a.length)[0];
  if (!prefix) return source;
  const url = mirrors[prefix] + source.repositoryUrl.slice(prefix.length);
  if (source.protocol === "http") return { ...source, fetchUrl: url };
  // An OCI mirror may be named oci://host/path (TLS) or http(s)://host/path (http = plain-text registry).
  const ref = parseOciUrl(url.replace(/^https?:\/\//, "oci://"));
  if (!ref || !source.oci) return source;
  const suffix = source.oci.repository.slice(parseOciUrl(source.repositoryUrl)?.repository.length ?? source.oci.repository.length);
  return {
    ...source,
    oci: { registry: ref.registry, repository: `${ref.repository}${suffix}` },
    insecure: url.startsWith("http://") || source.insecure,
  };
}

export interface UpstreamRefreshSummary {
  /** (repository, chart) pairs in use. */
  pairs: number;
  /** Repositories contacted this time. */
  repositories: number;
  updated: number;
  notModified: number;
  failed: number;
  skippedFresh: number;
  durationMs: number;
  errors: { repositoryUrl: string; error: string }[];
}

const MAX_STORED_VERSIONS = 50;

/** The (repository, chart) pairs the fleet's HelmReleases and Argo CD Applications with a Helm source use, with how to reach each. */
export async function listChartSourcesInUse(prisma: Prisma): Promise<ChartSource[]> {
  const [releases, sourceRows, applications] = await Promise.all([
    prisma.fluxObject.findMany({
      where: { kind: "HelmRelease", deletedAt: null, chartName: { not: null } },
      select: { clusterId: true, namespace: true, chartName: true, sourceKind: true, sourceName: true, sourceNamespace: true },
    }),
    prisma.fluxObject.findMany({
      where: { kind: { in: ["HelmRepository", "OCIRepository"] }, deletedAt: null },
      select: { clusterId: true, kind: true, namespace: true, name: true, url: true, spec: true },
    }),
    prisma.fluxObject.findMany({
      where: { kind: "Application", deletedAt: null, chartName: { not: null } },
      select: { chartName: true, url: true },
    }),
  ]);
  const sources = new Map<string, SourceObject>(sourceRows.map((s) => [sourceKey(s.clusterId, s.kind, s.namespace, s.name), s]));
  const pairs = new Map<string, ChartSource>();
  for (const r of releases) {
    const source = resolveChartSource(r, sources);
    if (source) pairs.set(`${source.repositoryUrl}#${source.chart}`, source);
  }
  for (const app of applications) {
    const source = argoChartSource(app);
    if (source) pairs.set(`${source.repositoryUrl}#${source.chart}`, source);
  }
  return [...pairs.values()];
}

function isPool(value: unknown): value is pg.Pool {
  return !!value && typeof (value as pg.Pool).query === "function" && typeof (value as pg.Pool).connect === "function";
}

export async function refreshUpstreamVersions(ctxOrPool: UpstreamContext | pg.Pool = {}, logger?: Logger): Promise<UpstreamRefreshSummary> {
  const ctx: UpstreamContext = isPool(ctxOrPool) ? { logger } : { logger, ...ctxOrPool };
  const prisma = ctx.prisma ?? getPrisma();
  const log = (ctx.logger ?? rootLogger).child({ component: "upstream" });
  const mirrors = ctx.mirrors
    ? Object.fromEntries(Object.entries(ctx.mirrors).map(([from, to]) => [normaliseRepositoryUrl(from), to.replace(/\/+$/, "")]))
    : parseMirrors(env().UPSTREAM_MIRRORS);
  const now = ctx.now ?? (() => new Date());
  const started = Date.now();
  const timeoutMs = ctx.timeoutMs ?? env().COLLECTOR_REQUEST_TIMEOUT_MS;
  const maxAgeMs = (ctx.maxAgeSeconds ?? 2700) * 1000;
  const retryMs = (ctx.errorRetrySeconds ?? 600) * 1000;

  const pairs = (await listChartSourcesInUse(prisma)).map((p) => throughMirror(p, mirrors));
  const existing = await prisma.chartUpstream.findMany();
  const known = new Map(existing.map((e) => [`${e.repositoryUrl}#${e.chartName}`, e]));

  const due = pairs.filter((p) => {
    if (ctx.force) return true;
    const row = known.get(`${p.repositoryUrl}#${p.chart}`);
    if (!row) return true;
    const t = now().getTime();
    if (row.errorAt && (!row.fetchedAt || row.errorAt > row.fetchedAt)) return t - row.errorAt.getTime() >= retryMs;
    return !row.fetchedAt || t - row.fetchedAt.getTime() >= maxAgeMs;
  });

  // One request per HTTP repository (its index holds every chart); one per OCI chart.
  const jobs = new Map<string, ChartSource[]>();
  for (const p of due) {
    const key = p.protocol === "http" ? p.repositoryUrl : `${p.repositoryUrl}#${p.chart}`;
    jobs.set(key, [...(jobs.get(key) ?? []), p]);
  }

  const summary: UpstreamRefreshSummary = {
    pairs: pairs.length,
    repositories: jobs.size,
    updated: 0,
    notModified: 0,
    failed: 0,
    skippedFresh: pairs.length - due.length,
    durationMs: 0,
    errors: [],
  };

  const writeVersions = async (p: ChartSource, versions: string[], etag: string | null) => {
    const sorted = sortNewestFirst([...new Set(versions)]);
    const data = {
      latestVersion: newestVersion(sorted),
      versions: sorted.slice(0, MAX_STORED_VERSIONS),
      etag,
      fetchedAt: now(),
      error: sorted.length ? null : `chart ${p.chart} not found in repository`,
      errorAt: sorted.length ? null : now(),
    };
    await prisma.chartUpstream.upsert({
      where: { repositoryUrl_chartName: { repositoryUrl: p.repositoryUrl, chartName: p.chart } },
      create: { repositoryUrl: p.repositoryUrl, chartName: p.chart, ...data },
      update: data,
    });
    summary.updated++;
  };
  const writeError = async (p: ChartSource, message: string) => {
    const data = { error: message.slice(0, 500), errorAt: now() };
    await prisma.chartUpstream.upsert({
      where: { repositoryUrl_chartName: { repositoryUrl: p.repositoryUrl, chartName: p.chart } },
      create: { repositoryUrl: p.repositoryUrl, chartName: p.chart, ...data },
      update: data,
    });
  };

  await mapLimit([...jobs.entries()], ctx.concurrency ?? 4, async ([key, charts]) => {
    try {
      if (charts[0].protocol === "http") {
        // Conditional only when every chart wanted already has a row from the same index version.
        const rows = charts.map((c) => known.get(`${c.repositoryUrl}#${c.chart}`));
        const etag = rows.every((r) => r?.etag && r.etag === rows[0]?.etag && r.fetchedAt) ? rows[0]!.etag : null;
        const result = await fetchHelmIndex(charts[0].fetchUrl ?? key, { etag, timeoutMs });
        if (result.status === "not-modified") {
          await prisma.chartUpstream.updateMany({
            where: { repositoryUrl: key, chartName: { in: charts.map((c) => c.chart) } },
            data: { fetchedAt: now(), error: null, errorAt: null },
          });
          summary.notModified += charts.length;
          return;
        }
        for (const c of charts) await writeVersions(c, result.charts.get(c.chart) ?? [], result.etag);
      } else {
        const c = charts[0];
        const tags = await listOciTags({ ...c.oci!, insecure: c.insecure }, { timeoutMs });
        await writeVersions(c, chartVersionsFromTags(tags), null);
      }
    } catch (err) {
      const message = err instanceof UpstreamError ? err.message : `unexpected: ${(err as Error).message}`;
      summary.failed += charts.length;
      summary.errors.push({ repositoryUrl: key, error: message });
      log.warn({ repository: key, err: message }, "upstream repository unreadable");
      for (const c of charts) await writeError(c, message);
    }
  });

  summary.durationMs = Date.now() - started;
  log.info({ ...summary, errors: summary.errors.length }, "upstream versions refreshed");
  return summary;
}
