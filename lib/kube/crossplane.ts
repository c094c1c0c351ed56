// Crossplane resources that provision spokes and publish their connection secrets, and the other hub
// objects that point at a spoke's kubeconfig (Flux kubeConfig.secretRef).
import { toConditions } from "./flux";
import type { CrossplaneNodeGroupRecord, ProvisioningRecord, SecretRef } from "./types";
import { arr, num, obj, type Raw, str } from "./raw";

export interface ProvisionerKind {
  group: string;
  plural: string;
  kind: string;
  versions: string[];
  namespaced: boolean;
}

/** Managed resources known to publish an EKS kubeconfig. Composites are found through discovery. */
export const PROVISIONER_KINDS: readonly ProvisionerKind[] = [
  { group: "eks.aws.crossplane.io", plural: "clusters", kind: "Cluster", versions: ["v1beta1"], namespaced: false },
  { group: "eks.aws.upbound.io", plural: "clusters", kind: "Cluster", versions: ["v1beta2", "v1beta1"], namespaced: false },
  { group: "eks.aws.upbound.io", plural: "clusterauths", kind: "ClusterAuth", versions: ["v1beta1"], namespaced: false },
  { group: "eks.aws.m.upbound.io", plural: "clusterauths", kind: "ClusterAuth", versions: ["v1beta1"], namespaced: true },
];

/**
 * EKS node groups Crossplane manages. Upbound serves v1beta1 (nested blocks as lists) and v1beta2 (objects,
 * the storage version); the server's preferred version is read and both shapes are understood.
 */
export const NODE_GROUP_KINDS: readonly ProvisionerKind[] = [
  { group: "eks.aws.crossplane.io", plural: "nodegroups", kind: "NodeGroup", versions: ["v1alpha1"], namespaced: false },
  { group: "eks.aws.upbound.io", plural: "nodegroups", kind: "NodeGroup", versions: ["v1beta2", "v1beta1"], namespaced: false },
];

/** A nested Terraform block: an object in Upbound v1beta2, a one-element list in v1beta1. */
const block = (v: unknown): Raw => (Array.isArray(v) ? obj(v[0]) : obj(v));

/** Where a Crossplane resource writes its connection secret (namespace defaults to the resource's own). */
export function connectionSecretOf(raw: Raw): SecretRef | null {
  const ref = obj(obj(raw.spec).writeConnectionSecretToRef);
  const name = str(ref.name);
  if (!name) return null;
  const namespace = str(ref.namespace) ?? str(obj(raw.metadata).namespace);
  return namespace ? { namespace, name } : null;
}

/** The EKS cluster name a Crossplane resource stands for, when it says. */
function eksNameOf(kind: string, raw: Raw): string | null {
  const metadata = obj(raw.metadata);
  const forProvider = obj(obj(raw.spec).forProvider);
  const annotations = obj(metadata.annotations);
  if (kind === "ClusterAuth") return str(forProvider.clusterName) ?? str(annotations["crossplane.io/external-name"]);
  return str(annotations["crossplane.io/external-name"]) ?? str(metadata.name);
}

export function toProvisioningRecord(raw: Raw): ProvisioningRecord {
  const metadata = obj(raw.metadata);
  const conditions = toConditions(obj(raw.status).conditions);
  const ready = conditions.find((c) => c.type === "Ready");
  const synced = conditions.find((c) => c.type === "Synced");
  const kind = str(raw.kind) ?? "";
  const secret = connectionSecretOf(raw);
  const forProvider = obj(obj(raw.spec).forProvider);
  const parameters = obj(obj(raw.spec).parameters);
  // ClusterAuth's atProvider holds only lastRefreshTime; composites carry no EKS facts of their own.
  const atProvider = kind === "ClusterAuth" ? {} : obj(obj(raw.status).atProvider);
  return {
    apiVersion: str(raw.apiVersion) ?? "",
    kind,
    namespace: str(metadata.namespace) ?? "",
    name: str(metadata.name) ?? "",
    ready: ready?.status ?? null,
    readyReason: ready?.reason ?? null,
    synced: synced?.status ?? null,
    syncedReason: synced?.reason ?? null,
    conditions,
    secretNamespace: secret?.namespace ?? null,
    secretName: secret?.name ?? null,
    eksName: eksNameOf(kind, raw),
    region: str(forProvider.region) ?? str(parameters.region),
    createdAt: str(metadata.creationTimestamp),
    desiredVersion: kind === "ClusterAuth" ? null : str(forProvider.version),
    eksArn: str(atProvider.arn),
    version: str(atProvider.version),
    platformVersion: str(atProvider.platformVersion),
    eksStatus: str(atProvider.status),
    supportType: str(block(atProvider.upgradePolicy).supportType) ?? str(block(forProvider.upgradePolicy).supportType),
    secret: null,
  };
}

