// Who is in the fleet: the hub, the spokes, where they run, how the hub provisions and reaches each one,
// and which scenario each special spoke plays. Names and roles depend only on the spoke's index (never on
// the seed), so documentation and end-to-end tests can name them; versions depend on the index and the
// simulation's date too (fleet-versions.ts), so tests read them from the fleet's facts.
import type { FleetVersions } from "./fleet-versions";
import { unit } from "./random";

export const HUB_NAME = "hub";
export const HUB_REGION = "us-east-1";

export type Provisioning =
  /** provider-aws classic `Cluster.eks.aws.crossplane.io` writing its own connection secret */
  | "classic"
  /** provider-upjet-aws `Cluster` + `ClusterAuth.eks.aws.upbound.io` (the ClusterAuth writes the secret) */
  | "clusterauth"
  /** composite `EKSCluster` (Composition amazon-eks-cluster) whose secret maps value/cluster-ca/apiserver-endpoint */
  | "composite"
  /** not provisioned by the hub; a person stored a kubeconfig Secret with the discovery label */
  | "label"
  /** not in the hub at all: only the EKS API (ListClusters + IRSA) finds it */
  | "eks-only";

export type ScenarioRole =
  | "reference"
  | "bad-commit"
  | "helm-upgrade-stall"
  | "dependency-chain"
  | "suspended"
  | "extended-support"
  | "node-group-skew"
  | "scheduled-upgrade"
  | "unreachable"
  | "expired-token"
  | "past-extended-support"
  /** on the minor before Kubernetes removes an API its inventories still use (fleet-versions.ts) */
  | "removed-api"
  /** the collector's identity gets AccessDenied from the EKS API for it; Crossplane still knows its EKS facts */
  | "no-eks-access"
  /** one of its nodes stops reporting (Ready Unknown) for part of the timeline */
  | "not-ready-node"
  | "huge-message";

export interface SpokeSpec {
  index: number;
  name: string;
  env: "prod" | "staging" | "dev";
  team: string;
  region: string;
  accountId: string;
  /** Kubernetes minor at t0. */
  version: string;
  provisioning: Provisioning;
  /** The hub has a Flux Kustomization (and maybe a HelmRelease) with kubeConfig.secretRef for this spoke. */
  hubFluxRef: boolean;
  roles: ScenarioRole[];
  /** A cluster Crossplane creates during the run: ACTIVE (and served) from this time, relative to t0. */
  availableAt?: number;
}

export const REGIONS = [
  { name: "us-east-1", short: "use1" },
  { name: "eu-west-1", short: "euw1" },
  { name: "us-west-2", short: "usw2" },
  { name: "ap-southeast-2", short: "apse2" },
] as const;

const ENV_PATTERN = ["prod", "staging", "prod", "dev", "prod", "staging", "prod", "dev", "prod", "staging"] as const;
const TEAMS = ["payments", "storefront", "platform", "data", "identity", "logistics"];
export const ACCOUNT_BY_ENV = { prod: "210987654321", staging: "345678901234", dev: "456789012345" } as const;

/** Special spokes by index: all of them exist from 11 spokes on (12 clusters with the hub). */
export const ROLE_INDEX = {
  reference: 0,
  /** a Kustomization whose health check lists hundreds of resources: a 32 KiB condition message */
  hugeMessage: 1,
  helmUpgradeStall: 2,
  dependencyChain: 3,
  expiredToken: 4,
  /**
   * flowcontrol v1beta3 FlowSchemas and older removed APIs in its inventories, on 1.31 (past end of extended
   * support since 2026-11-26): EKS's automatic upgrade to 1.32 would break them. Also the label-only spoke.
   */
  removedApi: 5,
  /** on the oldest version in extended support at the simulation's date */
  extendedSupport: 6,
  /** the extended-support spoke also holds the suspended HelmRelease and the failing tenant Git source */
  suspended: 6,
  nodeGroupSkew: 7,
  /** the node-group-skew spoke also has a node that stops reporting (cluster-facts scenario) */
  notReadyNode: 7,
  /** the bad-commit spoke reached through its ClusterAuth secret, in an account the collector may not call EKS in */
  noEksAccess: 1,
  scheduledUpgrade: 8,
  /** on 1.27, past end of extended support; also a release whose install failed and podinfo from OCI (old-cluster.ts) */
  pastExtendedSupport: 9,
  unreachable: 10,
} as const;

