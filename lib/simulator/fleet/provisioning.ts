// Clusters Crossplane is creating during the run, and one it fails to create, with everything a real hub
// shows for them (crossplane-runtime v1.20/v2.2, provider-aws v0.58, upjet v2.4):
// - the connection secret exists EMPTY from the first reconcile and gets its keys once the cluster is ACTIVE;
// - provider-aws: Ready False `Creating`, `atProvider.status: CREATING`, Normal `CreatedExternalResource`;
// - upjet: empty `atProvider` for the whole creation, `AsyncOperation` False `Ongoing`; its ClusterAuth fails
//   `create failed: ca data from the retrieved cluster is empty` (Warning `CannotCreateExternalResource`) until
//   the cluster is ACTIVE;
// - a failed upjet create: Synced False `ReconcileError` `create failed: async create failed: …` and
//   LastAsyncOperation False `AsyncCreateFailure`, for ever;
// - the hub's `bootstrap-<cluster>` Kustomization fails with kustomize-controller's "KubeConfig secret … does
//   not contain a … key" until the kubeconfig is there.
// The two created clusters are then served like spokes (a fresh cluster: nodes and Flux's own objects).
import type { KubeObject, RuntimeInfo } from "../contract";
import { CROSSPLANE_IDENTITY } from "../aws/identities";
import { mintEksToken } from "../aws/token";
import { eksVersion } from "./catalogue";
import { FLUX_NS, appliedBy, condition, event, gitRepository, gitRevision, kustomization, meta, type ObjectIdentity } from "./flux";
import { CLASSIC_API, UPBOUND_API, UPBOUND_AUTH_API, connectionSecret, crossplaneConditions, kubeconfigYaml, type SecretRef } from "./hub";
import { clusterScopedEvent as crossplaneEvent } from "./cluster-events";
import { hex, iso, uuid } from "./random";
import { GIT_ORG } from "./spoke";
import { MINUTE, SECOND, TIMELINE, gridPointsIn, lastGridPoint } from "./timeline";
import type { SpokeSpec } from "./topology";
import { managedAddonsAt, nodeNames, nodegroupsAt } from "./versions";
import { nodeObject } from "./spoke";

interface ProvisionedCluster {
  name: string;
  provider: "classic" | "upjet";
  region: string;
  accountId: string;
  env: "dev" | "staging" | "prod";
  team: string;
  version: string;
  /** When its Crossplane resources were created, relative to t0. */
  since: number;
  /** When AWS reports it ACTIVE and its kubeconfig is published, relative to t0 (never for a failed create). */
  availableAt: number | null;
}

/** Created during the run (served from `availableAt` on), and failing to be created. Names are fixed. */
export const PROVISIONING_CLUSTERS = {
  /** provider-aws classic Cluster, Creating from t0 − 6 min, ACTIVE at 8:00 */
  creating: {
    name: "dev-use1-sandbox",
    provider: "classic",
    region: "us-east-1",
    accountId: "456789012345",
    env: "dev",
    team: "data",
    version: "1.35",
    since: -6 * MINUTE,
    availableAt: 8 * MINUTE,
  },
  /** upjet Cluster + ClusterAuth, Creating from t0 − 3 min, ACTIVE at 12:00 (kubeconfig from its ClusterAuth 30 s later) */
  creatingUpjet: {
    name: "staging-usw2-ingest",
    provider: "upjet",
    region: "us-west-2",
    accountId: "345678901234",
    env: "staging",
    team: "data",
    version: "1.35",
    since: -3 * MINUTE,
    availableAt: 12 * MINUTE,
  },
  /** upjet Cluster whose CreateCluster is refused (one subnet): fails for ever */
  failing: {
    name: "staging-euw1-analytics",
    provider: "upjet",
    region: "eu-west-1",
    accountId: "345678901234",
    env: "staging",
    team: "data",
    version: "1.35",
    since: -38 * MINUTE,
    availableAt: null,
  },
} as const satisfies Record<string, ProvisionedCluster>;

