// Builders for Flux objects and their Events, shaped like the served CRD versions
// (Kustomization v1, HelmRelease v2, GitRepository/OCIRepository/HelmRepository/HelmChart v1).
import type { KubeObject } from "../contract";
import { goDuration, hex, iso, unit, uuid } from "./random";

export const FLUX_NS = "flux-system";
export const KS_API = "kustomize.toolkit.fluxcd.io/v1";
export const HR_API = "helm.toolkit.fluxcd.io/v2";
export const SOURCE_API = "source.toolkit.fluxcd.io/v1";

export interface Condition {
  type: string;
  status: "True" | "False" | "Unknown";
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration: number;
}

export function condition(
  type: string,
  status: Condition["status"],
  reason: string,
  message: string,
  at: number,
  observedGeneration: number,
): Condition {
  return { type, status, reason, message, lastTransitionTime: iso(at), observedGeneration };
}

/** Everything that makes one object unique and stable across calls. */
export interface ObjectIdentity {
  seed: number;
  cluster: string;
  createdAt: number;
}

export function meta(
  id: ObjectIdentity,
  kind: string,
  namespace: string | undefined,
  name: string,
  extra: { generation?: number; labels?: Record<string, string>; annotations?: Record<string, string> } = {},
) {
  const m: Record<string, unknown> = {
    name,
    ...(namespace ? { namespace } : {}),
    uid: objectUid(id, kind, namespace, name),
    creationTimestamp: iso(id.createdAt),
  };
  if (extra.generation !== undefined) m.generation = extra.generation;
  if (extra.labels) m.labels = extra.labels;
  if (extra.annotations) m.annotations = extra.annotations;
  return m as KubeObject["metadata"];
}

export function objectUid(id: ObjectIdentity, kind: string, namespace: string | undefined, name: string): string {
  return uuid(`${id.seed}:${id.cluster}:${kind}:${namespace ?? ""}:${name}`);
}

/** Labels kustomize-controller puts on what it applies (the Flux objects of a cluster are applied by flux-system). */
export function appliedBy(kustomization: string, namespace = FLUX_NS): Record<string, string> {
  return {
    "kustomize.toolkit.fluxcd.io/name": kustomization,
    "kustomize.toolkit.fluxcd.io/namespace": namespace,
  };
}

export const gitRevision = (branch: string, sha: string) => `${branch}@sha1:${sha}`;

/** time.RFC3339Nano as the flux CLI writes reconcile requests, e.g. 2026-11-21T19:02:11.482913004Z */
export function rfc3339Nano(ms: number, label: string): string {
  const nanos = String(Math.floor(unit(`nanos:${label}:${ms}`) * 1e9))
    .padStart(9, "0")
    .replace(/0+$/, "");
  return `${iso(ms).slice(0, 19)}${nanos ? `.${nanos}` : ""}Z`;
}

function artifactUrl(kind: string, namespace: string, name: string, file: string): string {
  return `http://source-controller.${FLUX_NS}.svc.cluster.local./${kind}/${namespace}/${name}/${file}`;
}

// ---------------------------------------------------------------------------------------------------
// Sources

export interface GitRepositoryInput {
  id: ObjectIdentity;
  name: string;
  namespace?: string;
  url: string;
  branch: string;
  interval: string;
  /** revision currently stored, undefined when the source never succeeded */
  revision?: string;
  fetchedAt: number;
  labels?: Record<string, string>;
  failure?: { reason: string; message: string; since: number };
  generation?: number;
}

