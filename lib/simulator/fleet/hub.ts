// The hub (management) cluster: Flux, Crossplane, the resources that provision every spoke, the connection
// secrets Crossplane writes (kubeconfig with a static, rotating EKS token), the hub's Flux objects that deploy
// into spokes through `spec.kubeConfig.secretRef`, and hand-made kubeconfig Secrets carrying the discovery label.
import { fluxNamespaceLabels } from "./flux-report";
import type { KubeObject, RuntimeInfo } from "../contract";
import { CROSSPLANE_IDENTITY } from "../aws/identities";
import { mintEksToken } from "../aws/token";
import { eksVersion } from "./catalogue";
import {
  FLUX_NS,
  appliedBy,
  condition,
  event,
  gitRepository,
  gitRevision,
  helmChart,
  helmRelease,
  helmRepository,
  kustomization,
  meta,
  objectUid,
  type Condition,
  type KsHistoryEpisode,
  type ObjectIdentity,
} from "./flux";
import { hex, iso, podSuffix, unit } from "./random";
import { GIT_ORG, clusterInfo, clusterSecrets, gitAuthSecret } from "./spoke";
import { DAY, HOUR, MINUTE, SECOND, TIMELINE, gridPointsIn, lastGridPoint } from "./timeline";
import { HUB_NAME, HUB_REGION, type SpokeSpec } from "./topology";
import { controlPlaneAt } from "./versions";
import { HUB_ACCOUNT_ID } from "../aws/identities";
import { crossplaneNodeGroups } from "./crossplane-nodegroups";
import { PROVISIONING_HUB_TIMES, provisioningHubObjects, provisioningInventory } from "./provisioning";

/** Label that marks a Secret holding a kubeconfig for Crow's Nest to discover (documented in the README). */
export const DISCOVERY_LABEL = "crows-nest.io/cluster-kubeconfig";
export const LABEL_SECRETS_NAMESPACE = "fleet-kubeconfigs";
export const COMPOSITE_GROUP = "platform.acme.io";
export const COMPOSITE_API = `${COMPOSITE_GROUP}/v1beta1`;
export const CLASSIC_API = "eks.aws.crossplane.io/v1beta1";
/** Upbound EKS Cluster and NodeGroup at their storage version (nested blocks as objects). */
export const UPBOUND_API = "eks.aws.upbound.io/v1beta2";
/** ClusterAuth exists only at v1beta1. */
export const UPBOUND_AUTH_API = "eks.aws.upbound.io/v1beta1";
const CONNECTION_SECRET_TYPE = "connection.crossplane.io/v1alpha1";
/** The hub reconciles on this grid (same as the classic token rotation). */
const HUB_TICK = TIMELINE.classicTokenRotation;

/** The hub as an EKS cluster; its version follows the calendar like the spokes' (fleet-versions.ts). */
export function hubSpecAt(version: string): SpokeSpec {
  return {
    index: -1,
    name: HUB_NAME,
    env: "prod",
    team: "platform",
    region: HUB_REGION,
    accountId: HUB_ACCOUNT_ID,
    version,
    provisioning: "eks-only",
    hubFluxRef: false,
    roles: [],
  };
}

export interface SecretRef {
  namespace: string;
  name: string;
  /** key holding the kubeconfig */
  key: string;
}

/** Where a spoke's kubeconfig lives in the hub (undefined for EKS-only spokes). */
export function connectionSecretOf(spec: SpokeSpec): SecretRef | undefined {
  switch (spec.provisioning) {
    case "classic":
      return spec.hubFluxRef
        ? { namespace: FLUX_NS, name: `${spec.name}-eks-connection`, key: "kubeconfig" }
        : { namespace: "crossplane-system", name: `${spec.name}-eks-connection`, key: "kubeconfig" };
    case "clusterauth":
      return { namespace: FLUX_NS, name: `${spec.name}-kubeconfig`, key: "kubeconfig" };
    case "composite":
      return { namespace: FLUX_NS, name: `${spec.name}-connection`, key: "value" };
    case "label":
      return { namespace: LABEL_SECRETS_NAMESPACE, name: `${spec.name}-kubeconfig`, key: "value" };
    default:
      return undefined;
  }
}

export function eksArn(spec: SpokeSpec): string {
  return `arn:aws:eks:${spec.region}:${spec.accountId}:cluster/${spec.name}`;
}

