// The fleet model: a deterministic function from (seed, cluster, simulated time) to the objects a cluster
// holds. Objects are generated per cluster on demand; nothing is stored but small per-spoke plans.
// Scenario times are relative to the epoch t0 (see timeline.ts and docs/simulator-scenarios.md).
import type { ClusterConditions, FleetModel, KubeObject, RuntimeInfo, SimCluster } from "../contract";
import { HUB_ACCOUNT_ID } from "../aws/identities";
import {
  argoSpokeCluster,
  argoSpokeObjects,
  argoSpokeSpecs,
  argocdFacts,
  argocdHubChangeTimes,
  argocdHubObjects,
  type ArgoSpokeSpec,
} from "./argocd";
import { fluxReport, hasFluxOperator } from "./flux-report";
import { helmStallChangeTimes } from "./helm-stall";
import { tenantsChangeTimes } from "./huge-message";
import { objectSemanticsChangeTimes } from "./object-semantics";
import { HUB_EVENT_TIMES, eksArn, hubObjects, hubSpecAt } from "./hub";
import { NOT_READY_NODE } from "./node-scenarios";
import { PROVISIONING_CLUSTERS, provisionedSpokeObjects, provisionedSpokeSpecs } from "./provisioning";
import { TENANT_DATA_FAILING_SINCE, appsChangeTimes, planSpoke, spokeObjects, type SpokePlan } from "./spoke";
import { DAY, MINUTE, SECOND, TIMELINE, gridPointsIn, tickPhase } from "./timeline";
import { HUB_NAME, HUB_REGION, ROLE_INDEX, isBadCommitSpoke, spokeSpec, type SpokeSpec } from "./topology";
import { fleetVersionsAt, type FleetVersions } from "./fleet-versions";
import { HELM_ADDONS, eksVersion } from "./catalogue";
import { PODINFO_OCI } from "./old-cluster";
import { controlPlaneAt, gitVersionOf } from "./versions";

export { DISCOVERY_LABEL, connectionSecretOf } from "./hub";
export { TIMELINE } from "./timeline";
export { type SpokeSpec } from "./topology";
export { type FleetVersions } from "./fleet-versions";
export { type ArgoSpokeSpec } from "./argocd";

export interface FleetModelOptions {
  /** number of clusters including the hub (so `clusters - 1` spokes) */
  clusters: number;
  /** Flux objects per spoke (minimum 6; 20+ brings in all scenario add-ons) */
  objects: number;
  /** Flux objects of particular spokes, by name, instead of `objects` (one big cluster in a small fleet). */
  objectsBySpoke?: Readonly<Record<string, number>>;
  seed: number;
  /**
   * Spokes only Argo CD on the hub knows, beyond the `clusters` (default 0): reached through their Argo CD
   * cluster secrets only (awsAuthConfig, a bearer token, an exec plugin, in turn). See argocd.ts.
   */
  argocdSpokes?: number;
  /**
   * Epoch ms of t0, the moment the scenario timeline starts (the simulator passes its clock's start).
   * When omitted, t0 is the first simulated time the model is asked about, so a runtime that starts its
   * clock at "now" and asks right away gets a timeline that starts when it does.
   *
   * Its UTC day also picks the Kubernetes versions from the EKS calendar (fleet-versions.ts), now's when
   * omitted; a day the calendar cannot serve every role on throws FleetCalendarError.
   */
  epoch?: number;
}