const CLUSTERS: ProvisionedCluster[] = Object.values(PROVISIONING_CLUSTERS);
/** The ClusterAuth publishes its kubeconfig this long after the cluster turns ACTIVE (its next reconcile). */
const CLUSTER_AUTH_LAG = 30 * SECOND;
/** The hub reconciles (and Crossplane retries) on the token-rotation grid. */
const HUB_TICK = TIMELINE.classicTokenRotation;

/** The secret the hub's Flux reads: the Cluster's own (classic, or an upjet Cluster naming one), else the ClusterAuth's. */
const secretOf = (c: ProvisionedCluster): SecretRef =>
  c.provider === "classic" || c.availableAt === null
    ? { namespace: FLUX_NS, name: `${c.name}-eks-connection`, key: "kubeconfig" }
    : { namespace: FLUX_NS, name: `${c.name}-kubeconfig`, key: "kubeconfig" };

/** When the kubeconfig is in the secret (relative to t0). */
const publishedAt = (c: ProvisionedCluster) =>
  c.availableAt === null ? null : c.availableAt + (c.provider === "upjet" ? CLUSTER_AUTH_LAG : 0);

/** Spoke specs for the clusters that get created (what the EKS API and the served clusters need). */
export function provisionedSpokeSpecs(): SpokeSpec[] {
  return CLUSTERS.filter((c) => c.availableAt !== null).map((c, i) => ({
    index: -2 - i,
    name: c.name,
    env: c.env,
    team: c.team,
    region: c.region,
    accountId: c.accountId,
    version: c.version,
    provisioning: c.provider === "classic" ? "classic" : "clusterauth",
    hubFluxRef: true,
    roles: [],
    availableAt: c.availableAt!,
  }));
}

/** Hub change times (relative to t0): the clusters turn ACTIVE, their kubeconfigs are published. */
export const PROVISIONING_HUB_TIMES: number[] = CLUSTERS.flatMap((c) =>
  c.availableAt === null ? [] : [c.availableAt, publishedAt(c)!, publishedAt(c)! + 40 * SECOND],
);

/** Entries of the hub's `clusters` Kustomization inventory for these resources. */
export function provisioningInventory(): { id: string; v: string }[] {
  return CLUSTERS.flatMap((c) =>
    c.provider === "classic"
      ? [{ id: `_${c.name}_eks.aws.crossplane.io_Cluster`, v: "v1beta1" }]
      : [
          { id: `_${c.name}_eks.aws.upbound.io_Cluster`, v: "v1beta2" },
          ...(c.availableAt !== null ? [{ id: `_${c.name}_eks.aws.upbound.io_ClusterAuth`, v: "v1beta1" }] : []),
        ],
  );
}

export interface ProvisioningHubInput {
  id: ObjectIdentity;
  seed: number;
  epoch: number;
  t: number;
  runtime: RuntimeInfo;
  infraRev: string;
  fetchedAt: number;
}

const subnets = (name: string) => [0, 1, 2].map((i) => `subnet-0${hex(`subnet:${name}:${i}`, 16)}`);

/** Every hub object of these clusters at time t: Crossplane resources, connection secrets, bootstrap Kustomizations, Events. */
export function provisioningHubObjects(input: ProvisioningHubInput): KubeObject[] {
  const out: KubeObject[] = [];
  for (const c of CLUSTERS) out.push(...clusterObjects(input, c));
  return out;
}

