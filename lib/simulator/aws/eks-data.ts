// What the simulated EKS API answers, derived from the fleet model at a simulated time: clusters, node
// groups, managed add-ons, supported add-on versions, the version calendar and Upgrade Insights.
// Shapes follow @aws-sdk/client-eks 3.1169.0 (restJson1); timestamps are epoch seconds.
import type { RuntimeInfo } from "../contract";
import { EKS_DEFAULT_VERSION, EKS_VERSIONS, MANAGED_ADDONS, eksVersion, nextMinor, versionStatusAt } from "../fleet/catalogue";
import { eksArn, oidcIssuer } from "../fleet/hub";
import type { SimFleet } from "../fleet/index";
import { hex, unit, uuid } from "../fleet/random";
import { DAY, MINUTE, TIMELINE } from "../fleet/timeline";
import type { SpokeSpec } from "../fleet/topology";
import { controlPlaneAt, managedAddonsAt, nodegroupsAt } from "../fleet/versions";

const seconds = (ms: number) => Math.round(ms) / 1000;

/** The built-in fleet's hub is an EKS cluster too (any other model lists its EKS clusters as spokes). */
function hubIncluded(model: SimFleet): boolean {
  return model.spokeSpec(model.hub.name) === undefined && model.clusters.some((c) => c.name === model.hub.name && c.eks);
}

export function clusterSpec(model: SimFleet, name: string): SpokeSpec | undefined {
  return model.spokeSpec(name) ?? (name === model.hub.name && hubIncluded(model) ? model.hub : undefined);
}

/**
 * ListClusters: the clusters the caller's account sees. A spoke in an account the collector may not call EKS
 * in (role `no-eks-access`) is not listed; clusters Crossplane is creating are, as EKS lists CREATING ones.
 */
export function clustersInRegion(model: SimFleet, region: string): string[] {
  const names: string[] = [];
  if (hubIncluded(model) && model.hub.region === region) names.push(model.hub.name);
  for (const s of [...model.spokes, ...model.provisionedSpokes]) {
    if (s.region === region && !s.roles.includes("no-eks-access")) names.push(s.name);
  }
  return names.sort();
}

/** A cluster Crossplane is still creating at relative time `rel` (DescribeCluster: CREATING, no endpoint yet). */
export function creatingAt(spec: SpokeSpec, rel: number): boolean {
  return spec.availableAt !== undefined && rel < spec.availableAt;
}

function createdAtOf(model: SimFleet, spec: SpokeSpec): number {
  if (spec === model.hub) return model.epoch - 640 * DAY;
  if (spec.availableAt !== undefined) return model.epoch + spec.availableAt - 14 * MINUTE;
  return model.epoch - Math.floor((60 + unit(`created:${spec.name}`) * 500) * DAY);
}

export function describeCluster(model: SimFleet, runtime: RuntimeInfo, spec: SpokeSpec, t: number) {
  const rel = t - model.epoch;
  const cp = controlPlaneAt(spec, rel);
  const creating = creatingAt(spec, rel);
  const extendedPreference =
    spec.roles.includes("extended-support") || spec.roles.includes("removed-api") || unit(`policy:${spec.name}`) < 0.7;
  const vpc = `vpc-0${hex(`vpc:${spec.name}`, 16)}`;
  const issues: { code: string; message: string; resourceIds: string[] }[] = [];
  return {
    name: spec.name,
    arn: eksArn(spec),
    createdAt: seconds(createdAtOf(model, spec)),
    version: cp.version,
    ...(creating ? {} : { endpoint: runtime.endpointOf(spec.name) }),
    roleArn: `arn:aws:iam::${spec.accountId}:role/eks-cluster-${spec.name}`,
    resourcesVpcConfig: {
      subnetIds: [0, 1, 2].map((i) => `subnet-0${hex(`subnet:${spec.name}:${i}`, 16)}`),
      securityGroupIds: [`sg-0${hex(`sg:${spec.name}`, 16)}`],
      clusterSecurityGroupId: `sg-0${hex(`csg:${spec.name}`, 16)}`,
      vpcId: vpc,
      endpointPublicAccess: true,
      endpointPrivateAccess: true,
      publicAccessCidrs: ["0.0.0.0/0"],
    },
    kubernetesNetworkConfig: { serviceIpv4Cidr: "172.20.0.0/16", ipFamily: "ipv4", elasticLoadBalancing: { enabled: false } },
    logging: {
      clusterLogging: [
        { types: ["api", "audit", "authenticator"], enabled: true },
        { types: ["controllerManager", "scheduler"], enabled: false },
      ],
    },
    identity: { oidc: { issuer: oidcIssuer(spec) } },
    status: creating ? "CREATING" : cp.status,
    certificateAuthority: creating ? {} : { data: runtime.caDataOf(spec.name) },
    platformVersion: cp.platformVersion,
    tags: { environment: spec.env, team: spec.team, "managed-by": spec.provisioning === "eks-only" ? "terraform" : "crossplane" },
    health: { issues },
    accessConfig: { authenticationMode: "API_AND_CONFIG_MAP" },
    upgradePolicy: { supportType: extendedPreference ? "EXTENDED" : "STANDARD" },
    deletionProtection: spec.env === "prod",
  };
}

