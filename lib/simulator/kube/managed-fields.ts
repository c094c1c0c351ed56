// metadata.managedFields, as kube-apiserver writes it on every object it serves (server-side field tracking,
// on since 1.18): one entry per manager and operation, each listing the fields that manager set (fieldsV1)
// and when it last changed one. Clients that never read it still receive and parse it with every list
// item and watch event, so a simulator without it served objects 30–40% smaller than real ones.
//
// The shape follows the recorded kube-apiserver responses (fixtures/20-watch-kustomizations.http): the
// kustomize-controller `Apply` of a Kustomization's spec, its `Update` of the status subresource, fields as
// `f:<name>`, a list a CRD leaves atomic as `{}`, and `".": {}` for the maps an Update created. Built-in
// types merge some lists by key (a Node's conditions and addresses, by `type`): `k:{"type":"Ready"}`.
// Who writes what is what the controllers of a fleet like ours do: Flux applies the objects it manages and
// its controllers write their status; the kubelet registers its Node and reports its status; the
// node-lifecycle controller sets the Node's ttl annotation; an Event belongs to the component that
// reported it. Times: the spec's when the object was created; the status's the latest time the status
// itself records (its conditions' transitions, a Node's heartbeat): a controller's write moves both.
// Client writes (a reconcile request) are not entered; nothing we serve depends on them.
import type { KubeObject } from "../contract";

export interface ManagedFieldsEntry {
  manager: string;
  operation: "Apply" | "Update";
  apiVersion: string;
  time: string;
  fieldsType: "FieldsV1";
  fieldsV1: Record<string, unknown>;
  subresource?: "status";
}