function clusterObjects(input: ProvisioningHubInput, c: ProvisionedCluster): KubeObject[] {
  const { id, epoch, t, runtime } = input;
  const rel = t - epoch;
  const createdAt = epoch + c.since;
  const mrId: ObjectIdentity = { ...id, createdAt };
  const active = c.availableAt !== null && rel >= c.availableAt;
  const activeAt = c.availableAt !== null ? epoch + c.availableAt : null;
  const published = publishedAt(c) !== null && rel >= publishedAt(c)!;
  const ref = secretOf(c);
  const out: KubeObject[] = [];
  const endpoint = active ? runtime.endpointOf(c.name) : null;
  const caData = active ? runtime.caDataOf(c.name) : null;
  // Crossplane retries on its poll interval: counts of repeated Events move on the hub's grid.
  const retries = (from: number, until: number) => 1 + gridPointsIn(from, Math.min(t, until), epoch, HUB_TICK);

  let secretValues: Record<string, string> = {};
  if (published && endpoint && caData) {
    const signedAt = lastGridPoint(t, epoch, c.provider === "upjet" ? TIMELINE.clusterAuthRefresh : TIMELINE.classicTokenRotation);
    const token = mintEksToken({
      clusterName: c.name,
      credentials: CROSSPLANE_IDENTITY,
      stsEndpoint: runtime.stsEndpoint,
      region: c.region,
      signingDateMs: Math.max(signedAt, epoch + publishedAt(c)!),
      expiresInSeconds: c.provider === "upjet" ? 900 : 60,
    });
    secretValues = {
      endpoint,
      kubeconfig: kubeconfigYaml(c.name, endpoint, caData, token),
      clusterCA: Buffer.from(caData, "base64").toString("utf8"),
    };
  }

  if (c.provider === "classic") {
    const mr = classicClusterBeingCreated(mrId, c, active, activeAt, endpoint, caData, ref);
    out.push(mr);
    out.push(
      connectionSecret({ ...id, createdAt: createdAt + 6 * SECOND }, ref, mr, secretValues, active ? activeAt! : createdAt + 6 * SECOND),
    );
    out.push(createdEvent(id, mr, "managed/cluster.eks.aws.crossplane.io", createdAt + 5 * SECOND));
  } else {
    const failing = c.availableAt === null;
    const mr = upjetClusterBeingCreated(mrId, c, active, activeAt, endpoint, failing, ref);
    out.push(mr);
    out.push(createdEvent(id, mr, "managed/eks.aws.upbound.io/v1beta2, kind=cluster", createdAt + 4 * SECOND));
    if (failing) {
      // The Cluster itself names a connection secret: published empty on the first Observe.
      out.push(connectionSecret({ ...id, createdAt: createdAt + 3 * SECOND }, ref, mr, {}, createdAt + 3 * SECOND));
      out.push(
        crossplaneEvent({
          id,
          involved: mr,
          reason: "CannotCreateExternalResource",
          message: failMessage(c).replace(/^create failed: /, ""),
          type: "Warning",
          controller: "managed/eks.aws.upbound.io/v1beta2, kind=cluster",
          first: createdAt + 9 * SECOND,
          last: lastGridPoint(t, epoch, HUB_TICK) > createdAt + 9 * SECOND ? lastGridPoint(t, epoch, HUB_TICK) : createdAt + 9 * SECOND,
          count: retries(createdAt + 9 * SECOND, Infinity),
        }),
      );
    } else {
      const auth = clusterAuthBeingCreated({ ...id, createdAt }, c, published, epoch + publishedAt(c)!, ref);
      out.push(auth);
      out.push(
        connectionSecret(
          { ...id, createdAt: createdAt + 4 * SECOND },
          ref,
          auth,
          secretValues,
          published ? epoch + publishedAt(c)! : createdAt + 4 * SECOND,
        ),
      );
      const authFailingUntil = epoch + publishedAt(c)!;
      out.push(
        crossplaneEvent({
          id,
          involved: auth,
          reason: "CannotCreateExternalResource",
          message: "ca data from the retrieved cluster is empty",
          type: "Warning",
          controller: "managed/eks.aws.upbound.io/v1beta1, kind=clusterauth",
          first: createdAt + 7 * SECOND,
          last: Math.max(createdAt + 7 * SECOND, Math.min(lastGridPoint(t, epoch, HUB_TICK), authFailingUntil - SECOND)),
          count: retries(createdAt + 7 * SECOND, authFailingUntil - SECOND),
        }),
      );
    }
  }
  out.push(...bootstrap(input, c, ref));
  return out;
}

/** crossplane-runtime's Normal Event once the provider accepted the create call. */
function createdEvent(id: ObjectIdentity, mr: KubeObject, controller: string, at: number): KubeObject {
  return crossplaneEvent({
    id,
    involved: mr,
    reason: "CreatedExternalResource",
    message: "Successfully requested creation of external resource",
    type: "Normal",
    controller,
    first: at,
    last: at,
    count: 1,
  });
}

function failMessage(c: ProvisionedCluster): string {
  return (
    `create failed: async create failed: failed to create the resource: [{0 creating EKS Cluster (${c.name}): operation error EKS: CreateCluster, ` +
    `https response error StatusCode: 400, RequestID: ${uuid(`req:${c.name}`)}, InvalidParameterException: Subnets specified must be in at least two different AZs  []}]`
  );
}

