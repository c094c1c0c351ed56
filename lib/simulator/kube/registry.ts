// The kinds a simulated API server serves. Discovery (/api, /apis, /apis/<group>/<version>) and routing
// are derived from this registry, so a model that returns a kind the registry has never seen (e.g. a
// Crossplane composite in the fleet's own API group) gets served without code changes.
import type { KubeObject } from "../contract";
import { newestOperationOverlay } from "./argocd-controller";

export interface PrinterColumn {
  name: string;
  type: "string" | "date" | "integer" | "boolean";
  jsonPath: string;
  description?: string;
  /** For kubectl's built-in printers, which compute cells a JSONPath cannot (counts, kind/name). */
  compute?: (object: Record<string, unknown>) => unknown;
  /** 0 = shown by default; more only with `-o wide` (CRD additionalPrinterColumns priority). */
  priority?: number;
}

const countOf = (field: string) => (object: Record<string, unknown>) => Object.keys((object[field] as object) ?? {}).length;
const dataColumn: PrinterColumn = {
  name: "Data",
  type: "integer",
  jsonPath: ".data",
  compute: (object) => countOf("data")(object) + countOf("binaryData")(object),
};

export interface ResourceType {
  /** "" for the core group. */
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Serves the /status subresource. */
  hasStatus: boolean;
  /** Table columns after Name, in order (CRD additionalPrinterColumns). */
  columns: PrinterColumn[];
  /** Field selectors beyond metadata.name / metadata.namespace. */
  fieldSelectors?: string[];
  /** Resources that only exist for the kinds of cluster that hold them still get discovered everywhere. */
  verbs?: string[];
  /** Adjusts a client overlay to the model's newer base before rendering (see argocd-controller.ts). */
  overlayFor?: (base: KubeObject, overlay: unknown) => unknown;
}

export const groupVersionOf = (type: ResourceType) => (type.group ? `${type.group}/${type.version}` : type.version);
export const resourceKey = (type: ResourceType) => `${type.group}/${type.version}/${type.plural}`;
/** `kustomizations.kustomize.toolkit.fluxcd.io`, or just `secrets` for the core group (as in messages). */
export const qualifiedResource = (type: ResourceType) => (type.group ? `${type.plural}.${type.group}` : type.plural);

