// Argo CD Applications and ApplicationSets as listed from the API server → the records we store. The health
// verdict comes from lib/fleet/argocd-status.ts; this file only reads Argo CD's fields (v3.5 shapes).
import { argoApplicationHealth, argoApplicationSetHealth, type ArgoHealth, type ArgoResourceHealthInput } from "../../fleet/argocd-status";
import { newestTransition, toConditions } from "../flux";
import type { Condition } from "../types";
import {
  ARGOCD_GROUP,
  ARGOCD_VERSION,
  type ArgoApplicationDetails,
  type ArgoApplicationSetDetails,
  type ArgoHistoryEntry,
  type ArgoKind,
  type ArgoApplicationRecord,
  type ArgoApplicationSetRecord,
  type ArgoOperationSummary,
  type ArgoResourceRef,
  type ArgoResourcesSummary,
  type ArgoSourceSummary,
} from "./types";

export interface ArgoKindInfo {
  kind: ArgoKind;
  group: string;
  plural: string;
  version: string;
  /** Application has no status subresource: Argo CD writes status on the object itself. */
  hasStatusSubresource: boolean;
}

/** @public What the collector lists per cluster once Argo CD sessions are wired in (issue 15). */
export const ARGO_KINDS: readonly ArgoKindInfo[] = [
  { kind: "Application", group: ARGOCD_GROUP, plural: "applications", version: ARGOCD_VERSION, hasStatusSubresource: false },
  { kind: "ApplicationSet", group: ARGOCD_GROUP, plural: "applicationsets", version: ARGOCD_VERSION, hasStatusSubresource: true },
];

/** Annotation that asks the controller for a refresh; it deletes it when done. */
export const REFRESH_ANNOTATION = "argocd.argoproj.io/refresh";

type Raw = Record<string, unknown>;
const obj = (v: unknown): Raw => (v && typeof v === "object" && !Array.isArray(v) ? (v as Raw) : {});
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => arr(v).filter((s): s is string => typeof s === "string");