/** Spokes only a labelled kubeconfig Secret in the hub leads to, and spokes only the EKS API knows. */
export const isLabelOnlySpoke = (index: number) => index % 10 === 5;
export const isEksOnlySpoke = (index: number) => index % 20 === 9;

/** Spokes whose `apps` Kustomization deploys the component the bad commit breaks. */
export const isBadCommitSpoke = (index: number) => index % 4 === 1;

export function spokeName(index: number, total: number): string {
  const env = ENV_PATTERN[index % ENV_PATTERN.length];
  const region = REGIONS[Math.floor(index / 2) % REGIONS.length];
  const width = Math.max(3, String(total).length);
  return `${env}-${region.short}-${String(index + 1).padStart(width, "0")}`;
}

/**
 * One of the newest versions in standard support (newest first): 45 % the newest, 35 % the one before, 12 %
 * and 8 % the two before that; a share whose version the calendar lacks goes to the oldest one it has.
 */
function baseVersion(name: string, standard: readonly string[]): string {
  const u = unit(`version:${name}`);
  const rank = u < 0.45 ? 0 : u < 0.8 ? 1 : u < 0.92 ? 2 : 3;
  return standard[Math.min(rank, standard.length - 1)];
}

export function spokeSpec(index: number, total: number, versions: FleetVersions): SpokeSpec {
  const env = ENV_PATTERN[index % ENV_PATTERN.length];
  const region = REGIONS[Math.floor(index / 2) % REGIONS.length];
  const name = spokeName(index, total);
  const roles: ScenarioRole[] = [];
  let version = baseVersion(name, versions.standard);
  let provisioning: Provisioning = (["classic", "clusterauth", "composite"] as const)[index % 3];
  if (isLabelOnlySpoke(index)) provisioning = "label";
  if (isEksOnlySpoke(index)) provisioning = "eks-only";

  if (isBadCommitSpoke(index)) roles.push("bad-commit");
  if (index === ROLE_INDEX.suspended) roles.push("suspended");
  if (index === ROLE_INDEX.noEksAccess) roles.push("no-eks-access");
  if (index === ROLE_INDEX.notReadyNode) roles.push("not-ready-node");
  if (index === ROLE_INDEX.removedApi) {
    roles.push("removed-api");
    version = versions.removedApi.version;
  }
  switch (index) {
    case ROLE_INDEX.reference:
      roles.push("reference");
      version = versions.reference;
      break;
    case ROLE_INDEX.hugeMessage:
      roles.push("huge-message");
      break;
    case ROLE_INDEX.helmUpgradeStall:
      roles.push("helm-upgrade-stall");
      break;
    case ROLE_INDEX.dependencyChain:
      roles.push("dependency-chain");
      break;
    case ROLE_INDEX.extendedSupport:
      roles.push("extended-support");
      version = versions.extendedSupport;
      break;
    case ROLE_INDEX.nodeGroupSkew:
      roles.push("node-group-skew");
      version = versions.nodeGroupSkew.controlPlane;
      break;
    case ROLE_INDEX.scheduledUpgrade:
      roles.push("scheduled-upgrade");
      version = versions.scheduledUpgrade.from;
      break;
    case ROLE_INDEX.unreachable:
      roles.push("unreachable");
      break;
    case ROLE_INDEX.pastExtendedSupport:
      roles.push("past-extended-support");
      version = versions.pastExtendedSupport;
      break;
    case ROLE_INDEX.expiredToken:
      roles.push("expired-token");
      provisioning = "clusterauth";
      break;
  }
  // Classic clusters writing into crossplane-system are found through Crossplane only.
  const hubFluxRef = provisioning !== "label" && provisioning !== "eks-only" && !(provisioning === "classic" && index % 6 === 3);
  return {
    index,
    name,
    env,
    team: TEAMS[index % TEAMS.length],
    region: region.name,
    accountId: ACCOUNT_BY_ENV[env],
    version,
    provisioning,
    hubFluxRef,
    roles,
  };
}