const age: PrinterColumn = { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" };
const fluxReady: PrinterColumn = { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' };
const fluxStatus: PrinterColumn = { name: "Status", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].message' };
const url: PrinterColumn = { name: "URL", type: "string", jsonPath: ".spec.url" };
const xpReady: PrinterColumn = { name: "READY", type: "string", jsonPath: ".status.conditions[?(@.type=='Ready')].status" };
const xpSynced: PrinterColumn = { name: "SYNCED", type: "string", jsonPath: ".status.conditions[?(@.type=='Synced')].status" };
const xpAge: PrinterColumn = { ...age, name: "AGE" };
const externalName: PrinterColumn = {
  name: "EXTERNAL-NAME",
  type: "string",
  jsonPath: ".metadata.annotations.crossplane\\.io/external-name",
};

const fluxCategories = (kind: "appliers" | "sources") => ["all", "fluxcd", `fluxcd-${kind}`];

/** The column kube-apiserver prints for a CRD without additionalPrinterColumns. */
const defaultAge: PrinterColumn = {
  ...age,
  description:
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
};

/** Argo CD v3.5 CRDs (argoproj.io/v1alpha1): Application has no status subresource, ApplicationSet has one. */
export const ARGOCD_TYPES: ResourceType[] = [
  {
    group: "argoproj.io",
    version: "v1alpha1",
    plural: "applications",
    singular: "application",
    kind: "Application",
    namespaced: true,
    shortNames: ["app", "apps"],
    hasStatus: false,
    overlayFor: newestOperationOverlay,
    columns: [
      { name: "Sync Status", type: "string", jsonPath: ".status.sync.status" },
      { name: "Health Status", type: "string", jsonPath: ".status.health.status" },
      { name: "Revision", type: "string", jsonPath: ".status.sync.revision", priority: 10 },
      { name: "Project", type: "string", jsonPath: ".spec.project", priority: 10 },
    ],
  },
  {
    group: "argoproj.io",
    version: "v1alpha1",
    plural: "applicationsets",
    singular: "applicationset",
    kind: "ApplicationSet",
    namespaced: true,
    shortNames: ["appset", "appsets"],
    hasStatus: true,
    columns: [defaultAge],
  },
  {
    group: "argoproj.io",
    version: "v1alpha1",
    plural: "appprojects",
    singular: "appproject",
    kind: "AppProject",
    namespaced: true,
    shortNames: ["appproj", "appprojs"],
    hasStatus: false,
    columns: [defaultAge],
  },
];

/** A cluster-scoped Crossplane managed resource kind, with the printer columns of its provider's CRD. */
function managed(group: string, version: string, kind: string, columns: PrinterColumn[]): ResourceType {
  const singular = kind.toLowerCase();
  return {
    group,
    version,
    plural: `${singular}s`,
    singular,
    kind,
    namespaced: false,
    categories: ["crossplane", "managed", "aws"],
    hasStatus: true,
    columns,
  };
}

/** Column sets copied from the served versions' CRDs (additionalPrinterColumns) and kubectl's core printers. */
export const BUILTIN_TYPES: ResourceType[] = [
  {
    group: "",
    version: "v1",
    plural: "namespaces",
    singular: "namespace",
    kind: "Namespace",
    namespaced: false,
    shortNames: ["ns"],
    hasStatus: true,
    columns: [{ name: "Status", type: "string", jsonPath: ".status.phase" }, age],
    fieldSelectors: ["status.phase"],
  },
  {
    group: "",
    version: "v1",
    plural: "secrets",
    singular: "secret",
    kind: "Secret",
    namespaced: true,
    hasStatus: false,
    columns: [{ name: "Type", type: "string", jsonPath: ".type" }, dataColumn, age],
    fieldSelectors: ["type"],
  },
  {
    group: "",
    version: "v1",
    plural: "configmaps",
    singular: "configmap",
    kind: "ConfigMap",
    namespaced: true,
    shortNames: ["cm"],
    hasStatus: false,
    columns: [dataColumn, age],
  },
  {
    group: "",
    version: "v1",
    plural: "nodes",
    singular: "node",
    kind: "Node",
    namespaced: false,
    shortNames: ["no"],
    hasStatus: true,
    columns: [
      { name: "Status", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].type' },
      age,
      { name: "Version", type: "string", jsonPath: ".status.nodeInfo.kubeletVersion" },
    ],
    fieldSelectors: ["spec.unschedulable"],
  },
  {
    group: "",
    version: "v1",
    plural: "events",
    singular: "event",
    kind: "Event",
    namespaced: true,
    shortNames: ["ev"],
    hasStatus: false,
    columns: [
      { name: "Last Seen", type: "date", jsonPath: ".lastTimestamp" },
      { name: "Type", type: "string", jsonPath: ".type" },
      { name: "Reason", type: "string", jsonPath: ".reason" },
      {
        name: "Object",
        type: "string",
        jsonPath: ".involvedObject.name",
        compute: (object) => {
          const involved = object.involvedObject as { kind?: string; name?: string } | undefined;
          return `${(involved?.kind ?? "").toLowerCase()}/${involved?.name ?? ""}`;
        },
      },
      { name: "Message", type: "string", jsonPath: ".message" },
    ],
    fieldSelectors: [
      "involvedObject.kind",
      "involvedObject.namespace",
      "involvedObject.name",
      "involvedObject.uid",
      "involvedObject.apiVersion",
      "involvedObject.resourceVersion",
      "involvedObject.fieldPath",
      "reason",
      "reportingComponent",
      "source",
      "type",
    ],
  },
  {
    group: "kustomize.toolkit.fluxcd.io",
    version: "v1",
    plural: "kustomizations",
    singular: "kustomization",
    kind: "Kustomization",
    namespaced: true,
    shortNames: ["ks"],
    categories: fluxCategories("appliers"),
    hasStatus: true,
    columns: [age, fluxReady, fluxStatus],
  },
  {
    group: "helm.toolkit.fluxcd.io",
    version: "v2",
    plural: "helmreleases",
    singular: "helmrelease",
    kind: "HelmRelease",
    namespaced: true,
    shortNames: ["hr"],
    categories: fluxCategories("appliers"),
    hasStatus: true,
    columns: [age, fluxReady, fluxStatus],
  },
  {
    group: "source.toolkit.fluxcd.io",
    version: "v1",
    plural: "gitrepositories",
    singular: "gitrepository",
    kind: "GitRepository",
    namespaced: true,
    shortNames: ["gitrepo"],
    categories: fluxCategories("sources"),
    hasStatus: true,
    columns: [url, age, fluxReady, fluxStatus],
  },
  {
    group: "source.toolkit.fluxcd.io",
    version: "v1",
    plural: "ocirepositories",
    singular: "ocirepository",
    kind: "OCIRepository",
    namespaced: true,
    shortNames: ["ocirepo"],
    categories: fluxCategories("sources"),
    hasStatus: true,
    columns: [url, fluxReady, fluxStatus, age],
  },
  {
    group: "source.toolkit.fluxcd.io",
    version: "v1",
    plural: "helmrepositories",
    singular: "helmrepository",
    kind: "HelmRepository",
    namespaced: true,
    shortNames: ["helmrepo"],
    categories: fluxCategories("sources"),
    hasStatus: true,
    columns: [url, age, fluxReady, fluxStatus],
  },
  {
    group: "source.toolkit.fluxcd.io",
    version: "v1",
    plural: "helmcharts",
    singular: "helmchart",
    kind: "HelmChart",
    namespaced: true,
    shortNames: ["hc"],
    categories: fluxCategories("sources"),
    hasStatus: true,
    columns: [
      { name: "Chart", type: "string", jsonPath: ".spec.chart" },
      { name: "Version", type: "string", jsonPath: ".spec.version" },
      { name: "Source Kind", type: "string", jsonPath: ".spec.sourceRef.kind" },
      { name: "Source Name", type: "string", jsonPath: ".spec.sourceRef.name" },
      age,
      fluxReady,
      fluxStatus,
    ],
  },
  {
    group: "fluxcd.controlplane.io",
    version: "v1",
    plural: "fluxreports",
    singular: "fluxreport",
    kind: "FluxReport",
    namespaced: true,
    hasStatus: true,
    columns: [age, fluxReady, fluxStatus],
  },
  managed("eks.aws.crossplane.io", "v1beta1", "Cluster", [xpReady, xpSynced, xpAge]),
  managed("eks.aws.crossplane.io", "v1alpha1", "NodeGroup", [
    xpReady,
    xpSynced,
    { name: "CLUSTER", type: "string", jsonPath: ".spec.forProvider.clusterName" },
    xpAge,
  ]),
  // Upbound EKS: v1beta2 is the storage version and the one served here (v1beta1 is also served by a real
  // provider, through its conversion webhook); ClusterAuth exists at v1beta1 only.
  managed("eks.aws.upbound.io", "v1beta2", "Cluster", [xpSynced, xpReady, externalName, xpAge]),
  managed("eks.aws.upbound.io", "v1beta2", "NodeGroup", [xpSynced, xpReady, externalName, xpAge]),
  managed("eks.aws.upbound.io", "v1beta1", "ClusterAuth", [xpSynced, xpReady, externalName, xpAge]),
  ...ARGOCD_TYPES,
];

/** Kinds every cluster serves even when it holds none of them (an empty list, as on a real cluster). */
const ALWAYS_SERVED = new Set(["Namespace", "Secret", "ConfigMap", "Node", "Event"]);

function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

/** A guess at a CRD for a kind nobody described: Crossplane-style columns when it has Synced conditions. */
export function inferResourceType(object: KubeObject): ResourceType {
  const [group, version] = object.apiVersion.includes("/") ? object.apiVersion.split("/") : ["", object.apiVersion];
  const isCrossplane = group.includes("crossplane") || group.includes("upbound") || hasCondition(object, "Synced");
  return {
    group,
    version,
    plural: pluralOf(object.kind),
    singular: object.kind.toLowerCase(),
    kind: object.kind,
    namespaced: Boolean(object.metadata.namespace),
    categories: isCrossplane ? ["crossplane", "composite"] : undefined,
    hasStatus: true,
    columns: isCrossplane ? [xpSynced, xpReady, xpAge] : [age, fluxReady, fluxStatus],
  };
}

function hasCondition(object: KubeObject, type: string): boolean {
  const conditions = (object.status as { conditions?: { type?: string }[] } | undefined)?.conditions;
  return Array.isArray(conditions) && conditions.some((condition) => condition?.type === type);
}

/** One per simulated cluster: the kinds that cluster serves. */
export class ResourceRegistry {
  private byKey = new Map<string, ResourceType>();
  private byGroupVersionKind = new Map<string, ResourceType>();
  private served = new Set<string>();

  constructor(private readonly known: ResourceType[] = BUILTIN_TYPES) {
    for (const type of known) {
      this.byGroupVersionKind.set(`${groupVersionOf(type)}|${type.kind}`, type);
      if (ALWAYS_SERVED.has(type.kind) && type.group === "") this.serve(type);
    }
  }

  private serve(type: ResourceType) {
    this.byKey.set(resourceKey(type), type);
    this.served.add(resourceKey(type));
  }

  /** The type for an object the model returned; registers (and starts serving) it on first sight. */
  typeFor(object: KubeObject): ResourceType {
    const gvk = `${object.apiVersion}|${object.kind}`;
    let type = this.byGroupVersionKind.get(gvk);
    if (!type) {
      type = inferResourceType(object);
      this.byGroupVersionKind.set(gvk, type);
    }
    if (!this.served.has(resourceKey(type))) this.serve(type);
    return type;
  }

  /** Serve a kind even while the cluster holds no object of it (e.g. every Flux kind on every cluster). */
  ensureServed(group: string, kinds?: string[]) {
    for (const type of this.known) {
      if (type.group === group && (!kinds || kinds.includes(type.kind))) this.serve(type);
    }
  }

  lookup(group: string, version: string, plural: string): ResourceType | undefined {
    return this.byKey.get(`${group}/${version}/${plural}`);
  }

  types(): ResourceType[] {
    return [...this.byKey.values()];
  }

  /**
   * Groups in a stable order (as registered), each with its versions highest priority first, as kube-apiserver
   * orders them: the first is the group's preferred version (v1beta2 before v1beta1 for Upbound EKS, even where
   * ClusterAuth exists only at v1beta1).
   */
  groups(): { name: string; versions: string[] }[] {
    const groups = new Map<string, Set<string>>();
    for (const type of this.byKey.values()) {
      if (!type.group) continue;
      const versions = groups.get(type.group) ?? new Set<string>();
      versions.add(type.version);
      groups.set(type.group, versions);
    }
    return [...groups].map(([name, versions]) => ({ name, versions: [...versions].sort(compareVersionPriority) }));
  }
}

/**
 * Kubernetes version priority (apimachinery's CompareKubeAwareVersionStrings), highest first: GA before beta
 * before alpha, higher numbers first, anything else last in alphabetical order.
 */
function compareVersionPriority(a: string, b: string): number {
  const rank = (v: string): [number, number, number] | null => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return null;
    return [m[2] === "alpha" ? 0 : m[2] === "beta" ? 1 : 2, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [ra, rb] = [rank(a), rank(b)];
  if (!ra || !rb) return ra ? -1 : rb ? 1 : a.localeCompare(b);
  return rb[0] - ra[0] || rb[1] - ra[1] || rb[2] - ra[2];
}

/** Reads a CRD-style JSONPath as used in printer columns: `.a.b`, `.a[?(@.type=="X")].b`, `\.` escapes. */
export function evaluateColumnPath(object: unknown, jsonPath: string): unknown {
  const steps: string[] = [];
  let current = "";
  for (let i = 0; i < jsonPath.length; i++) {
    const char = jsonPath[i];
    if (char === "\\" && jsonPath[i + 1] === ".") {
      current += ".";
      i++;
    } else if (char === "[") {
      const end = jsonPath.indexOf("]", i);
      if (current) steps.push(current);
      steps.push(jsonPath.slice(i, end + 1));
      current = "";
      i = end;
    } else if (char === ".") {
      if (current) steps.push(current);
      current = "";
    } else current += char;
  }
  if (current) steps.push(current);

  let value: unknown = object;
  for (const step of steps) {
    if (value === undefined || value === null) return undefined;
    const filter = /^\[\?\(@\.(\w+)\s*==\s*["'](.*)["']\)\]$/.exec(step);
    if (filter) {
      if (!Array.isArray(value)) return undefined;
      value = value.find((item) => item && (item as Record<string, unknown>)[filter[1]] === filter[2]);
    } else if (/^\[\d+\]$/.test(step)) {
      value = Array.isArray(value) ? value[Number(step.slice(1, -1))] : undefined;
    } else {
      value = typeof value === "object" ? (value as Record<string, unknown>)[step] : undefined;
    }
  }
  return value;
}