function isoOrNull(text: unknown): string | null {
  const s = str(text);
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

function toSource(raw: unknown): ArgoSourceSummary {
  const s = obj(raw);
  const repoURL = str(s.repoURL) ?? "";
  const chart = str(s.chart);
  const oci = repoURL.startsWith("oci://") || (chart !== null && !/^https?:\/\//.test(repoURL));
  return {
    repoURL,
    path: str(s.path),
    chart,
    targetRevision: str(s.targetRevision),
    ref: str(s.ref),
    name: str(s.name),
    releaseName: str(obj(s.helm).releaseName),
    kind: chart ? (oci ? "oci" : "helm") : "git",
  };
}

/** The source that says what is deployed: the chart, else a path, else the first that is not only a values `ref`. */
export function primarySourceIndex(sources: ArgoSourceSummary[]): number | null {
  if (sources.length === 0) return null;
  const chart = sources.findIndex((s) => s.chart);
  if (chart >= 0) return chart;
  const path = sources.findIndex((s) => s.path);
  if (path >= 0) return path;
  const notRef = sources.findIndex((s) => !s.ref);
  return notRef >= 0 ? notRef : 0;
}

/** Revision(s) of a sync/history/comparison entry, one per source (multi-source) or one. */
function revisionsOf(entry: Raw): string[] {
  const many = strings(entry.revisions);
  if (many.length) return many;
  const one = str(entry.revision);
  return one ? [one] : [];
}

const revisionAt = (revisions: string[], index: number | null, multi: boolean): string | null =>
  revisions.length === 0 ? null : multi ? (revisions[index ?? 0] ?? null) : revisions[0];

function initiator(raw: unknown): string | null {
  const i = obj(raw);
  if (i.automated === true) return "automated";
  return str(i.username);
}

function toOperation(raw: unknown): ArgoOperationSummary | null {
  const state = obj(raw);
  const phase = str(state.phase);
  if (!phase) return null;
  const operation = obj(state.operation);
  const syncResult = obj(state.syncResult);
  const revisions = revisionsOf(syncResult);
  return {
    phase,
    message: str(state.message),
    startedAt: isoOrNull(state.startedAt),
    finishedAt: isoOrNull(state.finishedAt),
    initiatedBy: initiator(operation.initiatedBy),
    revisions: revisions.length ? revisions : revisionsOf(obj(operation.sync)),
    retryCount: num(state.retryCount),
  };
}

function toResources(raw: unknown): ArgoResourceRef[] {
  return arr(raw)
    .map(obj)
    .filter((r) => typeof r.kind === "string" && typeof r.name === "string")
    .map((r) => {
      const health = obj(r.health);
      return {
        group: str(r.group) ?? "",
        version: str(r.version) ?? "",
        kind: r.kind as string,
        namespace: str(r.namespace) ?? "",
        name: r.name as string,
        status: str(r.status),
        health: str(health.status),
        healthMessage: str(health.message),
      };
    });
}

const countBy = <T>(items: T[], key: (item: T) => string | null) => {
  const out: Record<string, number> = {};
  for (const item of items) {
    const k = key(item);
    if (k !== null) out[k] = (out[k] ?? 0) + 1;
  }
  return out;
};

function summarise(resources: ArgoResourceRef[], healthSource: unknown): ArgoResourcesSummary {
  const gvk = new Map<string, { group: string; version: string; kind: string; count: number }>();
  for (const r of resources) {
    const key = `${r.group}/${r.version}/${r.kind}`;
    const entry = gvk.get(key) ?? { group: r.group, version: r.version, kind: r.kind, count: 0 };
    entry.count++;
    gvk.set(key, entry);
  }
  return {
    total: resources.length,
    byKind: countBy(resources, (r) => r.kind),
    byStatus: countBy(resources, (r) => r.status),
    byHealth: countBy(resources, (r) => r.health),
    healthSource: healthSource === "appTree" ? "appTree" : "inline",
    apiVersions: [...gvk.values()].sort((a, b) => `${a.group}/${a.kind}/${a.version}`.localeCompare(`${b.group}/${b.kind}/${b.version}`)),
  };
}

function toHistory(raw: unknown, multi: boolean): ArgoHistoryEntry[] {
  // Argo CD appends: oldest first. We keep newest first, like Flux histories.
  return arr(raw)
    .map(obj)
    .map((h) => {
      const sources = multi ? arr(h.sources).map(toSource) : h.source ? [toSource(h.source)] : [];
      const primary = primarySourceIndex(sources);
      const revisions = revisionsOf(h);
      const chartSource = primary === null ? null : sources[primary];
      return {
        id: num(h.id) ?? -1,
        revisions,
        deployedAt: isoOrNull(h.deployedAt),
        deployStartedAt: isoOrNull(h.deployStartedAt),
        initiatedBy: initiator(h.initiatedBy),
        chart: chartSource?.chart ?? null,
        chartVersion: chartSource?.chart ? revisionAt(revisions, primary, multi) : null,
      };
    })
    .reverse();
}

/** Spec minus what may hold secrets or bulk (Helm values and parameters, plugin env). */
function keptSpec(spec: Raw): Raw {
  const clean = (source: unknown) => {
    const s = { ...obj(source) };
    if (s.helm) {
      const { values: _v, valuesObject: _o, parameters: _p, fileParameters: _f, ...helm } = obj(s.helm);
      s.helm = helm;
    }
    if (s.plugin) {
      const { env: _e, parameters: _p, ...plugin } = obj(s.plugin);
      s.plugin = plugin;
    }
    return s;
  };
  const out: Raw = { ...spec };
  if (spec.source) out.source = clean(spec.source);
  if (Array.isArray(spec.sources)) out.sources = spec.sources.map(clean);
  return out;
}

/** Application conditions have no status: present means true. */
function appConditions(raw: unknown): Condition[] {
  return arr(raw)
    .map(obj)
    .filter((c) => typeof c.type === "string")
    .map((c) => {
      const out: Condition = { type: c.type as string, status: "True" };
      if (typeof c.message === "string") out.message = c.message;
      if (str(c.lastTransitionTime)) out.lastTransitionTime = c.lastTransitionTime as string;
      return out;
    });
}

const READY_STATUS = { ready: "True", failing: "False", stalled: "False" } as Record<string, string>;

/** The common fields, with the verdict in the Flux-named readiness fields. */
function baseRecord<K extends ArgoKind>(
  kind: K,
  raw: Raw,
  verdict: { health: ArgoHealth; reason: string; message: string; drift?: { reason: string } | null },
) {
  const metadata = obj(raw.metadata);
  return {
    kind,
    health: verdict.health,
    // Healthy but out of sync with nobody to sync it: drift, shown and not counted, as for Flux.
    healthDetail: verdict.health === "ready" && verdict.drift ? ("drifted" as const) : null,
    creationTimestamp: isoOrNull(metadata.creationTimestamp),
    deployedChartVersion: null,
    helmChartNamespace: null,
    helmChartName: null,
    readyStatus: READY_STATUS[verdict.health] ?? "Unknown",
    readyReason: verdict.reason,
    readyMessage: verdict.message,
    apiVersion: str(raw.apiVersion) ?? `${ARGOCD_GROUP}/${ARGOCD_VERSION}`,
    namespace: str(metadata.namespace) ?? "",
    name: str(metadata.name) ?? "",
    uid: str(metadata.uid),
    // Applications have no status subresource: every status write bumps the generation, so it says nothing.
    generation: num(metadata.generation),
    observedGeneration: null,
    stalledReason: null,
    stalledMessage: null,
    suspended: false,
    originRevision: null,
    sourceKind: null,
    sourceNamespace: null,
    sourceName: null,
    appVersion: null,
    dependsOn: [],
    interval: null,
    intervalSeconds: null,
    lastHandledReconcileAt: null,
  };
}

/** Maps an Application as listed from the API server to the record we store. */
export function toArgoApplication(raw: Raw): ArgoApplicationRecord {
  const metadata = obj(raw.metadata);
  const spec = obj(raw.spec);
  const status = obj(raw.status);
  const sync = obj(status.sync);
  const multi = Array.isArray(spec.sources) && spec.sources.length > 0;
  const sources = multi ? arr(spec.sources).map(toSource) : spec.source ? [toSource(spec.source)] : [];
  const primary = primarySourceIndex(sources);
  const primarySource = primary === null ? null : sources[primary];
  const conditions = appConditions(status.conditions);
  const operation = toOperation(status.operationState);
  const resources = toResources(status.resources);
  const history = toHistory(status.history, multi);
  const automated = obj(obj(spec.syncPolicy).automated);
  const autoSyncOn = obj(spec.syncPolicy).automated !== undefined && obj(spec.syncPolicy).automated !== null && automated.enabled !== false;
  const syncedRevisions = revisionsOf(sync);
  const operationRequested = raw.operation !== undefined && raw.operation !== null;
  const join = (revisions: string[]) => (revisions.length ? revisions.join(", ") : null);

  const verdict = argoApplicationHealth({
    healthStatus: str(obj(status.health).status),
    syncStatus: str(sync.status),
    syncRevision: join(syncedRevisions),
    operationPhase: operation?.phase ?? null,
    operationMessage: operation?.message ?? null,
    operationRevision: operation ? join(operation.revisions) : null,
    operationRequested,
    conditions: conditions.map((c) => ({ type: c.type, message: c.message ?? null })),
    autoSync: autoSyncOn,
    selfHeal: automated.selfHeal === true,
    reconciledAt: str(status.reconciledAt),
    resources: resources as ArgoResourceHealthInput[],
  });

  const deployed = history[0] ?? null;
  const appliedRevision = deployed ? revisionAt(deployed.revisions, primary, multi) : null;
  const attemptedRevision = operation ? revisionAt(operation.revisions, primary, multi) : null;
  const owner = arr(metadata.ownerReferences)
    .map(obj)
    .find((o) => o.kind === "ApplicationSet");

  const argo: ArgoApplicationDetails = {
    project: str(spec.project),
    syncStatus: str(sync.status),
    healthStatus: str(obj(status.health).status),
    healthSince: isoOrNull(obj(status.health).lastTransitionTime),
    operation,
    operationRequested,
    refreshRequested: str(obj(metadata.annotations)["argocd.argoproj.io/refresh"]),
    sources,
    primarySource: primary,
    multiSource: multi,
    syncedRevisions,
    destination: {
      server: str(obj(spec.destination).server),
      name: str(obj(spec.destination).name),
      namespace: str(obj(spec.destination).namespace),
    },
    automatedSync: {
      enabled: autoSyncOn,
      prune: autoSyncOn && automated.prune === true,
      selfHeal: autoSyncOn && automated.selfHeal === true,
    },
    resources: summarise(resources, status.resourceHealthSource),
    history,
    warnings: verdict.warnings,
    drift: verdict.drift,
    reconciledAt: isoOrNull(status.reconciledAt),
    sourceTypes: strings(status.sourceTypes).length
      ? strings(status.sourceTypes)
      : str(status.sourceType)
        ? [status.sourceType as string]
        : [],
    images: strings(obj(status.summary).images),
    applicationSet: owner ? str(owner.name) : null,
  };

  return {
    ...baseRecord("Application", raw, verdict),
    reconciling: operation?.phase === "Running" || operationRequested,
    conditions,
    attemptedRevision,
    appliedRevision: appliedRevision ?? (str(sync.status) === "Synced" ? revisionAt(syncedRevisions, primary, multi) : null),
    url: primarySource?.repoURL || null,
    chartName: primarySource?.chart ?? null,
    chartVersion: primarySource?.chart ? appliedRevision : null,
    desiredChartVersion: primarySource?.chart ? primarySource.targetRevision : null,
    lastReconcileAt: isoOrNull(status.reconciledAt) ?? newestTransition(conditions),
    // Flux's inventory id form, so removed-API checks read Argo CD's managed resources the same way.
    inventory:
      status.resources === undefined ? null : resources.map((r) => ({ id: `${r.namespace}_${r.name}_${r.group}_${r.kind}`, v: r.version })),
    history: status.history === undefined ? null : history,
    spec: keptSpec(spec),
    argo,
  };
}

/** Maps an ApplicationSet as listed from the API server to the record we store. */
export function toArgoApplicationSet(raw: Raw): ArgoApplicationSetRecord {
  const spec = obj(raw.spec);
  const status = obj(raw.status);
  const conditions = toConditions(status.conditions);
  const apps = arr(status.resources)
    .map(obj)
    .filter((r) => typeof r.name === "string");
  const generated = num(status.resourcesCount) ?? (Array.isArray(status.resources) ? apps.length : null);
  const verdict = argoApplicationSetHealth({ conditions, generated });
  const appSet: ArgoApplicationSetDetails = {
    generated,
    byHealth: countBy(apps, (r) => str(obj(r.health).status)),
    byStatus: countBy(apps, (r) => str(r.status)),
    applications: apps.map((r) => ({
      namespace: str(r.namespace) ?? "",
      name: r.name as string,
      health: str(obj(r.health).status),
      status: str(r.status),
    })),
    generators: arr(spec.generators).flatMap((g) => Object.keys(obj(g))),
    templateName: str(obj(obj(spec.template).metadata).name),
    goTemplate: spec.goTemplate === true,
  };
  const { template: _template, ...keptAppSetSpec } = spec;
  return {
    ...baseRecord("ApplicationSet", raw, verdict),
    reconciling: conditions.some((c) => c.type === "RolloutProgressing" && c.status === "True"),
    conditions,
    attemptedRevision: null,
    appliedRevision: null,
    url: null,
    chartName: null,
    chartVersion: null,
    desiredChartVersion: null,
    lastReconcileAt: newestTransition(conditions),
    inventory: null,
    history: null,
    // The template may carry Helm values (secrets): keep the generators and policies only.
    spec: keptAppSetSpec,
    appSet,
  };
}