export interface ScenarioFacts {
  /** The Kubernetes versions chosen from the EKS calendar at the simulation's date (only in the built-in fleet). */
  versions?: FleetVersions;
  reference?: string;
  badCommit: { kustomization: string; namespace: string; clusters: string[] };
  helmUpgradeStall?: { cluster: string; namespace: string; name: string; from: string; to: string };
  dependencyChain?: { cluster: string; root: string; followers: string[] };
  suspended?: { cluster: string; kind: "HelmRelease"; namespace: string; name: string };
  gitAuthFailure?: { cluster: string; name: string };
  /** On the oldest version in extended support at the simulation's date: billed $365 a month more. */
  extendedSupport?: { cluster: string; version: string };
  /** On 1.31 with flowcontrol v1beta3 objects in its inventories, an API 1.32 no longer serves. */
  removedApi?: { cluster: string; version: string; removedIn: string; apiVersion: string; objects: string[] };
  nodeGroupSkew?: { cluster: string; controlPlane: string; nodegroup: string; nodegroupVersion: string };
  scheduledUpgrade?: { cluster: string; from: string; to: string };
  unreachable?: { cluster: string };
  expiredToken?: { cluster: string };
  /** On 1.27, a year past end of extended support (old-cluster.ts). */
  pastExtendedSupport?: { cluster: string; version: string; endOfExtendedSupport: string };
  /** A HelmRelease whose install failed (nothing deployed), next to installed releases of the chart elsewhere (from 21 objects per spoke). */
  failedInstall?: { cluster: string; namespace: string; name: string; chart: string };
  /** A chart pulled from an OCI HelmRepository on one spoke and over HTTPS on the others (from 18 objects per spoke). */
  dualSourceChart?: { chart: string; ociCluster: string; ociUrl: string; httpsUrl: string };
  /** Crossplane creates two clusters during the run and fails to create a third (hub-side; see provisioning.ts). */
  provisioning: { creating: string; creatingUpjet: string; failing: string; availableAt: Record<string, number> };
  /** The EKS API refuses the collector for this spoke; Crossplane knows its EKS facts and node groups. */
  noEksAccess?: { cluster: string };
  /** A node of this spoke is NotReady from t0 − 4 min to 20:00 (NodeNotReady Event). */
  notReadyNode?: { cluster: string; nodegroup: string; since: number; until: number };
  /** Hub HelmReleases deploying into a spoke through spec.kubeConfig (one per fourth spoke). */
  hubToSpoke?: { hub: string; kind: "HelmRelease"; namespace: string; name: string; spoke: string };
  hugeMessage?: { cluster: string; namespace: string; name: string };
  labelOnly: string[];
  eksOnly: string[];
  crossplaneOnly: string[];
  /** Only in the built-in fleet. */
  argocd?: ReturnType<typeof argocdFacts>;
}

export interface SimFleet extends FleetModel {
  epoch: number;
  objectsPerSpoke: number;
  spokes: SpokeSpec[];
  /** Clusters Crossplane creates during the run (served once ACTIVE; not indexed spokes). */
  provisionedSpokes: SpokeSpec[];
  /** Spokes only Argo CD knows (not Flux spokes, not in the EKS API the collector scans). */
  argoSpokes: ArgoSpokeSpec[];
  /** The hub as the EKS API describes it (its version follows the calendar too). */
  hub: SpokeSpec;
  spokeSpec(name: string): SpokeSpec | undefined;
  plan(name: string): SpokePlan | undefined;
  facts: ScenarioFacts;
}