type Fields = Record<string, unknown>;
const isMap = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Lists a built-in type merges by a key (patchMergeKey), per path: a Node's conditions and addresses.
 * Everything else is atomic (`{}`), as every list of a CRD without x-kubernetes-list-type (Flux's conditions).
 */
const NODE_KEYED_LISTS: Record<string, string> = { "status.conditions": "type", "status.addresses": "type" };
const NO_KEYED_LISTS: Record<string, string> = {};
/** Structs a built-in type marks atomic (`+structType=atomic`): an Event's object references. */
const ATOMIC_STRUCTS = new Set(["involvedObject", "related"]);

/** Kubernetes' own kinds (core, `*.k8s.io`, unqualified groups) as opposed to custom resources. */
export const isBuiltInApiVersion = (apiVersion: string) => {
  const group = apiVersion.includes("/") ? apiVersion.split("/")[0] : "";
  return group === "" || !group.includes(".") || group.endsWith(".k8s.io");
};

/**
 * The fieldsV1 set of one value: a map's keys as `f:<key>` (with `".": {}` where an Update created a map
 * below the top level), a keyed list's items as `k:{"<key>":"<value>"}`, anything else `{}`. Keys come out sorted, as
 * kube-apiserver serialises field sets.
 */
export function fieldSet(value: unknown, update: boolean, path = "", keyed = NO_KEYED_LISTS, builtIn = false): Fields {
  const out: Fields = {};
  // Top-level parts (metadata, spec, status) never carry ".", deeper maps an Update made do.
  const nested = update && path.includes(".");
  if (isMap(value)) {
    if (nested) out["."] = {};
    for (const key of Object.keys(value).sort()) {
      const child = value[key];
      // A null is no field; a built-in type's empty string is its Go zero value, omitted (an Event's reportingInstance).
      if (child === null || (builtIn && child === "")) continue;
      const childPath = path ? `${path}.${key}` : key;
      const recurse = (isMap(child) && !(builtIn && ATOMIC_STRUCTS.has(childPath))) || (Array.isArray(child) && keyed[childPath]);
      out[`f:${key}`] = recurse ? fieldSet(child, update, childPath, keyed, builtIn) : {};
    }
    return out;
  }
  const mergeKey = keyed[path];
  if (mergeKey && Array.isArray(value)) {
    if (nested) out["."] = {};
    const items = value.filter(isMap);
    for (const item of [...items].sort((a, b) => String(a[mergeKey]).localeCompare(String(b[mergeKey])))) {
      out[`k:${JSON.stringify({ [mergeKey]: item[mergeKey] })}`] = fieldSet(item, update, `${path}[]`, keyed, builtIn);
    }
  }
  return out;
}

/** The fields of an object's top-level parts (`only` picks them), as one set. */
function partsSet(object: KubeObject, only: (key: string) => boolean, update: boolean, keyed = NO_KEYED_LISTS): Fields {
  const parts: Record<string, unknown> = {};
  for (const key of Object.keys(object))
    if (key !== "apiVersion" && key !== "kind" && key !== "metadata" && only(key)) parts[key] = object[key];
  return fieldSet(parts, update, "", keyed, isBuiltInApiVersion(object.apiVersion));
}

/** The labels (unless `annotationsOnly`), the annotations `annotations` keeps and the owner references. */
function metadataSet(
  metadata: KubeObject["metadata"],
  update: boolean,
  annotations?: (key: string) => boolean,
  annotationsOnly = false,
): Fields {
  const picked: Record<string, unknown> = {};
  if (!annotationsOnly && metadata.labels && Object.keys(metadata.labels).length) picked.labels = metadata.labels;
  const kept = Object.keys(metadata.annotations ?? {}).filter((key) => !annotations || annotations(key));
  if (kept.length) picked.annotations = Object.fromEntries(kept.map((key) => [key, metadata.annotations![key]]));
  if (!annotationsOnly && Array.isArray(metadata.ownerReferences) && metadata.ownerReferences.length)
    picked.ownerReferences = metadata.ownerReferences;
  return Object.keys(picked).length ? { "f:metadata": fieldSet(picked, update, "metadata") } : {};
}

/** The latest RFC 3339 time the status records (conditions, heartbeats, artifacts, handled requests). */
export function latestStatusTime(status: unknown): string | undefined {
  let latest: string | undefined;
  const visit = (value: unknown, depth: number) => {
    if (depth > 4) return;
    if (typeof value === "string") {
      if (RFC3339.test(value) && (latest === undefined || value > latest)) latest = value;
    } else if (Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (isMap(value)) for (const key of Object.keys(value)) visit(value[key], depth + 1);
  };
  visit(status, 0);
  return latest ? latest.replace(/\.\d+Z$/, "Z") : undefined;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Which controller writes a Flux kind's status. */
const FLUX_STATUS_MANAGER: Record<string, string> = {
  Kustomization: "kustomize-controller",
  HelmRelease: "helm-controller",
};

interface Writer {
  manager: string;
  operation: "Apply" | "Update";
}

/** Who created (or applies) the object: see the file comment. */
function creatorOf(object: KubeObject): Writer {
  const { kind, metadata } = object;
  const owners = Array.isArray(metadata.ownerReferences) ? (metadata.ownerReferences as { kind?: string }[]) : [];
  if (kind === "Event") {
    const source = object.source as { component?: string } | undefined;
    return { manager: String(object.reportingComponent || source?.component || "unknown"), operation: "Update" };
  }
  if (kind === "HelmChart") return { manager: "helm-controller", operation: "Update" };
  if (owners.some((o) => o.kind === "ApplicationSet")) return { manager: "argocd-applicationset-controller", operation: "Update" };
  const labels = metadata.labels ?? {};
  if (object.apiVersion.includes(".toolkit.fluxcd.io/") || Object.keys(labels).some((l) => l.startsWith("kustomize.toolkit.fluxcd.io/"))) {
    return { manager: "kustomize-controller", operation: "Apply" };
  }
  return { manager: "kubectl-client-side-apply", operation: "Update" };
}

/** Who writes the status of a custom resource (built-in kinds other than Node carry theirs in the main entry). */
function statusWriterOf(object: KubeObject): string {
  const group = object.apiVersion.split("/")[0];
  if (group.endsWith(".toolkit.fluxcd.io")) return FLUX_STATUS_MANAGER[object.kind] ?? "source-controller";
  if (group === "argoproj.io") return "argocd-application-controller";
  if (group.endsWith(".crossplane.io") || group.endsWith(".upbound.io")) return "provider-aws";
  return `${group.split(".")[0]}-controller`;
}

const TTL_ANNOTATION = "node.alpha.kubernetes.io/ttl";

/** What a kubelet's periodic status report changes: each condition's heartbeat, and the image list. */
function kubeletReportSet(status: Record<string, unknown>): Fields {
  const out: Fields = {};
  if (Array.isArray(status.conditions)) {
    const conditions: Fields = {};
    for (const c of status.conditions.filter(isMap).sort((a, b) => String(a.type).localeCompare(String(b.type)))) {
      conditions[`k:${JSON.stringify({ type: c.type })}`] = { "f:lastHeartbeatTime": {} };
    }
    out["f:conditions"] = conditions;
  }
  if (status.images !== undefined) out["f:images"] = {};
  return out;
}

/**
 * The managedFields a real API server would serve with this object (metadata.managedFields itself, uid,
 * resourceVersion and the like are ignored). `hasStatusSubresource`: the status is written through
 * /status (its own entry, `subresource: "status"`), as for every Flux kind and Node.
 */
export function managedFieldsOf(object: KubeObject, hasStatusSubresource: boolean): ManagedFieldsEntry[] {
  const created = object.metadata.creationTimestamp ?? "1970-01-01T00:00:00Z";
  const entry = (writer: Writer, fieldsV1: Fields, time: string, subresource?: "status"): ManagedFieldsEntry => ({
    manager: writer.manager,
    operation: writer.operation,
    apiVersion: object.apiVersion,
    time,
    fieldsType: "FieldsV1",
    fieldsV1,
    ...(subresource ? { subresource } : {}),
  });
  const status = object.status;
  const statusTime = latestStatusTime(status) ?? created;

  if (object.kind === "Node" && object.apiVersion === "v1") {
    // The kubelet registers the Node with its whole status (one entry); its later status reports own what
    // they changed since: every condition's heartbeat, the image list.
    const kubelet: Writer = { manager: "kubelet", operation: "Update" };
    const out = [
      entry(
        kubelet,
        { ...metadataSet(object.metadata, true, (key) => key !== TTL_ANNOTATION), ...partsSet(object, () => true, true, NODE_KEYED_LISTS) },
        created,
      ),
    ];
    if (object.metadata.annotations?.[TTL_ANNOTATION] !== undefined) {
      out.push(
        entry(
          { manager: "kube-controller-manager", operation: "Update" },
          metadataSet(object.metadata, true, (key) => key === TTL_ANNOTATION, true),
          created,
        ),
      );
    }
    if (isMap(status)) out.push(entry(kubelet, { "f:status": kubeletReportSet(status) }, statusTime, "status"));
    return out;
  }

  const creator = creatorOf(object);
  const update = creator.operation === "Update";
  // A custom resource's status has its own writer: through /status where the CRD has that subresource, by
  // a plain Update where it has none (Argo CD's Application). Built-in kinds here keep it with their creator.
  const group = object.apiVersion.includes("/") ? object.apiVersion.split("/")[0] : "";
  const separateStatus = status !== undefined && (hasStatusSubresource || group === "argoproj.io");
  const main = {
    ...metadataSet(object.metadata, update, (key) => !CLIENT_ANNOTATIONS.has(key)),
    ...partsSet(withoutDefaulted(object), (key) => !separateStatus || key !== "status", update),
  };
  const out: ManagedFieldsEntry[] = [];
  if (Object.keys(main).length) out.push(entry(creator, main, created));
  if (separateStatus) {
    const writer: Writer = { manager: statusWriterOf(object), operation: "Update" };
    out.push(
      entry(
        writer,
        partsSet(object, (k) => k === "status", true),
        statusTime,
        hasStatusSubresource ? "status" : undefined,
      ),
    );
  }
  return out;
}

/**
 * Top-level spec fields the Flux CRDs default (their schemas' `default:`): the API server fills them in,
 * so no applier owns them unless it set them too (the recorded Kustomizations: `force` served, not owned).
 */
const CRD_SPEC_DEFAULTS: Record<string, Record<string, unknown>> = {
  Kustomization: { force: false },
  GitRepository: { timeout: "60s" },
  Bucket: { provider: "generic", timeout: "60s" },
  HelmRepository: { provider: "generic" },
  OCIRepository: { provider: "generic", timeout: "60s" },
  HelmChart: { reconcileStrategy: "ChartVersion", version: "*" },
};

/** The object without the spec fields its CRD defaulted (see CRD_SPEC_DEFAULTS). */
function withoutDefaulted(object: KubeObject): KubeObject {
  const defaults = object.apiVersion.includes(".toolkit.fluxcd.io/") ? CRD_SPEC_DEFAULTS[object.kind] : undefined;
  if (!defaults || !isMap(object.spec)) return object;
  const spec = { ...object.spec };
  for (const [key, value] of Object.entries(defaults)) if (spec[key] === value) delete spec[key];
  return { ...object, spec };
}

/** Annotations a person or a tool sets on a live object, not part of what was applied. */
const CLIENT_ANNOTATIONS = new Set(["reconcile.fluxcd.io/requestedAt", "reconcile.fluxcd.io/forceAt", "argocd.argoproj.io/refresh"]);

/**
 * Entries in the key order the API server writes them: a built-in type's struct order; an unstructured
 * (custom) resource's sorted keys.
 */
export function orderedEntries(entries: ManagedFieldsEntry[], builtIn: boolean): Record<string, unknown>[] {
  if (builtIn) return entries as unknown as Record<string, unknown>[];
  return entries.map((e) =>
    Object.fromEntries(
      Object.keys(e)
        .sort()
        .map((k) => [k, e[k as keyof ManagedFieldsEntry]]),
    ),
  );
}