function classicClusterBeingCreated(
  id: ObjectIdentity,
  c: ProvisionedCluster,
  active: boolean,
  activeAt: number | null,
  endpoint: string | null,
  caData: string | null,
  ref: SecretRef,
): KubeObject {
  const info = eksVersion(c.version);
  const atProvider: Record<string, unknown> = {
    arn: `arn:aws:eks:${c.region}:${c.accountId}:cluster/${c.name}`,
    createdAt: iso(id.createdAt + 8 * SECOND),
    platformVersion: info.platformVersion,
    status: active ? "ACTIVE" : "CREATING",
    version: c.version,
  };
  if (active) {
    atProvider.endpoint = endpoint;
    atProvider.certificateAuthorityData = caData;
    atProvider.identity = { oidc: { issuer: `https://oidc.eks.${c.region}.amazonaws.com/id/${hex(`oidc:${c.name}`, 32).toUpperCase()}` } };
  }
  return {
    apiVersion: CLASSIC_API,
    kind: "Cluster",
    metadata: meta(id, "Cluster", undefined, c.name, {
      generation: 1,
      labels: { "crows-nest.io/environment": c.env, "crows-nest.io/team": c.team },
      annotations: {
        "crossplane.io/external-name": c.name,
        ...(active
          ? { "crossplane.io/external-create-succeeded": iso(id.createdAt + 8 * SECOND) }
          : { "crossplane.io/external-create-pending": iso(id.createdAt + 5 * SECOND) }),
      },
    }),
    spec: {
      deletionPolicy: "Delete",
      forProvider: {
        region: c.region,
        version: c.version,
        roleArn: `arn:aws:iam::${c.accountId}:role/eks-cluster-${c.name}`,
        resourcesVpcConfig: { endpointPrivateAccess: true, endpointPublicAccess: true, subnetIds: subnets(c.name) },
      },
      providerConfigRef: { name: `aws-${c.accountId}` },
      managementPolicies: ["*"],
      writeConnectionSecretToRef: { namespace: ref.namespace, name: ref.name },
    },
    status: {
      atProvider,
      conditions: active
        ? crossplaneConditions("True", "Available", activeAt!)
        : crossplaneConditions("False", "Creating", id.createdAt + 8 * SECOND),
    },
  };
}

function upjetClusterBeingCreated(
  id: ObjectIdentity,
  c: ProvisionedCluster,
  active: boolean,
  activeAt: number | null,
  endpoint: string | null,
  failing: boolean,
  ref: SecretRef,
): KubeObject {
  const at = (ms: number) => iso(id.createdAt + ms);
  let status: Record<string, unknown>;
  if (active) {
    status = {
      atProvider: {
        arn: `arn:aws:eks:${c.region}:${c.accountId}:cluster/${c.name}`,
        createdAt: at(20 * SECOND),
        endpoint,
        id: c.name,
        identity: [{ oidc: [{ issuer: `https://oidc.eks.${c.region}.amazonaws.com/id/${hex(`oidc:${c.name}`, 32).toUpperCase()}` }] }],
        platformVersion: eksVersion(c.version).platformVersion,
        status: "ACTIVE",
        version: c.version,
      },
      conditions: [
        ...crossplaneConditions("True", "Available", activeAt!),
        { type: "AsyncOperation", status: "True", reason: "Finished", lastTransitionTime: iso(activeAt!) },
        { type: "LastAsyncOperation", status: "True", reason: "Success", lastTransitionTime: iso(activeAt!) },
      ],
    };
  } else if (failing) {
    const message = failMessage(c);
    status = {
      atProvider: {},
      conditions: [
        { type: "Ready", status: "False", reason: "Creating", lastTransitionTime: at(3 * SECOND) },
        { type: "Synced", status: "False", reason: "ReconcileError", message, lastTransitionTime: at(9 * SECOND) },
        { type: "AsyncOperation", status: "True", reason: "Finished", lastTransitionTime: at(8 * SECOND) },
        {
          type: "LastAsyncOperation",
          status: "False",
          reason: "AsyncCreateFailure",
          message: message.replace(/^create failed: /, ""),
          lastTransitionTime: at(8 * SECOND),
        },
      ],
    };
  } else {
    // Terraform runs: Observe reports "exists, up to date" without refreshing, so atProvider stays empty.
    status = {
      atProvider: {},
      conditions: [
        ...crossplaneConditions("False", "Creating", id.createdAt + 4 * SECOND),
        { type: "AsyncOperation", status: "False", reason: "Ongoing", lastTransitionTime: at(4 * SECOND) },
      ],
    };
  }
  return {
    apiVersion: UPBOUND_API,
    kind: "Cluster",
    metadata: meta(id, "UpboundCluster", undefined, c.name, {
      generation: 1,
      labels: { "crows-nest.io/environment": c.env, "crows-nest.io/team": c.team },
      annotations: { "crossplane.io/external-name": c.name },
    }),
    spec: {
      deletionPolicy: "Delete",
      forProvider: {
        region: c.region,
        version: c.version,
        roleArn: `arn:aws:iam::${c.accountId}:role/eks-cluster-${c.name}`,
        vpcConfig: { subnetIds: failing ? [subnets(c.name)[0]] : subnets(c.name) },
      },
      providerConfigRef: { name: `aws-${c.accountId}` },
      managementPolicies: ["*"],
      ...(failing ? { writeConnectionSecretToRef: { namespace: ref.namespace, name: ref.name } } : {}),
    },
    status,
  };
}