export function createFleetModel(options: FleetModelOptions): SimFleet {
  const total = Math.max(0, Math.floor(options.clusters) - 1);
  const objectsPerSpoke = Math.max(6, Math.floor(options.objects));
  const seed = options.seed;
  let epoch = options.epoch;
  /** t0, latched on first use when the caller did not give one */
  const epochFor = (t: number): number => (epoch ??= t);
  const versions = fleetVersionsAt(epoch ?? Date.now());
  const hub = hubSpecAt(versions.hub);
  const spokes = Array.from({ length: total }, (_, i) => spokeSpec(i, total, versions));
  const byName = new Map(spokes.map((s) => [s.name, s]));
  const provisioned = provisionedSpokeSpecs();
  const provisionedByName = new Map(provisioned.map((s) => [s.name, s]));
  const argoSpokes = argoSpokeSpecs(options.argocdSpokes ?? 0, versions.standard);
  const argoByName = new Map(argoSpokes.map((s) => [s.name, s]));
  const argoHubTimes = argocdHubChangeTimes(hub, spokes, argoSpokes);
  const plans = new Map<string, SpokePlan>();
  const eventTimes = new Map<string, number[]>();

  const planOf = (name: string, t: number): SpokePlan | undefined => {
    const spec = byName.get(name);
    if (!spec) return undefined;
    let plan = plans.get(name);
    if (!plan) {
      plan = planSpoke(spec, Math.max(6, Math.floor(options.objectsBySpoke?.[name] ?? objectsPerSpoke)), seed, epochFor(t));
      plans.set(name, plan);
    }
    return plan;
  };

  const clusters: SimCluster[] = [
    {
      name: HUB_NAME,
      role: "hub",
      eks: { name: HUB_NAME, region: HUB_REGION, accountId: HUB_ACCOUNT_ID, arn: eksArn(hub) },
      gitVersion: gitVersionOf(hub.version),
      // The hub is an EKS cluster too (ListClusters shows it): it takes EKS tokens besides its static ones.
      auth: "eks",
      env: "prod",
      team: "platform",
    },
    ...spokes.map((s) => ({
      name: s.name,
      role: "spoke" as const,
      eks: { name: s.name, region: s.region, accountId: s.accountId, arn: eksArn(s) },
      gitVersion: controlPlaneAt(s, 0).gitVersion,
      auth: "eks" as const,
      env: s.env,
      team: s.team,
    })),
    ...argoSpokes.map((s) => argoSpokeCluster(s, seed)),
    ...provisioned.map((s) => ({
      name: s.name,
      role: "spoke" as const,
      eks: { name: s.name, region: s.region, accountId: s.accountId, arn: eksArn(s) },
      gitVersion: gitVersionOf(s.version),
      auth: "eks" as const,
      env: s.env,
      team: s.team,
    })),
  ];

  /** Scenario change times of one spoke, relative to t0 (periodic grids are handled separately). */
  const spokeEventTimes = (spec: SpokeSpec): number[] => {
    let times = eventTimes.get(spec.name);
    if (times) return times;
    times = [];
    times.push(...appsChangeTimes(spec.name, isBadCommitSpoke(spec.index)));
    if (spec.roles.includes("helm-upgrade-stall")) times.push(...helmStallChangeTimes());
    times.push(...objectSemanticsChangeTimes(spec.index));
    if (spec.roles.includes("unreachable")) times.push(TIMELINE.unreachableFrom, TIMELINE.unreachableUntil);
    if (spec.roles.includes("not-ready-node")) times.push(NOT_READY_NODE.since, NOT_READY_NODE.until);
    if (spec.roles.includes("huge-message")) times.push(...tenantsChangeTimes());
    if (spec.roles.includes("scheduled-upgrade")) {
      times.push(
        TIMELINE.controlPlaneUpgradeStart,
        TIMELINE.controlPlaneUpgradeEnd,
        TIMELINE.nodeGroupUpgradeStart,
        TIMELINE.nodeGroupUpgradeEnd,
      );
    }
    times.sort((a, b) => a - b);
    eventTimes.set(spec.name, times);
    return times;
  };

  const spokeChanged = (spec: SpokeSpec, epoch: number, from: number, to: number): boolean => {
    const phase = epoch + tickPhase(spec.name);
    if (gridPointsIn(from, to, phase, TIMELINE.reconcileTick) > 0) return true;
    // dependency chain: retry events every 30 s; tenant-data: every 5 min
    if (spec.roles.includes("dependency-chain") && gridPointsIn(from, to, phase, 30 * SECOND) > 0) return true;
    if (spec.roles.includes("suspended") && gridPointsIn(from, to, epoch + TENANT_DATA_FAILING_SINCE, 5 * MINUTE) > 0) return true;
    for (const rel of spokeEventTimes(spec)) {
      const at = epoch + rel;
      if (at > to) break;
      if (at > from) return true;
    }
    return false;
  };

  const hubChanged = (epoch: number, from: number, to: number): boolean => {
    if (gridPointsIn(from, to, epoch, TIMELINE.classicTokenRotation) > 0) return true;
    const inWindow = (rel: number) => epoch + rel > from && epoch + rel <= to;
    return HUB_EVENT_TIMES.some(inWindow) || argoHubTimes.some(inWindow);
  };

  const facts = { ...scenarioFacts(spokes, provisioned, versions), argocd: argocdFacts(hub, spokes, argoSpokes) };

  return {
    seed,
    get epoch() {
      return epoch ?? Number.NaN;
    },
    objectsPerSpoke,
    clusters,
    spokes,
    provisionedSpokes: provisioned,
    argoSpokes,
    facts,
    hub,
    spokeSpec: (name) => byName.get(name) ?? provisionedByName.get(name),
    plan: (name) => (epoch === undefined ? undefined : planOf(name, epoch)),
    objectsAt(cluster: string, t: number, runtime: RuntimeInfo): KubeObject[] {
      const e = epochFor(t);
      if (cluster === HUB_NAME) {
        const objects = hubObjects({ hub, spokes, seed, epoch: e, t, runtime });
        objects.push(...argocdHubObjects({ hub, fluxSpokes: spokes, argoSpokes, seed, epoch: e, t, runtime }));
        objects.push(fluxReport({ seed, cluster, createdAt: e - 640 * DAY }, cluster, true, objects, gitVersionOf(hub.version)));
        return objects;
      }
      const argoSpoke = argoByName.get(cluster);
      if (argoSpoke) return argoSpokeObjects(argoSpoke, seed, e, t);
      const created = provisionedByName.get(cluster);
      if (created) return provisionedSpokeObjects(created, seed, e, t);
      const plan = planOf(cluster, t);
      if (!plan) return [];
      const objects = spokeObjects({ plan, t });
      if (hasFluxOperator(cluster, false)) {
        objects.push(
          fluxReport({ seed, cluster, createdAt: plan.createdAt }, cluster, false, objects, controlPlaneAt(plan.spec, t - e).gitVersion),
        );
      }
      return objects;
    },
    changedClusters(t0: number, t1: number): string[] {
      if (!(t1 > t0)) return [];
      const e = epochFor(t0);
      const changed: string[] = [];
      if (hubChanged(e, t0, t1)) changed.push(HUB_NAME);
      for (const spec of spokes) if (spokeChanged(spec, e, t0, t1)) changed.push(spec.name);
      for (const spec of provisioned) if (e + spec.availableAt! > t0 && e + spec.availableAt! <= t1) changed.push(spec.name);
      return changed;
    },
    conditionsAt(cluster: string, t: number): ClusterConditions {
      const created = provisionedByName.get(cluster);
      // Nothing answers before AWS reports the cluster ACTIVE.
      if (created) return { unreachable: t - epochFor(t) < created.availableAt!, gitVersion: gitVersionOf(created.version) };
      const spec = byName.get(cluster);
      if (!spec) return { unreachable: false, gitVersion: gitVersionOf(hub.version) };
      const rel = t - epochFor(t);
      const unreachable = spec.roles.includes("unreachable") && rel >= TIMELINE.unreachableFrom && rel < TIMELINE.unreachableUntil;
      return { unreachable, gitVersion: controlPlaneAt(spec, rel).gitVersion };
    },
  };
}