/** Time (absolute) the token currently in a spoke's connection secret was signed. */
export function tokenSignedAt(spec: SpokeSpec, epoch: number, t: number): number {
  if (spec.roles.includes("expired-token")) return epoch - TIMELINE.expiredTokenAge;
  const period = spec.provisioning === "clusterauth" ? TIMELINE.clusterAuthRefresh : TIMELINE.classicTokenRotation;
  return lastGridPoint(t, epoch, period);
}

export function kubeconfigYaml(cluster: string, server: string, caData: string, token: string): string {
  // The layout clientcmd.Write produces for the single-cluster config Crossplane's providers build.
  return [
    "apiVersion: v1",
    "clusters:",
    "- cluster:",
    `    certificate-authority-data: ${caData}`,
    `    server: ${server}`,
    `  name: ${cluster}`,
    "contexts:",
    "- context:",
    `    cluster: ${cluster}`,
    `    user: ${cluster}`,
    `  name: ${cluster}`,
    `current-context: ${cluster}`,
    "kind: Config",
    "preferences: {}",
    "users:",
    `- name: ${cluster}`,
    "  user:",
    `    token: ${token}`,
    "",
  ].join("\n");
}

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

export interface HubInput {
  hub: SpokeSpec;
  spokes: SpokeSpec[];
  seed: number;
  epoch: number;
  t: number;
  runtime: RuntimeInfo;
}