export function nodegroupNames(spec: SpokeSpec, t: number, epoch: number): string[] {
  // Node groups are created once the cluster is ACTIVE.
  return creatingAt(spec, t - epoch) ? [] : nodegroupsAt(spec, t - epoch).map((ng) => ng.name);
}

export function describeNodegroup(model: SimFleet, spec: SpokeSpec, name: string, t: number) {
  const ng = nodegroupsAt(spec, t - model.epoch).find((n) => n.name === name);
  if (!ng) return undefined;
  const id = uuid(`ng:${spec.name}:${ng.name}`);
  const created = createdAtOf(model, spec) + 15 * MINUTE;
  return {
    nodegroupName: ng.name,
    nodegroupArn: `arn:aws:eks:${spec.region}:${spec.accountId}:nodegroup/${spec.name}/${ng.name}/${id}`,
    clusterName: spec.name,
    version: ng.version,
    releaseVersion: ng.releaseVersion,
    createdAt: seconds(created),
    modifiedAt: seconds(model.epoch + ng.modifiedAt),
    status: ng.status,
    capacityType: ng.capacityType,
    scalingConfig: { minSize: ng.min, maxSize: ng.max, desiredSize: ng.desired },
    instanceTypes: [ng.instanceType],
    subnets: [0, 1, 2].map((i) => `subnet-0${hex(`subnet:${spec.name}:${i}`, 16)}`),
    amiType: ng.amiType,
    nodeRole: `arn:aws:iam::${spec.accountId}:role/eks-node-${spec.name}`,
    labels: { "node-group": ng.name },
    resources: { autoScalingGroups: [{ name: `eks-${ng.name}-${id}` }] },
    diskSize: 50,
    health: { issues: [] as { code: string; message: string; resourceIds: string[] }[] },
    updateConfig: { maxUnavailable: 1 },
    tags: { environment: spec.env, team: spec.team },
  };
}

export function addonNames(): string[] {
  return MANAGED_ADDONS.map((a) => a.name).sort();
}

export function describeAddon(model: SimFleet, spec: SpokeSpec, name: string, t: number) {
  const state = managedAddonsAt(spec, t - model.epoch).find((a) => a.name === name);
  if (!state) return undefined;
  const created = createdAtOf(model, spec) + 20 * MINUTE;
  const withRole = name === "vpc-cni" || name === "aws-ebs-csi-driver";
  return {
    addonName: name,
    clusterName: spec.name,
    status: state.status,
    addonVersion: state.version,
    health: { issues: state.issues },
    addonArn: `arn:aws:eks:${spec.region}:${spec.accountId}:addon/${spec.name}/${name}/${uuid(`addon:${spec.name}:${name}`)}`,
    createdAt: seconds(created),
    modifiedAt: seconds(model.epoch - Math.floor(unit(`addon-mod:${spec.name}:${name}`) * 30) * DAY),
    ...(withRole ? { serviceAccountRoleArn: `arn:aws:iam::${spec.accountId}:role/${spec.name}-${name}` } : {}),
    tags: {},
  };
}

export interface AddonVersionQuery {
  kubernetesVersion?: string;
  addonName?: string;
  types?: string[];
  publishers?: string[];
  owners?: string[];
}

