// Mappers for the rest of what the collector reads per cluster: Events, nodes, server version, FluxReport.
import type { FluxReportSummary, KubeEventRecord } from "./types";
import { arr, obj, type Raw, str } from "./raw";

function iso(text: unknown): string | null {
  const s = str(text);
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** A core/v1 Event (or events.k8s.io shape served through core) about an object. */
export function toKubeEvent(raw: Raw): KubeEventRecord | null {
  const metadata = obj(raw.metadata);
  const involved = obj(raw.involvedObject);
  const uid = str(metadata.uid);
  const kind = str(involved.kind);
  const name = str(involved.name);
  if (!uid || !kind || !name) return null;
  const series = obj(raw.series);
  const first = iso(raw.firstTimestamp) ?? iso(raw.eventTime) ?? iso(metadata.creationTimestamp);
  const last = iso(raw.lastTimestamp) ?? iso(series.lastObservedTime) ?? first;
  if (!first || !last) return null;
  const count = typeof raw.count === "number" ? raw.count : typeof series.count === "number" ? series.count : 1;
  const involvedApiVersion = str(involved.apiVersion);
  return {
    uid,
    involvedApiVersion,
    involvedKind: kind,
    involvedNamespace: str(involved.namespace) ?? "",
    involvedName: name,
    type: str(raw.type) ?? "Normal",
    reason: str(raw.reason) ?? "",
    message: typeof raw.message === "string" ? raw.message : "",
    count: Math.max(1, Math.round(count)),
    firstTimestamp: first,
    lastTimestamp: last,
    reportingController: str(raw.reportingComponent) ?? str(obj(raw.source).component),
    revision: fluxEventRevision(involvedApiVersion, obj(metadata.annotations)),
  };
}

/**
 * The revision Flux writes on its Events as the annotation `<group of the object>/revision`
 * (kustomize.toolkit.fluxcd.io/revision, helm.toolkit.fluxcd.io/revision — the chart version —,
 * source.toolkit.fluxcd.io/revision). Null for Events without one (DriftDetected, dependency waits).
 */
export function fluxEventRevision(apiVersion: string | null, annotations: Raw): string | null {
  const group = apiVersion?.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : null;
  if (!group?.endsWith(".toolkit.fluxcd.io")) return null;
  return str(annotations[`${group}/revision`]);
}

/** { kubeletVersion: count } over the nodes of a cluster. */
export function kubeletVersions(nodes: Raw[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of nodes) {
    const v = str(obj(obj(obj(n).status).nodeInfo).kubeletVersion);
    if (v) out[v] = (out[v] ?? 0) + 1;
  }
  return out;
}

/** gitVersion of GET /version, e.g. v1.33.4-eks-3025e55. */
export function serverVersion(body: unknown): string | null {
  return str(obj(body).gitVersion);
}

/** The Flux Operator's FluxReport (one per cluster, flux-system/flux). */
export function toFluxReport(raw: Raw): FluxReportSummary {
  const spec = obj(raw.spec);
  const distribution = obj(spec.distribution);
  const ready = arr(obj(raw.status).conditions)
    .map(obj)
    .find((c) => c.type === "Ready");
  return {
    distribution: Object.keys(distribution).length
      ? { version: str(distribution.version), status: str(distribution.status), entitlement: str(distribution.entitlement) }
      : null,
    ready: ready ? str(ready.status) : null,
    readyMessage: ready ? str(ready.message) : null,
  };
}