export function hubObjects({ hub, spokes, seed, epoch, t, runtime }: HubInput): KubeObject[] {
  const rel = t - epoch;
  const createdAt = epoch - 640 * DAY;
  const id: ObjectIdentity = { seed, cluster: HUB_NAME, createdAt };
  const out: KubeObject[] = [];
  const events: KubeObject[] = [];

  for (const ns of [
    "default",
    "kube-system",
    "kube-public",
    "kube-node-lease",
    FLUX_NS,
    "crossplane-system",
    LABEL_SECRETS_NAMESPACE,
    "monitoring",
  ]) {
    out.push({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        ...meta(id, "Namespace", undefined, ns),
        labels: { "kubernetes.io/metadata.name": ns, ...(ns === FLUX_NS ? fluxNamespaceLabels(HUB_NAME, true) : {}) },
      },
      spec: { finalizers: ["kubernetes"] },
      status: { phase: "Active" },
    });
  }
  out.push(clusterInfo(id, hub, hub.version));
  out.push(clusterSecrets(id, hub));
  out.push(gitAuthSecret(id));

  // --- hub Flux: sources and the platform Kustomizations --------------------------------------------
  const infraRev = gitRevision("main", hex(`${seed}:fleet-infra:hub`, 40));
  const fetchedAt = epoch - 3 * HOUR - 4 * MINUTE;
  out.push(
    gitRepository({
      id,
      name: "flux-system",
      url: `${GIT_ORG}/fleet-infra`,
      branch: "main",
      interval: "1m0s",
      revision: infraRev,
      fetchedAt,
      labels: appliedBy("flux-system"),
    }),
  );
  out.push(
    helmRepository({
      id,
      name: "crossplane-stable",
      url: "https://charts.crossplane.io/stable",
      interval: "24h0m0s",
      fetchedAt: epoch - 7 * HOUR,
      labels: appliedBy("crossplane"),
    }),
  );
  out.push(
    helmRepository({
      id,
      name: "prometheus-community",
      url: "https://prometheus-community.github.io/helm-charts",
      interval: "24h0m0s",
      fetchedAt: epoch - 5 * HOUR,
      labels: appliedBy("crossplane"),
    }),
  );
  const hubHistory = (since: number, durationMs: number): KsHistoryEpisode[] => {
    const ticks = gridPointsIn(since, t, epoch, HUB_TICK);
    return [
      {
        revision: infraRev,
        status: "ReconciliationSucceeded",
        first: since,
        last: ticks > 0 ? lastGridPoint(t, epoch, HUB_TICK) : since,
        total: 1 + ticks,
        durationMs,
      },
    ];
  };
  const ready = (at: number, gen: number): Condition[] => [
    condition("Ready", "True", "ReconciliationSucceeded", `Applied revision: ${infraRev}`, at, gen),
  ];
  const platform: [string, string, string[]][] = [
    ["flux-system", "./clusters/hub", []],
    ["crossplane", "./hub/crossplane", []],
    ["crossplane-providers", "./hub/crossplane-providers", ["crossplane"]],
    ["clusters", "./hub/clusters", ["crossplane-providers"]],
  ];
  for (const [name, path, dependsOn] of platform) {
    out.push(
      kustomization({
        id,
        name,
        path,
        interval: "10m0s",
        sourceRef: { kind: "GitRepository", name: "flux-system" },
        dependsOn,
        generation: 1,
        conditions: ready(fetchedAt + 20 * SECOND, 1),
        lastAppliedRevision: infraRev,
        lastAttemptedRevision: infraRev,
        inventory: name === "clusters" ? clustersInventory(spokes) : [],
        history: hubHistory(fetchedAt + 20 * SECOND, 1_800 + Math.floor(unit(`hubd:${name}`) * 4_000)),
        labels: appliedBy("flux-system"),
      }),
    );
  }
  out.push(
    helmChart({
      id,
      releaseNamespace: "crossplane-system",
      releaseName: "crossplane",
      chart: "crossplane",
      version: "2.3.4",
      repository: "crossplane-stable",
      interval: "12h0m0s",
      pulledAt: epoch - 12 * DAY,
      generation: 1,
    }),
  );
  const xpMsg = "Helm upgrade succeeded for release crossplane-system/crossplane.v6 with chart crossplane@2.3.4";
  out.push(
    helmRelease({
      id,
      name: "crossplane",
      namespace: "crossplane-system",
      chart: "crossplane",
      version: "2.3.4",
      source: { kind: "HelmRepository", name: "crossplane-stable" },
      interval: "30m0s",
      generation: 6,
      labels: appliedBy("crossplane"),
      conditions: [
        condition("Ready", "True", "UpgradeSucceeded", xpMsg, epoch - 12 * DAY, 6),
        condition("Released", "True", "UpgradeSucceeded", xpMsg, epoch - 12 * DAY, 6),
      ],
      history: [
        {
          version: 6,
          status: "deployed",
          chartName: "crossplane",
          chartVersion: "2.3.4",
          appVersion: "2.3.4",
          firstDeployed: epoch - 12 * DAY,
          lastDeployed: epoch - 12 * DAY,
          action: "upgrade",
        },
        {
          version: 5,
          status: "superseded",
          chartName: "crossplane",
          chartVersion: "2.3.2",
          appVersion: "2.3.2",
          firstDeployed: epoch - 40 * DAY,
          lastDeployed: epoch - 40 * DAY,
          action: "upgrade",
        },
      ],
      lastAttemptedRevision: "2.3.4",
      lastAttemptedReleaseAction: "upgrade",
      lastAttemptedGeneration: 6,
    }),
  );

  // --- Crossplane definitions, clusters being provisioned, node groups -----------------------------------
  out.push(...crossplaneDefinitions(id));
  out.push(...provisioningHubObjects({ id, seed, epoch, t, runtime, infraRev, fetchedAt }));
  out.push(...crossplaneNodeGroups(id, spokes, epoch, rel));

  // --- per spoke ---------------------------------------------------------------------------------------
  for (const spec of spokes) {
    if (spec.provisioning === "eks-only") continue;
    const cp = controlPlaneAt(spec, rel);
    const endpoint = runtime.endpointOf(spec.name);
    const caData = runtime.caDataOf(spec.name);
    const signedAt = tokenSignedAt(spec, epoch, t);
    const token = mintEksToken({
      clusterName: spec.name,
      credentials: CROSSPLANE_IDENTITY,
      stsEndpoint: runtime.stsEndpoint,
      region: spec.region,
      signingDateMs: signedAt,
      expiresInSeconds: spec.provisioning === "clusterauth" ? 900 : 60,
    });
    const kubeconfig = kubeconfigYaml(spec.name, endpoint, caData, token);
    const spokeCreated = epoch - Math.floor((60 + unit(`created:${spec.name}`) * 500) * DAY);
    const ref = connectionSecretOf(spec)!;

    if (spec.provisioning === "classic") {
      const mr = classicCluster(id, spec, spec.name, cp, rel, epoch, spokeCreated, endpoint, caData, {
        namespace: ref.namespace,
        name: ref.name,
      });
      out.push(mr);
      out.push(
        connectionSecret(id, ref, mr, { endpoint, kubeconfig, clusterCA: Buffer.from(caData, "base64").toString("utf8") }, signedAt),
      );
    } else if (spec.provisioning === "clusterauth") {
      out.push(upboundCluster(id, spec, cp, rel, epoch, spokeCreated, endpoint));
      const auth = clusterAuth(id, spec, epoch, signedAt, ref);
      out.push(auth);
      out.push(
        connectionSecret(id, ref, auth, { endpoint, kubeconfig, clusterCA: Buffer.from(caData, "base64").toString("utf8") }, signedAt),
      );
    } else if (spec.provisioning === "composite") {
      const suffix = podSuffix(`${seed}:xr:${spec.name}`, 5);
      const mrName = `${spec.name}-${suffix}`;
      const mrUid = objectUid(id, "Cluster", undefined, mrName);
      const innerRef = { namespace: "crossplane-system", name: mrUid };
      const mr = classicCluster(id, spec, mrName, cp, rel, epoch, spokeCreated, endpoint, caData, innerRef, spec.name);
      out.push(mr);
      const ca = Buffer.from(caData, "base64").toString("utf8");
      out.push(connectionSecret(id, innerRef, mr, { endpoint, kubeconfig, clusterCA: ca }, signedAt));
      const xr = compositeCluster(id, spec, mrName, cp, ref, spokeCreated, signedAt);
      out.push(xr);
      out.push(connectionSecret(id, ref, xr, { "apiserver-endpoint": endpoint, "cluster-ca": ca, value: kubeconfig }, signedAt));
    } else if (spec.provisioning === "label") {
      out.push({
        apiVersion: "v1",
        kind: "Secret",
        type: "Opaque",
        metadata: {
          ...meta(id, "Secret", ref.namespace, ref.name),
          labels: { [DISCOVERY_LABEL]: "true" },
          annotations: { "crows-nest.io/cluster-name": spec.name, "crows-nest.io/region": spec.region },
        },
        data: { value: b64(kubeconfig) },
      });
    }

    if (spec.hubFluxRef) {
      const bootstrap = bootstrapKustomization(id, spec, ref, infraRev, fetchedAt, epoch, t, endpoint, events);
      out.push(bootstrap);
      if (spec.index % 4 === 0) out.push(...monitoringAgent(id, spec, ref, epoch));
    }
  }
  return out.concat(events);
}