function clusterAuthBeingCreated(
  id: ObjectIdentity,
  c: ProvisionedCluster,
  published: boolean,
  publishedAtMs: number,
  ref: SecretRef,
): KubeObject {
  const conditions = published
    ? crossplaneConditions("True", "Available", publishedAtMs)
    : [
        { type: "Ready", status: "False", reason: "Creating", lastTransitionTime: iso(id.createdAt + 7 * SECOND) },
        {
          type: "Synced",
          status: "False",
          reason: "ReconcileError",
          message: "create failed: ca data from the retrieved cluster is empty",
          lastTransitionTime: iso(id.createdAt + 7 * SECOND),
        },
      ];
  return {
    apiVersion: UPBOUND_AUTH_API,
    kind: "ClusterAuth",
    metadata: meta(id, "ClusterAuth", undefined, c.name, {
      generation: 1,
      annotations: published ? { "crossplane.io/external-name": c.name } : undefined,
    }),
    spec: {
      deletionPolicy: "Delete",
      forProvider: { clusterName: c.name, refreshPeriod: "10m0s", region: c.region },
      managementPolicies: ["*"],
      providerConfigRef: { name: `aws-${c.accountId}` },
      writeConnectionSecretToRef: { name: ref.name, namespace: ref.namespace },
    },
    status: {
      atProvider: published ? { lastRefreshTime: iso(publishedAtMs) } : {},
      conditions,
    },
  };
}