export function gitRepository(input: GitRepositoryInput): KubeObject {
  const ns = input.namespace ?? FLUX_NS;
  const gen = input.generation ?? 1;
  const conditions: Condition[] = [];
  let artifact: Record<string, unknown> | undefined;
  if (input.revision) {
    const sha = input.revision.split(":").pop()!;
    artifact = {
      digest: `sha256:${hex(`git-artifact:${input.id.cluster}:${input.revision}`, 64)}`,
      lastUpdateTime: iso(input.fetchedAt),
      path: `gitrepository/${ns}/${input.name}/${sha}.tar.gz`,
      revision: input.revision,
      size: 20_000 + Math.floor(parseInt(sha.slice(0, 6), 16) % 180_000),
      url: artifactUrl("gitrepository", ns, input.name, `${sha}.tar.gz`),
    };
  }
  if (input.failure) {
    const f = input.failure;
    conditions.push(condition("Reconciling", "True", "ProgressingWithRetry", "building artifact", f.since, gen));
    conditions.push(condition("Ready", "False", f.reason, f.message, f.since, gen));
    conditions.push(condition("FetchFailed", "True", f.reason, f.message, f.since, gen));
    if (artifact) {
      conditions.push(
        condition("ArtifactInStorage", "True", "Succeeded", `stored artifact for revision '${input.revision}'`, input.fetchedAt, gen),
      );
    }
  } else {
    const msg = `stored artifact for revision '${input.revision}'`;
    conditions.push(condition("Ready", "True", "Succeeded", msg, input.fetchedAt, gen));
    conditions.push(condition("ArtifactInStorage", "True", "Succeeded", msg, input.fetchedAt, gen));
  }
  return {
    apiVersion: SOURCE_API,
    kind: "GitRepository",
    metadata: meta(input.id, "GitRepository", ns, input.name, { generation: gen, labels: input.labels }),
    spec: {
      interval: input.interval,
      ref: { branch: input.branch },
      secretRef: { name: "flux-system" },
      timeout: "60s",
      url: input.url,
    },
    status: {
      ...(artifact ? { artifact } : {}),
      conditions,
      observedGeneration: gen,
    },
  };
}

export interface HelmRepositoryInput {
  id: ObjectIdentity;
  name: string;
  url: string;
  interval: string;
  /** when the index was last fetched */
  fetchedAt: number;
  labels?: Record<string, string>;
}

export function helmRepository(input: HelmRepositoryInput): KubeObject {
  const digest = hex(`helm-index:${input.id.seed}:${input.url}:${Math.floor(input.fetchedAt / 86_400_000)}`, 64);
  const revision = `sha256:${digest}`;
  const msg = `stored artifact: revision '${revision}'`;
  return {
    apiVersion: SOURCE_API,
    kind: "HelmRepository",
    metadata: meta(input.id, "HelmRepository", FLUX_NS, input.name, { generation: 1, labels: input.labels }),
    spec: { interval: input.interval, url: input.url },
    status: {
      artifact: {
        digest: revision,
        lastUpdateTime: iso(input.fetchedAt),
        path: `helmrepository/${FLUX_NS}/${input.name}/index-${digest}.yaml`,
        revision,
        size: 400_000 + (parseInt(digest.slice(0, 5), 16) % 4_000_000),
        url: artifactUrl("helmrepository", FLUX_NS, input.name, `index-${digest}.yaml`),
      },
      conditions: [
        condition("Ready", "True", "Succeeded", msg, input.fetchedAt, 1),
        condition("ArtifactInStorage", "True", "Succeeded", msg, input.fetchedAt, 1),
      ],
      observedGeneration: 1,
      url: artifactUrl("helmrepository", FLUX_NS, input.name, "index.yaml"),
    },
  };
}

export interface OciRepositoryInput {
  id: ObjectIdentity;
  name: string;
  url: string;
  tag: string;
  interval: string;
  fetchedAt: number;
  generation: number;
  labels?: Record<string, string>;
}

export function ociDigest(id: ObjectIdentity, url: string, tag: string): string {
  return hex(`oci:${id.seed}:${url}:${tag}`, 64);
}

export function ociRepository(input: OciRepositoryInput): KubeObject {
  const digest = ociDigest(input.id, input.url, input.tag);
  const revision = `${input.tag}@sha256:${digest}`;
  const msg = `stored artifact for digest '${revision}'`;
  const file = `${hex(`oci-file:${digest}`, 64)}.tar.gz`;
  return {
    apiVersion: SOURCE_API,
    kind: "OCIRepository",
    metadata: meta(input.id, "OCIRepository", FLUX_NS, input.name, { generation: input.generation, labels: input.labels }),
    spec: {
      interval: input.interval,
      layerSelector: { mediaType: "application/vnd.cncf.helm.chart.content.v1.tar+gzip", operation: "copy" },
      provider: "generic",
      ref: { tag: input.tag },
      url: input.url,
    },
    status: {
      artifact: {
        digest: `sha256:${hex(`oci-artifact:${digest}`, 64)}`,
        lastUpdateTime: iso(input.fetchedAt),
        metadata: {
          "org.opencontainers.image.created": iso(input.fetchedAt - 9 * 86_400_000),
          "org.opencontainers.image.version": input.tag,
        },
        path: `ocirepository/${FLUX_NS}/${input.name}/${file}`,
        revision,
        size: 30_000 + (parseInt(digest.slice(0, 5), 16) % 60_000),
        url: artifactUrl("ocirepository", FLUX_NS, input.name, file),
      },
      conditions: [
        condition("Ready", "True", "Succeeded", msg, input.fetchedAt, input.generation),
        condition("ArtifactInStorage", "True", "Succeeded", msg, input.fetchedAt, input.generation),
      ],
      observedGeneration: input.generation,
      url: artifactUrl("ocirepository", FLUX_NS, input.name, "latest.tar.gz"),
    },
  };
}