function clustersInventory(spokes: SpokeSpec[]) {
  const entries: { id: string; v: string }[] = provisioningInventory();
  for (const s of spokes) {
    if (s.provisioning === "classic") entries.push({ id: `_${s.name}_eks.aws.crossplane.io_Cluster`, v: "v1beta1" });
    if (s.provisioning === "clusterauth") {
      entries.push({ id: `_${s.name}_eks.aws.upbound.io_Cluster`, v: "v1beta2" });
      entries.push({ id: `_${s.name}_eks.aws.upbound.io_ClusterAuth`, v: "v1beta1" });
    }
    if (s.provisioning === "composite") entries.push({ id: `_${s.name}_${COMPOSITE_GROUP}_EKSCluster`, v: "v1beta1" });
  }
  return entries;
}

export function crossplaneConditions(
  readyStatus: "True" | "False",
  readyReason: string,
  at: number,
  synced?: { message: string; at: number },
) {
  const conditions: Record<string, unknown>[] = [{ type: "Ready", status: readyStatus, reason: readyReason, lastTransitionTime: iso(at) }];
  conditions.push(
    synced
      ? { type: "Synced", status: "False", reason: "ReconcileError", message: synced.message, lastTransitionTime: iso(synced.at) }
      : { type: "Synced", status: "True", reason: "ReconcileSuccess", lastTransitionTime: iso(at) },
  );
  return conditions;
}