function scenarioFacts(spokes: SpokeSpec[], provisioned: SpokeSpec[], versions: FleetVersions): Omit<ScenarioFacts, "argocd"> {
  const at = (i: number) => spokes[i]?.name;
  const facts: Omit<ScenarioFacts, "argocd"> = {
    versions,
    reference: at(ROLE_INDEX.reference),
    badCommit: {
      kustomization: "apps",
      namespace: "flux-system",
      clusters: spokes.filter((s) => s.roles.includes("bad-commit")).map((s) => s.name),
    },
    labelOnly: spokes.filter((s) => s.provisioning === "label").map((s) => s.name),
    eksOnly: spokes.filter((s) => s.provisioning === "eks-only").map((s) => s.name),
    crossplaneOnly: spokes.filter((s) => !s.hubFluxRef && s.provisioning !== "label" && s.provisioning !== "eks-only").map((s) => s.name),
    provisioning: {
      creating: PROVISIONING_CLUSTERS.creating.name,
      creatingUpjet: PROVISIONING_CLUSTERS.creatingUpjet.name,
      failing: PROVISIONING_CLUSTERS.failing.name,
      availableAt: Object.fromEntries(provisioned.map((s) => [s.name, s.availableAt!])),
    },
  };
  if (at(ROLE_INDEX.noEksAccess)) facts.noEksAccess = { cluster: at(ROLE_INDEX.noEksAccess)! };
  if (at(ROLE_INDEX.notReadyNode))
    facts.notReadyNode = {
      cluster: at(ROLE_INDEX.notReadyNode)!,
      nodegroup: "system",
      since: NOT_READY_NODE.since,
      until: NOT_READY_NODE.until,
    };
  const hubToSpoke = spokes.find((s) => s.hubFluxRef && s.index % 4 === 0);
  if (hubToSpoke)
    facts.hubToSpoke = {
      hub: HUB_NAME,
      kind: "HelmRelease",
      namespace: "flux-system",
      name: `monitoring-agent-${hubToSpoke.name}`,
      spoke: hubToSpoke.name,
    };
  if (at(ROLE_INDEX.helmUpgradeStall)) {
    facts.helmUpgradeStall = {
      cluster: at(ROLE_INDEX.helmUpgradeStall)!,
      namespace: "monitoring",
      name: "kube-prometheus-stack",
      from: "77.14.0",
      to: "79.5.0",
    };
  }
  if (at(ROLE_INDEX.dependencyChain)) {
    facts.dependencyChain = {
      cluster: at(ROLE_INDEX.dependencyChain)!,
      root: "flux-system/infra-controllers",
      followers: ["flux-system/infra-configs", "flux-system/apps"],
    };
  }
  if (at(ROLE_INDEX.suspended)) {
    facts.suspended = { cluster: at(ROLE_INDEX.suspended)!, kind: "HelmRelease", namespace: "podinfo", name: "podinfo" };
    facts.gitAuthFailure = { cluster: at(ROLE_INDEX.suspended)!, name: "flux-system/tenant-data" };
  }
  if (at(ROLE_INDEX.extendedSupport))
    facts.extendedSupport = { cluster: at(ROLE_INDEX.extendedSupport)!, version: versions.extendedSupport };
  if (at(ROLE_INDEX.removedApi))
    facts.removedApi = {
      cluster: at(ROLE_INDEX.removedApi)!,
      ...versions.removedApi,
      apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
      objects: ["FlowSchema platform-batch-jobs", "PriorityLevelConfiguration platform-batch"],
    };
  const skew = versions.nodeGroupSkew;
  if (at(ROLE_INDEX.nodeGroupSkew))
    facts.nodeGroupSkew = {
      cluster: at(ROLE_INDEX.nodeGroupSkew)!,
      controlPlane: skew.controlPlane,
      nodegroup: "batch",
      nodegroupVersion: skew.nodegroup,
    };
  if (at(ROLE_INDEX.scheduledUpgrade)) facts.scheduledUpgrade = { cluster: at(ROLE_INDEX.scheduledUpgrade)!, ...versions.scheduledUpgrade };
  if (at(ROLE_INDEX.unreachable)) facts.unreachable = { cluster: at(ROLE_INDEX.unreachable)! };
  const old = at(ROLE_INDEX.pastExtendedSupport);
  if (old) {
    const info = eksVersion(versions.pastExtendedSupport);
    facts.pastExtendedSupport = {
      cluster: old,
      version: info.version,
      endOfExtendedSupport: new Date(info.endOfExtendedSupport).toISOString().slice(0, 10),
    };
    facts.failedInstall = { cluster: old, namespace: "kube-system", name: "metrics-server", chart: "metrics-server" };
    facts.dualSourceChart = {
      chart: "podinfo",
      ociCluster: old,
      ociUrl: PODINFO_OCI.url,
      httpsUrl: HELM_ADDONS.find((a) => a.name === "podinfo")!.source.url,
    };
  }
  if (at(ROLE_INDEX.expiredToken)) facts.expiredToken = { cluster: at(ROLE_INDEX.expiredToken)! };
  if (at(ROLE_INDEX.hugeMessage)) facts.hugeMessage = { cluster: at(ROLE_INDEX.hugeMessage)!, namespace: "flux-system", name: "tenants" };
  return facts;
}