export interface HelmChartInput {
  id: ObjectIdentity;
  /** the HelmRelease it was generated for */
  releaseNamespace: string;
  releaseName: string;
  chart: string;
  version: string;
  repository: string;
  interval: string;
  pulledAt: number;
  generation: number;
  /** Pulled from an OCI HelmRepository: a source without an index artifact to observe. */
  ociSource?: boolean;
}

export function helmChart(input: HelmChartInput): KubeObject {
  const name = `${input.releaseNamespace}-${input.releaseName}`;
  const msg = `pulled '${input.chart}' chart with version '${input.version}'`;
  const file = `${input.chart}-${input.version}.tgz`;
  return {
    apiVersion: SOURCE_API,
    kind: "HelmChart",
    metadata: meta(input.id, "HelmChart", FLUX_NS, name, { generation: input.generation }),
    spec: {
      chart: input.chart,
      interval: input.interval,
      reconcileStrategy: "ChartVersion",
      sourceRef: { kind: "HelmRepository", name: input.repository },
      version: input.version,
    },
    status: {
      artifact: {
        digest: `sha256:${hex(`chart:${input.chart}:${input.version}`, 64)}`,
        lastUpdateTime: iso(input.pulledAt),
        path: `helmchart/${FLUX_NS}/${name}/${file}`,
        revision: input.version,
        size: 10_000 + (parseInt(hex(`chart-size:${input.chart}:${input.version}`, 5), 16) % 500_000),
        url: artifactUrl("helmchart", FLUX_NS, name, file),
      },
      conditions: [
        condition("Ready", "True", "ChartPullSucceeded", msg, input.pulledAt, input.generation),
        condition("ArtifactInStorage", "True", "ChartPullSucceeded", msg, input.pulledAt, input.generation),
      ],
      observedChartName: input.chart,
      observedGeneration: input.generation,
      ...(input.ociSource
        ? {}
        : { observedSourceArtifactRevision: `sha256:${hex(`helm-index:${input.id.seed}:${input.repository}`, 64)}` }),
      url: artifactUrl("helmchart", FLUX_NS, name, `${input.chart}-latest.tgz`),
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Kustomization

export interface KsHistoryEpisode {
  revision: string;
  /** What kustomize-controller records: build failures, missing paths and unready sources add no entry. */
  status: "ReconciliationSucceeded" | "ReconciliationFailed" | "HealthCheckFailed" | "PruneFailed";
  first: number;
  last: number;
  total: number;
  durationMs: number;
}

export interface KustomizationInput {
  id: ObjectIdentity;
  name: string;
  namespace?: string;
  path: string;
  interval: string;
  retryInterval?: string;
  timeout?: string;
  sourceRef: { kind: "GitRepository" | "OCIRepository"; name: string; namespace?: string };
  dependsOn?: string[];
  generation: number;
  suspend?: boolean;
  wait?: boolean;
  substituteFrom?: boolean;
  kubeConfigSecret?: { name: string; key?: string };
  targetNamespace?: string;
  labels?: Record<string, string>;
  /** a `flux reconcile` request the controller has handled (annotation + status.lastHandledReconcileAt) */
  reconcileRequestedAt?: number;
  conditions: Condition[];
  lastAppliedRevision?: string;
  lastAttemptedRevision?: string;
  inventory: { id: string; v: string }[];
  /** most recent first */
  history: KsHistoryEpisode[];
}

export function kustomization(input: KustomizationInput): KubeObject {
  const spec: Record<string, unknown> = {
    interval: input.interval,
    path: input.path,
    prune: true,
    sourceRef: input.sourceRef,
  };
  if (input.retryInterval) spec.retryInterval = input.retryInterval;
  if (input.timeout) spec.timeout = input.timeout;
  if (input.wait) spec.wait = true;
  if (input.dependsOn?.length) spec.dependsOn = input.dependsOn.map((name) => ({ name }));
  if (input.suspend) spec.suspend = true;
  if (input.targetNamespace) spec.targetNamespace = input.targetNamespace;
  if (input.kubeConfigSecret) spec.kubeConfig = { secretRef: input.kubeConfigSecret };
  if (input.substituteFrom) {
    spec.postBuild = {
      substituteFrom: [
        { kind: "ConfigMap", name: "cluster-info" },
        { kind: "Secret", name: "cluster-secrets", optional: false },
      ],
    };
  }
  const status: Record<string, unknown> = {
    conditions: input.conditions,
    observedGeneration: input.generation,
  };
  if (input.history.length) {
    status.history = input.history.slice(0, 5).map((e) => ({
      digest: `sha256:${hex(`ks-build:${input.id.seed}:${input.id.cluster}:${input.name}:${e.revision}`, 64)}`,
      firstReconciled: iso(e.first),
      lastReconciled: iso(e.last),
      lastReconciledDuration: goDuration(e.durationMs),
      lastReconciledStatus: e.status,
      metadata: { revision: e.revision },
      totalReconciliations: e.total,
    }));
  }
  if (input.inventory.length) status.inventory = { entries: input.inventory };
  if (input.lastAppliedRevision) status.lastAppliedRevision = input.lastAppliedRevision;
  if (input.lastAttemptedRevision) status.lastAttemptedRevision = input.lastAttemptedRevision;
  let annotations: Record<string, string> | undefined;
  if (input.reconcileRequestedAt !== undefined) {
    const requestedAt = rfc3339Nano(input.reconcileRequestedAt, `${input.id.cluster}:${input.name}`);
    annotations = { "reconcile.fluxcd.io/requestedAt": requestedAt };
    status.lastHandledReconcileAt = requestedAt;
  }
  return {
    apiVersion: KS_API,
    kind: "Kustomization",
    metadata: meta(input.id, "Kustomization", input.namespace ?? FLUX_NS, input.name, {
      generation: input.generation,
      labels: input.labels,
      annotations,
    }),
    spec,
    status,
  };
}

// ---------------------------------------------------------------------------------------------------
// HelmRelease

export interface HelmSnapshot {
  version: number;
  /** Helm release statuses helm-controller copies into its snapshots. */
  status: "deployed" | "superseded" | "failed" | "pending-upgrade" | "pending-install" | "uninstalled";
  chartName: string;
  chartVersion: string;
  appVersion: string;
  firstDeployed: number;
  lastDeployed: number;
  action?: "install" | "upgrade";
  ociDigest?: string;
}

export interface HelmReleaseInput {
  id: ObjectIdentity;
  name: string;
  namespace: string;
  chart: string;
  version: string;
  source: { kind: "HelmRepository" | "OCIRepository"; name: string };
  interval: string;
  generation: number;
  dependsOn?: { name: string; namespace: string }[];
  suspend?: boolean;
  values?: Record<string, unknown>;
  kubeConfigSecret?: { name: string; key?: string };
  targetNamespace?: string;
  upgradeRetries?: number;
  labels?: Record<string, string>;
  conditions: Condition[];
  history: HelmSnapshot[];
  lastAttemptedRevision: string;
  lastAttemptedReleaseAction: "install" | "upgrade";
  lastAttemptedGeneration: number;
  failures?: number;
  installFailures?: number;
  upgradeFailures?: number;
  /** spec.install.remediation.retries (default 3 here). */
  installRetries?: number;
  inventory?: { id: string; v: string }[];
}

export function helmRelease(input: HelmReleaseInput): KubeObject {
  const spec: Record<string, unknown> = {
    interval: input.interval,
    install: { crds: "CreateReplace", remediation: { retries: input.installRetries ?? 3 } },
    upgrade: {
      crds: "CreateReplace",
      remediation: { retries: input.upgradeRetries ?? 2, remediateLastFailure: false },
    },
  };
  if (input.source.kind === "OCIRepository") {
    spec.chartRef = { kind: "OCIRepository", name: input.source.name, namespace: FLUX_NS };
  } else {
    spec.chart = {
      spec: {
        chart: input.chart,
        interval: "12h",
        reconcileStrategy: "ChartVersion",
        sourceRef: { kind: "HelmRepository", name: input.source.name, namespace: FLUX_NS },
        version: input.version,
      },
    };
  }
  if (input.dependsOn?.length) spec.dependsOn = input.dependsOn;
  if (input.suspend) spec.suspend = true;
  if (input.values) spec.values = input.values;
  if (input.kubeConfigSecret) spec.kubeConfig = { secretRef: input.kubeConfigSecret };
  if (input.targetNamespace) spec.targetNamespace = input.targetNamespace;
  const releaseNs = input.targetNamespace ?? input.namespace;
  const configDigest = `sha256:${hex(`values:${input.id.seed}:${input.id.cluster}:${input.name}:${input.generation}`, 64)}`;
  const status: Record<string, unknown> = {
    conditions: input.conditions,
    history: input.history.slice(0, 5).map((s) => ({
      ...(s.action ? { action: s.action } : {}),
      appVersion: s.appVersion,
      chartName: s.chartName,
      chartVersion: s.chartVersion,
      configDigest,
      digest: `sha256:${hex(`release:${input.id.cluster}:${input.name}:${s.version}`, 64)}`,
      firstDeployed: iso(s.firstDeployed),
      lastDeployed: iso(s.lastDeployed),
      name: input.name,
      namespace: releaseNs,
      ...(s.ociDigest ? { ociDigest: s.ociDigest } : {}),
      status: s.status,
      version: s.version,
    })),
    lastAttemptedConfigDigest: configDigest,
    lastAttemptedGeneration: input.lastAttemptedGeneration,
    lastAttemptedReleaseAction: input.lastAttemptedReleaseAction,
    lastAttemptedRevision: input.lastAttemptedRevision,
    observedGeneration: input.generation,
    storageNamespace: releaseNs,
  };
  if (input.source.kind === "HelmRepository") status.helmChart = `${FLUX_NS}/${input.namespace}-${input.name}`;
  if (input.failures) status.failures = input.failures;
  if (input.installFailures) status.installFailures = input.installFailures;
  if (input.upgradeFailures) status.upgradeFailures = input.upgradeFailures;
  if (input.inventory?.length) status.inventory = { entries: input.inventory };
  return {
    apiVersion: HR_API,
    kind: "HelmRelease",
    metadata: meta(input.id, "HelmRelease", input.namespace, input.name, {
      generation: input.generation,
      labels: input.labels,
    }),
    spec,
    status,
  };
}

// ---------------------------------------------------------------------------------------------------
// Events

export interface EventInput {
  id: ObjectIdentity;
  involved: KubeObject;
  reason: string;
  message: string;
  type: "Normal" | "Warning";
  controller: "kustomize-controller" | "helm-controller" | "source-controller";
  first: number;
  last: number;
  count: number;
  revision?: string;
  /** helm-controller's values digest (`helm.toolkit.fluxcd.io/token`), written next to the revision. */
  token?: string;
}

const CONTROLLER_GROUP: Record<EventInput["controller"], string> = {
  "kustomize-controller": "kustomize.toolkit.fluxcd.io",
  "helm-controller": "helm.toolkit.fluxcd.io",
  "source-controller": "source.toolkit.fluxcd.io",
};

export function event(input: EventInput): KubeObject {
  const involved = input.involved;
  const ns = involved.metadata.namespace ?? "default";
  // Kubernetes names events <object>.<hex of the first timestamp in ns>.
  const name = `${involved.metadata.name}.${(BigInt(input.first) * 1_000_000n + BigInt(input.reason.length)).toString(16)}`;
  // fluxcd/pkg runtime/events: the controller's metadata as `<group>/<key>` annotations (none when it has none).
  const group = CONTROLLER_GROUP[input.controller];
  const annotations = input.revision
    ? { [`${group}/revision`]: input.revision, ...(input.token ? { [`${group}/token`]: input.token } : {}) }
    : undefined;
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: {
      name,
      namespace: ns,
      uid: uuid(`${input.id.seed}:${input.id.cluster}:event:${ns}:${name}:${input.reason}`),
      creationTimestamp: iso(input.first),
      ...(annotations ? { annotations } : {}),
    },
    involvedObject: {
      apiVersion: involved.apiVersion,
      kind: involved.kind,
      name: involved.metadata.name,
      namespace: ns,
      uid: involved.metadata.uid,
    },
    reason: input.reason,
    message: input.message,
    source: { component: input.controller },
    firstTimestamp: iso(input.first),
    lastTimestamp: iso(input.last),
    count: input.count,
    type: input.type,
    eventTime: null,
    reportingComponent: input.controller,
    // The core/v1 recorder controller-runtime gives Flux leaves it empty (lab recordings: "reportingInstance": "").
    reportingInstance: "",
  };
}