function classicCluster(
  id: ObjectIdentity,
  spec: SpokeSpec,
  name: string,
  cp: ReturnType<typeof controlPlaneAt>,
  rel: number,
  epoch: number,
  createdAt: number,
  endpoint: string,
  caData: string,
  secretRef: { namespace: string; name: string },
  compositeOwner?: string,
): KubeObject {
  const upgrading = spec.roles.includes("scheduled-upgrade") && rel >= TIMELINE.controlPlaneUpgradeStart;
  const desired = upgrading ? eksVersion(cp.version === spec.version ? nextVersion(spec.version) : cp.version).version : cp.version;
  const generation = upgrading ? 3 : 2;
  const labels: Record<string, string> = { "crows-nest.io/environment": spec.env, "crows-nest.io/team": spec.team };
  if (compositeOwner) {
    labels["crossplane.io/composite"] = compositeOwner;
  }
  const metadata = meta({ ...id, createdAt }, "Cluster", undefined, name, {
    generation,
    labels,
    annotations: {
      "crossplane.io/external-name": spec.name,
      "crossplane.io/external-create-succeeded": iso(createdAt + 30 * SECOND),
    },
  });
  if (compositeOwner) {
    metadata.ownerReferences = [
      {
        apiVersion: COMPOSITE_API,
        kind: "EKSCluster",
        name: compositeOwner,
        uid: objectUid(id, "EKSCluster", undefined, compositeOwner),
        controller: true,
        blockOwnerDeletion: true,
      },
    ];
  }
  return {
    apiVersion: CLASSIC_API,
    kind: "Cluster",
    metadata,
    spec: {
      deletionPolicy: "Delete",
      forProvider: {
        region: spec.region,
        version: desired,
        roleArn: `arn:aws:iam::${spec.accountId}:role/eks-cluster-${spec.name}`,
        resourcesVpcConfig: {
          endpointPrivateAccess: true,
          endpointPublicAccess: true,
          subnetIds: [0, 1, 2].map((i) => `subnet-0${hex(`subnet:${spec.name}:${i}`, 16)}`),
        },
        tags: { environment: spec.env, team: spec.team, "managed-by": "crossplane" },
      },
      providerConfigRef: { name: `aws-${spec.accountId}` },
      managementPolicies: ["*"],
      writeConnectionSecretToRef: secretRef,
    },
    status: {
      atProvider: {
        arn: eksArn(spec),
        certificateAuthorityData: caData,
        createdAt: iso(createdAt),
        endpoint,
        identity: { oidc: { issuer: oidcIssuer(spec) } },
        platformVersion: cp.platformVersion,
        status: cp.status,
        version: cp.version,
      },
      conditions: crossplaneConditions(
        "True",
        "Available",
        upgrading ? epoch + TIMELINE.controlPlaneUpgradeStart : createdAt + 11 * MINUTE,
      ),
    },
  };
}

function nextVersion(minor: string): string {
  const [a, b] = minor.split(".").map(Number);
  return `${a}.${b + 1}`;
}

export function oidcIssuer(spec: SpokeSpec): string {
  return `https://oidc.eks.${spec.region}.amazonaws.com/id/${hex(`oidc:${spec.name}`, 32).toUpperCase()}`;
}

function upboundCluster(
  id: ObjectIdentity,
  spec: SpokeSpec,
  cp: ReturnType<typeof controlPlaneAt>,
  rel: number,
  epoch: number,
  createdAt: number,
  endpoint: string,
): KubeObject {
  const upgrading = spec.roles.includes("scheduled-upgrade") && rel >= TIMELINE.controlPlaneUpgradeStart;
  return {
    apiVersion: UPBOUND_API,
    kind: "Cluster",
    metadata: meta({ ...id, createdAt }, "UpboundCluster", undefined, spec.name, {
      generation: upgrading ? 3 : 2,
      labels: { "crows-nest.io/environment": spec.env, "crows-nest.io/team": spec.team },
      annotations: { "crossplane.io/external-name": spec.name },
    }),
    spec: {
      deletionPolicy: "Delete",
      forProvider: {
        region: spec.region,
        version: upgrading ? nextVersion(spec.version) : cp.version,
        roleArn: `arn:aws:iam::${spec.accountId}:role/eks-cluster-${spec.name}`,
        vpcConfig: {
          endpointPrivateAccess: true,
          endpointPublicAccess: true,
          subnetIds: [0, 1, 2].map((i) => `subnet-0${hex(`subnet:${spec.name}:${i}`, 16)}`),
        },
        accessConfig: { authenticationMode: "API_AND_CONFIG_MAP", bootstrapClusterCreatorAdminPermissions: true },
        tags: { environment: spec.env, team: spec.team, "managed-by": "crossplane" },
      },
      providerConfigRef: { name: `aws-${spec.accountId}` },
      managementPolicies: ["*"],
    },
    status: {
      atProvider: {
        arn: eksArn(spec),
        createdAt: iso(createdAt),
        endpoint,
        id: spec.name,
        identity: [{ oidc: [{ issuer: oidcIssuer(spec) }] }],
        platformVersion: cp.platformVersion,
        status: cp.status,
        version: cp.version,
      },
      conditions: crossplaneConditions(
        "True",
        "Available",
        upgrading ? epoch + TIMELINE.controlPlaneUpgradeStart : createdAt + 12 * MINUTE,
      ),
    },
  };
}