/** The hub's bootstrap Kustomization for the cluster: failing on the secret without a kubeconfig, then ready. */
function bootstrap(input: ProvisioningHubInput, c: ProvisionedCluster, ref: SecretRef): KubeObject[] {
  const { id, epoch, t, infraRev } = input;
  const name = `bootstrap-${c.name}`;
  const since = epoch + c.since + 40 * SECOND;
  const readyAt = publishedAt(c) !== null ? epoch + publishedAt(c)! + 40 * SECOND : null;
  const ready = readyAt !== null && t >= readyAt;
  const key = ref.key;
  // kustomize-controller (fluxcd/pkg runtime client, impersonator.go) reading a secret without the key.
  const message = `KubeConfig secret '${ref.namespace}/${ref.name}' does not contain a '${key}' key with a kubeconfig`;
  const ks = kustomization({
    id: { ...id, createdAt: epoch + c.since + 30 * SECOND },
    name,
    path: `./clusters/${c.name}/flux-system`,
    interval: "10m0s",
    retryInterval: "2m0s",
    timeout: "5m0s",
    sourceRef: { kind: "GitRepository", name: "flux-system" },
    dependsOn: ["clusters"],
    generation: 1,
    kubeConfigSecret: { name: ref.name, key },
    conditions: ready
      ? [condition("Ready", "True", "ReconciliationSucceeded", `Applied revision: ${infraRev}`, readyAt, 1)]
      : [
          condition("Reconciling", "True", "ProgressingWithRetry", `Reconciliation in progress`, since, 1),
          condition("Ready", "False", "ReconciliationFailed", message, since, 1),
        ],
    lastAttemptedRevision: infraRev,
    ...(ready ? { lastAppliedRevision: infraRev } : {}),
    inventory: ready
      ? [
          { id: "_flux-system__Namespace", v: "v1" },
          { id: "flux-system_flux-system_kustomize.toolkit.fluxcd.io_Kustomization", v: "v1" },
          { id: "flux-system_flux-system_source.toolkit.fluxcd.io_GitRepository", v: "v1" },
        ]
      : [],
    // A failure before the build adds no history entry.
    history: ready
      ? [{ revision: infraRev, status: "ReconciliationSucceeded", first: readyAt, last: readyAt, total: 1, durationMs: 2_100 }]
      : [],
    labels: { ...appliedBy("clusters"), "crows-nest.io/cluster": c.name },
  });
  const out: KubeObject[] = [ks];
  if (!ready) {
    const last = Math.max(since, lastGridPoint(t, epoch, HUB_TICK));
    out.push(
      event({
        id,
        involved: ks,
        reason: "ReconciliationFailed",
        message,
        type: "Warning",
        controller: "kustomize-controller",
        first: since,
        last,
        count: 1 + gridPointsIn(since, t, epoch, HUB_TICK),
        revision: infraRev,
      }),
    );
  }
  return out;
}

/** What a created cluster serves once ACTIVE: namespaces, its first nodes, and Flux's own bootstrap objects. */
export function provisionedSpokeObjects(spec: SpokeSpec, seed: number, epoch: number, t: number): KubeObject[] {
  const rel = t - epoch;
  if (spec.availableAt === undefined || rel < spec.availableAt) return [];
  const createdAt = epoch + spec.availableAt;
  const id: ObjectIdentity = { seed, cluster: spec.name, createdAt };
  const out: KubeObject[] = [];
  for (const ns of ["default", "kube-system", "kube-public", "kube-node-lease", FLUX_NS]) {
    out.push({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { ...meta(id, "Namespace", undefined, ns), labels: { "kubernetes.io/metadata.name": ns } },
      spec: { finalizers: ["kubernetes"] },
      status: { phase: "Active" },
    });
  }
  const addons = managedAddonsAt(spec, rel);
  for (const ng of nodegroupsAt(spec, rel)) {
    nodeNames(spec, ng, seed).forEach((name, i) => out.push(nodeObject(id, spec, ng, name, i, createdAt + 3 * MINUTE, addons)));
  }
  const bootstrapAt = createdAt + 90 * SECOND;
  const revision = gitRevision("main", hex(`${seed}:fleet-infra:${spec.name}`, 40));
  out.push(
    gitRepository({
      id: { ...id, createdAt: bootstrapAt },
      name: "flux-system",
      url: `${GIT_ORG}/fleet-infra`,
      branch: "main",
      interval: "1m0s",
      revision,
      fetchedAt: bootstrapAt + 5 * SECOND,
      labels: appliedBy("flux-system"),
    }),
  );
  out.push(
    kustomization({
      id: { ...id, createdAt: bootstrapAt },
      name: "flux-system",
      path: `./clusters/${spec.name}`,
      interval: "10m0s",
      sourceRef: { kind: "GitRepository", name: "flux-system" },
      generation: 1,
      conditions: [condition("Ready", "True", "ReconciliationSucceeded", `Applied revision: ${revision}`, bootstrapAt + 20 * SECOND, 1)],
      lastAppliedRevision: revision,
      lastAttemptedRevision: revision,
      inventory: [{ id: "_flux-system__Namespace", v: "v1" }],
      history: [
        {
          revision,
          status: "ReconciliationSucceeded",
          first: bootstrapAt + 20 * SECOND,
          last: bootstrapAt + 20 * SECOND,
          total: 1,
          durationMs: 1_900,
        },
      ],
      labels: appliedBy("flux-system"),
    }),
  );
  return out;
}