export function addonVersionInfos(query: AddonVersionQuery) {
  const result = [];
  for (const addon of [...MANAGED_ADDONS].sort((a, b) => a.name.localeCompare(b.name))) {
    if (query.addonName && addon.name !== query.addonName) continue;
    if (query.types?.length && !query.types.includes(addon.type)) continue;
    if (query.publishers?.length && !query.publishers.includes("eks")) continue;
    if (query.owners?.length && !query.owners.includes("aws")) continue;
    // every version of this add-on, newest first, with the cluster versions it supports
    const all = new Map<string, { clusterVersion: string; platformVersions: string[]; defaultVersion: boolean }[]>();
    for (const info of [...EKS_VERSIONS].reverse()) {
      const list = addon.versions[info.version] ?? [];
      list.forEach((version, i) => {
        if (query.kubernetesVersion && info.version !== query.kubernetesVersion) return;
        const compat = all.get(version) ?? [];
        compat.push({ clusterVersion: info.version, platformVersions: ["*"], defaultVersion: i === 0 });
        all.set(version, compat);
      });
    }
    if (all.size === 0) continue;
    const versions = [...all.keys()].sort(compareAddonVersions).reverse();
    result.push({
      addonName: addon.name,
      type: addon.type,
      addonVersions: versions.map((version) => ({
        addonVersion: version,
        architecture: ["amd64", "arm64"],
        computeTypes: ["ec2", "hybrid"],
        compatibilities: all.get(version)!,
        requiresConfiguration: false,
        requiresIamPermissions: addon.name === "vpc-cni" || addon.name === "aws-ebs-csi-driver",
      })),
      publisher: "eks",
      owner: "aws",
      defaultNamespace: addon.namespace,
    });
  }
  return result;
}