function clusterAuth(id: ObjectIdentity, spec: SpokeSpec, epoch: number, signedAt: number, ref: SecretRef): KubeObject {
  const expired = spec.roles.includes("expired-token");
  const failingSince = signedAt + TIMELINE.clusterAuthRefresh;
  const requestId = hex(`req:${spec.name}`, 32);
  const synced = expired
    ? {
        message:
          `update failed: refresh failed: cannot get caller identity: operation error STS: GetCallerIdentity, https response error StatusCode: 403, ` +
          `RequestID: ${requestId.slice(0, 8)}-${requestId.slice(8, 12)}-${requestId.slice(12, 16)}-${requestId.slice(16, 20)}-${requestId.slice(20)}, ` +
          `api error ExpiredToken: The security token included in the request is expired`,
        at: failingSince,
      }
    : undefined;
  return {
    apiVersion: UPBOUND_AUTH_API,
    kind: "ClusterAuth",
    metadata: meta({ ...id, createdAt: epoch - 200 * DAY }, "ClusterAuth", undefined, spec.name, {
      generation: 1,
      annotations: { "crossplane.io/external-name": spec.name },
    }),
    spec: {
      deletionPolicy: "Delete",
      forProvider: { clusterName: spec.name, refreshPeriod: "10m0s", region: spec.region },
      managementPolicies: ["*"],
      providerConfigRef: { name: `aws-${spec.accountId}` },
      writeConnectionSecretToRef: { name: ref.name, namespace: ref.namespace },
    },
    status: {
      atProvider: { lastRefreshTime: iso(signedAt) },
      conditions: crossplaneConditions("True", "Available", epoch - 200 * DAY + 2 * MINUTE, synced),
    },
  };
}

function compositeCluster(
  id: ObjectIdentity,
  spec: SpokeSpec,
  mrName: string,
  cp: ReturnType<typeof controlPlaneAt>,
  ref: SecretRef,
  createdAt: number,
  signedAt: number,
): KubeObject {
  return {
    apiVersion: COMPOSITE_API,
    kind: "EKSCluster",
    metadata: meta({ ...id, createdAt }, "EKSCluster", undefined, spec.name, {
      generation: 1,
      labels: { "crows-nest.io/environment": spec.env, "crows-nest.io/team": spec.team },
    }),
    spec: {
      compositionRef: { name: "amazon-eks-cluster" },
      compositionRevisionRef: { name: "amazon-eks-cluster-7d3c1f2" },
      compositionUpdatePolicy: "Automatic",
      parameters: {
        region: spec.region,
        "k8s-version": spec.version,
        "vpc-cidrBlock": `10.${40 + (spec.index % 150)}.0.0/16`,
        "workload-type": "non-gpu",
        "workers-size": 3,
      },
      resourceRefs: [{ apiVersion: CLASSIC_API, kind: "Cluster", name: mrName }],
      writeConnectionSecretToRef: { namespace: ref.namespace, name: ref.name },
    },
    status: {
      conditions: crossplaneConditions("True", "Available", createdAt + 14 * MINUTE),
      connectionDetails: { lastPublishedTime: iso(signedAt) },
      version: cp.version,
    },
  };
}

export function connectionSecret(
  id: ObjectIdentity,
  ref: { namespace: string; name: string },
  owner: KubeObject,
  values: Record<string, string>,
  signedAt: number,
): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Secret",
    type: CONNECTION_SECRET_TYPE,
    metadata: {
      ...meta(id, "Secret", ref.namespace, ref.name),
      ownerReferences: [
        { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true },
      ],
      annotations: { "crossplane.io/connection-details-published": iso(signedAt) },
    },
    data: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, b64(v)])),
  };
}