/** A Crossplane NodeGroup of either provider, in either Upbound shape. */
export function toCrossplaneNodeGroup(raw: Raw): CrossplaneNodeGroupRecord {
  const metadata = obj(raw.metadata);
  const spec = obj(raw.spec);
  const forProvider = obj(spec.forProvider);
  const atProvider = obj(obj(raw.status).atProvider);
  const conditions = toConditions(obj(raw.status).conditions);
  const ready = conditions.find((c) => c.type === "Ready");
  const synced = conditions.find((c) => c.type === "Synced");
  const observedScaling = block(atProvider.scalingConfig);
  const desiredScaling = block(forProvider.scalingConfig);
  const resourceName = str(metadata.name) ?? "";
  const instanceTypes = arr(atProvider.instanceTypes).length ? arr(atProvider.instanceTypes) : arr(forProvider.instanceTypes);
  return {
    apiVersion: str(raw.apiVersion) ?? "",
    kind: str(raw.kind) ?? "NodeGroup",
    resourceName,
    name: str(obj(metadata.annotations)["crossplane.io/external-name"]) ?? resourceName,
    clusterName: str(forProvider.clusterName) ?? str(atProvider.clusterName),
    clusterRef: str(obj(forProvider.clusterNameRef).name),
    version: str(atProvider.version),
    releaseVersion: str(atProvider.releaseVersion),
    status: str(atProvider.status),
    capacityType: str(atProvider.capacityType) ?? str(forProvider.capacityType),
    amiType: str(atProvider.amiType) ?? str(forProvider.amiType),
    instanceTypes: instanceTypes.filter((t): t is string => typeof t === "string"),
    desiredSize: num(observedScaling.desiredSize) ?? num(desiredScaling.desiredSize),
    minSize: num(observedScaling.minSize) ?? num(desiredScaling.minSize),
    maxSize: num(observedScaling.maxSize) ?? num(desiredScaling.maxSize),
    ready: ready?.status ?? null,
    readyReason: ready?.reason ?? null,
    synced: synced?.status ?? null,
    syncedReason: synced?.reason ?? null,
  };
}

/** `spec.kubeConfig.secretRef` of a Flux Kustomization or HelmRelease in the hub. */
export function fluxKubeconfigRef(raw: Raw): SecretRef | null {
  const ref = obj(obj(obj(raw.spec).kubeConfig).secretRef);
  const name = str(ref.name);
  const namespace = str(obj(raw.metadata).namespace);
  if (!name || !namespace) return null;
  const key = str(ref.key);
  return key ? { namespace, name, key } : { namespace, name };
}

interface ApiGroup {
  name: string;
  versions: Array<{ groupVersion: string; version: string }>;
  preferredVersion?: { version: string };
}

/** Composite (and claim) kinds defined by CompositeResourceDefinitions, at their served versions. */
export function compositeKindsFromXrds(xrds: Raw[]): ProvisionerKind[] {
  const out: ProvisionerKind[] = [];
  for (const xrd of xrds) {
    const spec = obj(xrd.spec);
    const group = str(spec.group);
    if (!group) continue;
    const served = arr(spec.versions)
      .map(obj)
      .filter((v) => v.served !== false && typeof v.name === "string")
      .map((v) => v.name as string);
    if (!served.length) continue;
    const names = obj(spec.names);
    const scope = str(spec.scope);
    if (str(names.plural) && str(names.kind)) {
      out.push({ group, plural: names.plural as string, kind: names.kind as string, versions: served, namespaced: scope === "Namespaced" });
    }
    const claim = obj(spec.claimNames);
    if (str(claim.plural) && str(claim.kind)) {
      out.push({ group, plural: claim.plural as string, kind: claim.kind as string, versions: served, namespaced: true });
    }
  }
  return out;
}

/** group -> versions served, preferred first (from GET /apis). */
export function preferredVersions(apis: { groups?: ApiGroup[] } | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const g of apis?.groups ?? []) {
    const preferred = g.preferredVersion?.version;
    const versions = g.versions.map((v) => v.version);
    out.set(g.name, preferred ? [preferred, ...versions.filter((v) => v !== preferred)] : versions);
  }
  return out;
}

/** The version to use for a kind: the first version we understand that the server serves. */
export function servedVersion(served: Map<string, string[]>, group: string, known: string[]): string | null {
  const versions = served.get(group);
  if (!versions) return null;
  return versions.find((v) => known.includes(v)) ?? (known.length ? null : (versions[0] ?? null));
}