function compareAddonVersions(a: string, b: string): number {
  const parse = (v: string) =>
    v
      .replace(/^v/, "")
      .split(/[.-]|eksbuild\./)
      .filter(Boolean)
      .map((p) => Number(p) || 0);
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export interface ClusterVersionQuery {
  clusterVersions?: string[];
  versionStatus?: string;
  status?: string;
  defaultOnly?: boolean;
  includeAll?: boolean;
}

export function clusterVersionInfos(query: ClusterVersionQuery, t: number) {
  const out = [];
  for (const info of [...EKS_VERSIONS].reverse()) {
    const versionStatus = versionStatusAt(info, t);
    const status = versionStatus.toLowerCase().replace("_", "-");
    if (query.clusterVersions?.length && !query.clusterVersions.includes(info.version)) continue;
    if (query.versionStatus && query.versionStatus !== versionStatus) continue;
    if (query.status && query.status !== status) continue;
    if (query.defaultOnly && info.version !== EKS_DEFAULT_VERSION) continue;
    if (!query.includeAll && !query.clusterVersions?.length && versionStatus === "UNSUPPORTED") continue;
    out.push({
      clusterVersion: info.version,
      clusterType: "eks",
      defaultPlatformVersion: info.platformVersion,
      defaultVersion: info.version === EKS_DEFAULT_VERSION,
      releaseDate: seconds(info.releaseDate),
      endOfStandardSupportDate: seconds(info.endOfStandardSupport),
      endOfExtendedSupportDate: seconds(info.endOfExtendedSupport),
      status,
      versionStatus,
      kubernetesPatchVersion: info.patch,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Upgrade Insights

type InsightStatus = "PASSING" | "WARNING" | "ERROR" | "UNKNOWN";

export interface Insight {
  id: string;
  name: string;
  category: "UPGRADE_READINESS";
  kubernetesVersion: string;
  lastRefreshTime: number;
  lastTransitionTime: number;
  description: string;
  insightStatus: { status: InsightStatus; reason: string };
  recommendation: string;
  additionalInfo: Record<string, string>;
  resources: { insightStatus: { status: InsightStatus; reason: string }; kubernetesResourceUri?: string; arn?: string }[];
  categorySpecificSummary: {
    deprecationDetails: {
      usage: string;
      replacedWith: string;
      stopServingVersion: string;
      startServingReplacementVersion: string;
      clientStats: { userAgent: string; numberOfRequestsLast30Days: number; lastRequestTime: number }[];
    }[];
    addonCompatibilityDetails?: { name: string; compatibleVersions: string[] }[];
  };
}

/** APIs Kubernetes stops serving in a minor, as EKS Upgrade Insights lists them. */
const REMOVED_IN: Record<string, { resource: string; group: string; from: string; to: string; since: string; objects: string[] }[]> = {
  "1.32": [
    {
      resource: "flowschemas",
      group: "flowcontrol.apiserver.k8s.io",
      from: "v1beta3",
      to: "v1",
      since: "1.29",
      objects: ["platform-batch-jobs"],
    },
    {
      resource: "prioritylevelconfigurations",
      group: "flowcontrol.apiserver.k8s.io",
      from: "v1beta3",
      to: "v1",
      since: "1.29",
      objects: ["platform-batch"],
    },
  ],
};

export function insightsFor(model: SimFleet, spec: SpokeSpec, t: number): Insight[] {
  const rel = t - model.epoch;
  const cp = controlPlaneAt(spec, rel);
  const target = nextMinor(cp.version);
  if (!EKS_VERSIONS.some((v) => v.version === target)) return [];
  const refreshed = Math.floor(t / (6 * 3600_000)) * 6 * 3600_000 - 17 * MINUTE;
  const since = model.epoch - 9 * DAY;
  const make = (
    name: string,
    description: string,
    status: InsightStatus,
    reason: string,
    recommendation: string,
    additionalInfo: Record<string, string>,
    extra: Partial<Pick<Insight, "resources" | "categorySpecificSummary">> = {},
    transition = since,
  ): Insight => ({
    id: uuid(`insight:${spec.name}:${name}:${target}`),
    name,
    category: "UPGRADE_READINESS",
    kubernetesVersion: target,
    lastRefreshTime: seconds(refreshed),
    lastTransitionTime: seconds(transition),
    description,
    insightStatus: { status, reason },
    recommendation,
    additionalInfo,
    resources: extra.resources ?? [],
    categorySpecificSummary: extra.categorySpecificSummary ?? { deprecationDetails: [] },
  });

  const insights: Insight[] = [];
  const usesRemoved = spec.roles.includes("removed-api") && REMOVED_IN[target];
  const deprecations = usesRemoved
    ? REMOVED_IN[target].map((r) => ({
        usage: `/apis/${r.group}/${r.from}/${r.resource}`,
        replacedWith: `/apis/${r.group}/${r.to}/${r.resource}`,
        stopServingVersion: target,
        startServingReplacementVersion: r.since,
        clientStats: [
          {
            userAgent: "kustomize-controller/v1.9.4",
            numberOfRequestsLast30Days: 4300 + Math.floor(unit(`req:${spec.name}:${r.resource}`) * 900),
            lastRequestTime: seconds(refreshed - 23 * MINUTE),
          },
        ],
      }))
    : [];
  insights.push(
    make(
      `Deprecated APIs removed in Kubernetes v${target}`,
      `Checks for usage of deprecated APIs that are scheduled for removal in Kubernetes v${target}. Upgrading your cluster before migrating to the updated APIs supported by v${target} could cause application impact.`,
      usesRemoved ? "ERROR" : "PASSING",
      usesRemoved ? "Deprecated API usage detected within last 30 days." : "No deprecated API usage detected within the last 30 days.",
      `Update manifests and API clients to use newer Kubernetes APIs if applicable before upgrading to Kubernetes v${target}.`,
      {
        "EKS update cluster documentation": "https://docs.aws.amazon.com/eks/latest/userguide/update-cluster.html",
        [`Kubernetes v${target} deprecation guide`]: `https://kubernetes.io/docs/reference/using-api/deprecation-guide/#v${target.replace(".", "-")}`,
      },
      {
        resources: usesRemoved
          ? REMOVED_IN[target].flatMap((r) =>
              r.objects.map((o) => ({
                insightStatus: { status: "ERROR" as const, reason: "Deprecated API usage detected within last 30 days." },
                kubernetesResourceUri: `/apis/${r.group}/${r.from}/${r.resource}/${o}`,
              })),
            )
          : [],
        categorySpecificSummary: { deprecationDetails: deprecations },
      },
    ),
  );

  const nodegroups = nodegroupsAt(spec, rel);
  const behind = nodegroups.filter((ng) => ng.version !== cp.version);
  insights.push(
    make(
      "Kubelet version skew",
      "Checks for kubelet versions of worker nodes in the cluster to see if upgrade would cause noncompliance with supported Kubernetes kubelet version skew policy.",
      behind.length ? "WARNING" : "PASSING",
      behind.length
        ? "Node kubelet versions are behind the cluster control plane version."
        : "Node kubelet versions match the cluster control plane version.",
      "Upgrade your worker nodes to match the Kubernetes version of your cluster control plane.",
      {
        "Kubelet version skew policy": "https://kubernetes.io/releases/version-skew-policy/#kubelet",
        "Updating a managed node group": "https://docs.aws.amazon.com/eks/latest/userguide/update-managed-node-group.html",
      },
      {
        resources: behind.map((ng) => ({
          insightStatus: { status: "WARNING" as const, reason: `Node group runs Kubernetes ${ng.version}.` },
          arn: `arn:aws:eks:${spec.region}:${spec.accountId}:nodegroup/${spec.name}/${ng.name}/${uuid(`ng:${spec.name}:${ng.name}`)}`,
        })),
      },
      behind.length ? model.epoch + Math.max(-40 * MINUTE, Math.min(rel, TIMELINE.controlPlaneUpgradeEnd)) : since,
    ),
  );

  const addons = managedAddonsAt(spec, rel);
  // kube-proxy is versioned per minor and has its own skew insight below.
  const incompatible = addons.filter(
    (a) => a.name !== "kube-proxy" && !(MANAGED_ADDONS.find((m) => m.name === a.name)!.versions[target] ?? []).includes(a.version),
  );
  insights.push(
    make(
      "EKS add-on version compatibility",
      "Checks version of installed EKS add-ons to ensure they are compatible with the next version of Kubernetes. ",
      incompatible.length ? "WARNING" : "PASSING",
      incompatible.length
        ? "One or more EKS add-ons are not compatible with the next Kubernetes version."
        : "All installed EKS add-on versions are compatible with next Kubernetes version.",
      "Upgrade your EKS add-on to a version that is compatible with the next Kubernetes version.",
      { "Amazon EKS add-ons": "https://docs.aws.amazon.com/eks/latest/userguide/eks-add-ons.html" },
      {
        categorySpecificSummary: {
          deprecationDetails: [],
          addonCompatibilityDetails: incompatible.map((a) => ({
            name: a.name,
            compatibleVersions: MANAGED_ADDONS.find((m) => m.name === a.name)!.versions[target] ?? [],
          })),
        },
      },
    ),
  );

  const kubeProxy = addons.find((a) => a.name === "kube-proxy")!;
  const proxyBehind = !kubeProxy.version.startsWith(`v${eksVersion(cp.version).patch.split(".").slice(0, 2).join(".")}.`);
  insights.push(
    make(
      "kube-proxy version skew",
      "Checks version of kube-proxy in cluster to see if upgrade would cause noncompliance with supported Kubernetes kube-proxy version skew policy.",
      proxyBehind ? "WARNING" : "PASSING",
      proxyBehind
        ? "kube-proxy version is behind the cluster control plane version."
        : "kube-proxy versions match the cluster control plane version.",
      "Upgrade your kube-proxy to be the same version as your cluster control plane.",
      { "Kube-proxy version skew policy": "https://kubernetes.io/releases/version-skew-policy/#kube-proxy" },
    ),
  );

  insights.push(
    make(
      "Cluster health issues",
      "Checks for any cluster health issues that prevent successful upgrade to the next Kubernetes version on EKS.",
      "PASSING",
      "No cluster health issues detected.",
      "Refer to the cluster health issue remediation guide.",
      { "EKS cluster health issues": "https://docs.aws.amazon.com/eks/latest/APIReference/API_ClusterIssue.html" },
    ),
  );

  if (nodegroups.some((ng) => ng.amiType.startsWith("AL2_"))) {
    insights.push(
      make(
        "Amazon Linux 2 compatibility",
        "Checks if your cluster has managed node groups running Amazon Linux 2 (AL2). EKS AL2 AMIs are not published for Kubernetes v1.33 and later.",
        "WARNING",
        "Managed node groups running Amazon Linux 2 were found.",
        "Migrate your node groups to Amazon Linux 2023 or Bottlerocket before upgrading to Kubernetes v1.33.",
        { "Upgrade from AL2 to AL2023": "https://docs.aws.amazon.com/eks/latest/userguide/al2023.html" },
      ),
    );
  }
  return insights;
}