function crossplaneDefinitions(id: ObjectIdentity): KubeObject[] {
  return [
    {
      apiVersion: "apiextensions.crossplane.io/v1",
      kind: "CompositeResourceDefinition",
      metadata: meta(id, "CompositeResourceDefinition", undefined, `eksclusters.${COMPOSITE_GROUP}`, { generation: 1 }),
      spec: {
        group: COMPOSITE_GROUP,
        names: { kind: "EKSCluster", plural: "eksclusters" },
        connectionSecretKeys: ["value", "cluster-ca", "apiserver-endpoint"],
        scope: "LegacyCluster",
        versions: [{ name: "v1beta1", served: true, referenceable: true, schema: { openAPIV3Schema: { type: "object" } } }],
      },
      status: {
        conditions: [
          { type: "Established", status: "True", reason: "WatchingCompositeResource", lastTransitionTime: iso(id.createdAt) },
          { type: "Offered", status: "True", reason: "WatchingCompositeResourceClaim", lastTransitionTime: iso(id.createdAt) },
        ],
      },
    },
    {
      apiVersion: "apiextensions.crossplane.io/v1",
      kind: "Composition",
      metadata: meta(id, "Composition", undefined, "amazon-eks-cluster", { generation: 1 }),
      spec: {
        compositeTypeRef: { apiVersion: COMPOSITE_API, kind: "EKSCluster" },
        mode: "Pipeline",
        writeConnectionSecretsToNamespace: "crossplane-system",
        pipeline: [
          {
            step: "patch-and-transform",
            functionRef: { name: "function-patch-and-transform" },
            input: {
              apiVersion: "pt.fn.crossplane.io/v1beta1",
              kind: "Resources",
              resources: [
                {
                  name: "eks-cluster",
                  base: {
                    apiVersion: CLASSIC_API,
                    kind: "Cluster",
                    spec: { writeConnectionSecretToRef: { namespace: "crossplane-system" } },
                  },
                  connectionDetails: [
                    { name: "cluster-ca", type: "FromConnectionSecretKey", fromConnectionSecretKey: "clusterCA" },
                    { name: "apiserver-endpoint", type: "FromConnectionSecretKey", fromConnectionSecretKey: "endpoint" },
                    { name: "value", type: "FromConnectionSecretKey", fromConnectionSecretKey: "kubeconfig" },
                  ],
                },
              ],
            },
          },
        ],
      },
    },
  ];
}

function bootstrapKustomization(
  id: ObjectIdentity,
  spec: SpokeSpec,
  ref: SecretRef,
  infraRev: string,
  fetchedAt: number,
  epoch: number,
  t: number,
  endpoint: string,
  events: KubeObject[],
): KubeObject {
  const rel = t - epoch;
  const name = `bootstrap-${spec.name}`;
  const appliedAt = fetchedAt + 30 * SECOND + Math.floor(unit(`boot:${spec.name}`) * 60 * SECOND);
  let failure: { since: number; message: string } | undefined;
  const failingFrom = TIMELINE.unreachableFrom + 20 * SECOND;
  const failingUntil = TIMELINE.unreachableUntil + 40 * SECOND;
  if (spec.roles.includes("unreachable") && rel >= failingFrom && rel < failingUntil) {
    const hostPort = endpoint.replace(/^https:\/\//, "");
    failure = {
      since: epoch + failingFrom,
      message: `failed to get server groups: Get "${endpoint}/api?timeout=32s": dial tcp ${hostPort}: connect: connection refused`,
    };
  }
  if (spec.roles.includes("expired-token")) {
    failure = {
      since: epoch - TIMELINE.expiredTokenAge + 15 * MINUTE,
      message: "failed to get server groups: the server has asked for the client to provide credentials",
    };
  }
  const readyAt = spec.roles.includes("unreachable") && rel >= failingUntil ? epoch + failingUntil : appliedAt;
  const conditions = failure
    ? [
        condition(
          "Reconciling",
          "True",
          "ProgressingWithRetry",
          `Detecting drift for revision ${infraRev} with a timeout of 5m0s`,
          failure.since,
          1,
        ),
        condition("Ready", "False", "ReconciliationFailed", failure.message, failure.since, 1),
      ]
    : [condition("Ready", "True", "ReconciliationSucceeded", `Applied revision: ${infraRev}`, readyAt, 1)];
  const ticks = gridPointsIn(appliedAt, failure ? failure.since : t, epoch, HUB_TICK);
  const history: KsHistoryEpisode[] = [
    {
      revision: infraRev,
      status: "ReconciliationSucceeded",
      first: appliedAt,
      last: ticks > 0 ? lastGridPoint(failure ? failure.since : t, epoch, HUB_TICK) : appliedAt,
      total: 1 + ticks,
      durationMs: 2_400,
    },
  ];
  if (failure) {
    // Retries are recorded on the hub's reconcile grid, so the hub changes only on it.
    const fticks = gridPointsIn(failure.since, t, epoch, HUB_TICK);
    const last = fticks > 0 ? lastGridPoint(t, epoch, HUB_TICK) : failure.since;
    history.unshift({
      revision: infraRev,
      status: "ReconciliationFailed",
      first: failure.since,
      last,
      total: 1 + fticks,
      durationMs: 32_000,
    });
  }
  const ks = kustomization({
    id,
    name,
    path: `./clusters/${spec.name}/flux-system`,
    interval: "10m0s",
    retryInterval: "2m0s",
    timeout: "5m0s",
    sourceRef: { kind: "GitRepository", name: "flux-system" },
    dependsOn: ["clusters"],
    generation: 1,
    kubeConfigSecret: ref.key === "value" ? { name: ref.name } : { name: ref.name, key: ref.key },
    substituteFrom: false,
    conditions,
    lastAppliedRevision: infraRev,
    lastAttemptedRevision: infraRev,
    inventory: [
      { id: "_flux-system__Namespace", v: "v1" },
      { id: "flux-system_flux-system_kustomize.toolkit.fluxcd.io_Kustomization", v: "v1" },
      { id: "flux-system_flux-system_source.toolkit.fluxcd.io_GitRepository", v: "v1" },
    ],
    history,
    labels: { ...appliedBy("clusters"), "crows-nest.io/cluster": spec.name },
  });
  if (failure) {
    const retries = gridPointsIn(failure.since, t, epoch, HUB_TICK);
    const last = retries > 0 ? lastGridPoint(t, epoch, HUB_TICK) : failure.since;
    events.push(
      event({
        id,
        involved: ks,
        reason: "ReconciliationFailed",
        message: failure.message,
        type: "Warning",
        controller: "kustomize-controller",
        first: failure.since,
        last,
        count: 1 + retries,
        revision: infraRev,
      }),
    );
  }
  return ks;
}

function monitoringAgent(id: ObjectIdentity, spec: SpokeSpec, ref: SecretRef, epoch: number): KubeObject[] {
  const name = `monitoring-agent-${spec.name}`;
  const at = epoch - Math.floor((3 + unit(`agent:${spec.name}`) * 30) * DAY);
  const msg = `Helm upgrade succeeded for release monitoring/prometheus-agent.v3 with chart prometheus@27.45.0`;
  return [
    helmChart({
      id,
      releaseNamespace: FLUX_NS,
      releaseName: name,
      chart: "prometheus",
      version: "27.45.0",
      repository: "prometheus-community",
      interval: "12h0m0s",
      pulledAt: at - 20 * SECOND,
      generation: 1,
    }),
    helmRelease({
      id,
      name,
      namespace: FLUX_NS,
      chart: "prometheus",
      version: "27.45.0",
      source: { kind: "HelmRepository", name: "prometheus-community" },
      interval: "10m0s",
      generation: 2,
      targetNamespace: "monitoring",
      kubeConfigSecret: ref.key === "value" ? { name: ref.name } : { name: ref.name, key: ref.key },
      values: {
        server: {
          remoteWrite: [
            { url: `https://aps-workspaces.${spec.region}.amazonaws.com/workspaces/ws-${hex(`amp:${spec.name}`, 8)}/api/v1/remote_write` },
          ],
        },
      },
      labels: { ...appliedBy("clusters"), "crows-nest.io/cluster": spec.name },
      conditions: [
        condition("Ready", "True", "UpgradeSucceeded", msg, at, 2),
        condition("Released", "True", "UpgradeSucceeded", msg, at, 2),
      ],
      history: [
        {
          version: 3,
          status: "deployed",
          chartName: "prometheus",
          chartVersion: "27.45.0",
          appVersion: "v3.7.3",
          firstDeployed: at,
          lastDeployed: at,
          action: "upgrade",
        },
        {
          version: 2,
          status: "superseded",
          chartName: "prometheus",
          chartVersion: "27.40.1",
          appVersion: "v3.7.1",
          firstDeployed: at - 9 * DAY,
          lastDeployed: at - 9 * DAY,
          action: "upgrade",
        },
      ],
      lastAttemptedRevision: "27.45.0",
      lastAttemptedReleaseAction: "upgrade",
      lastAttemptedGeneration: 2,
    }),
  ];
}

/** Hub-side change times (relative to t0) besides the rotation grid. */
export const HUB_EVENT_TIMES = [
  TIMELINE.unreachableFrom + 20 * SECOND,
  TIMELINE.unreachableUntil + 40 * SECOND,
  TIMELINE.controlPlaneUpgradeStart,
  TIMELINE.controlPlaneUpgradeEnd,
  TIMELINE.nodeGroupUpgradeStart,
  TIMELINE.nodeGroupUpgradeEnd,
  ...PROVISIONING_HUB_TIMES,
];
