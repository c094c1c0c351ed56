// Everything a spoke cluster holds at a simulated time: namespaces, nodes, cluster-info, and the Flux objects
// (sources, Kustomizations, HelmReleases, generated HelmCharts) with the Events of the failing ones.
import { fluxNamespaceLabels } from "./flux-report";
import type { KubeObject } from "../contract";
import { APP_SERVICES, HELM_ADDONS, eksVersion, type HelmAddon } from "./catalogue";
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
  ociDigest,
  ociRepository,
  type Condition,
  type HelmSnapshot,
  type KsHistoryEpisode,
  type ObjectIdentity,
} from "./flux";
import { tenantsObjects } from "./huge-message";
import { goDuration, hex, iso, unit } from "./random";
import {
  APPS_COMMITS,
  DAY,
  HOUR,
  MINUTE,
  SECOND,
  TIMELINE,
  appsFetchDelay,
  appsSourceInterval,
  gridPointsIn,
  lastGridPoint,
  tickPhase,
  type Commit,
} from "./timeline";
import { addonSource, extraInventory, failedInstall, failsToInstall, ociHelmRepository } from "./old-cluster";
import type { SpokeSpec } from "./topology";
import { helmStall } from "./helm-stall";
import { applyNodeScenarios } from "./node-scenarios";
import { applyObjectSemantics } from "./object-semantics";
import { controlPlaneAt, managedAddonsAt, nodeNames, nodegroupsAt } from "./versions";

export const GIT_ORG = "https://github.com/acme-platform";
/** The tenant-data Git source fails authentication since this long before t0 (relative ms). */
export const TENANT_DATA_FAILING_SINCE = -2 * HOUR - 7 * MINUTE;
/** Minimum Flux objects per spoke: two Git sources and four Kustomizations. */
export const CORE_FLUX_OBJECTS = 6;
/** Kustomizations/HelmReleases/Events are kept this long after their last occurrence (kube-apiserver --event-ttl). */
const EVENT_TTL = HOUR;

export interface AddonChoice {
  addon: HelmAddon;
  /** index into addon.versions of what runs now */
  versionIndex: number;
  releaseVersion: number;
  installedAt: number;
}

export interface AppKustomization {
  name: string;
  service: string;
  generation: number;
  healthMs: number;
  inventory: { id: string; v: string }[];
}

export interface SpokePlan {
  spec: SpokeSpec;
  seed: number;
  epoch: number;
  createdAt: number;
  addons: AddonChoice[];
  helmRepositories: string[];
  appKustomizations: AppKustomization[];
  tenantDataFailure: boolean;
}

function chartVersionIndex(seed: number, cluster: string, addon: string): number {
  const u = unit(`${seed}:chart:${cluster}:${addon}`);
  if (u < 0.5) return 0;
  if (u < 0.75) return 1;
  if (u < 0.9) return 2;
  return 3;
}

export function planSpoke(spec: SpokeSpec, objectsPerSpoke: number, seed: number, epoch: number): SpokePlan {
  const createdAt = epoch - Math.floor((60 + unit(`created:${spec.name}`) * 500) * DAY);
  let budget = Math.max(objectsPerSpoke, CORE_FLUX_OBJECTS) - CORE_FLUX_OBJECTS;
  const tenantDataFailure = spec.roles.includes("suspended") && budget >= 2;
  if (tenantDataFailure) budget -= 2;
  const addons: AddonChoice[] = [];
  const helmRepositories: string[] = [];
  for (const addon of HELM_ADDONS) {
    const isOci = addon.source.kind === "OCIRepository";
    const cost = isOci ? 2 : 2 + (helmRepositories.includes(addon.source.name) ? 0 : 1);
    if (cost > budget) break;
    budget -= cost;
    if (!isOci && !helmRepositories.includes(addon.source.name)) helmRepositories.push(addon.source.name);
    let versionIndex = chartVersionIndex(seed, spec.name, addon.name);
    if (spec.roles.includes("helm-upgrade-stall") && addon.name === "kube-prometheus-stack") versionIndex = 2;
    addons.push({
      addon,
      versionIndex,
      releaseVersion: 2 + Math.floor(unit(`${seed}:release:${spec.name}:${addon.name}`) * 9),
      installedAt: epoch - Math.floor((1 + unit(`${seed}:installed:${spec.name}:${addon.name}`) * 40) * DAY),
    });
  }
  const appKustomizations: AppKustomization[] = [];
  for (let i = 0; i < budget; i++) {
    const service = APP_SERVICES[i % APP_SERVICES.length];
    const round = Math.floor(i / APP_SERVICES.length);
    const name = round === 0 ? `app-${service}` : `app-${service}-${round + 1}`;
    appKustomizations.push({
      name,
      service,
      generation: 1 + Math.floor(unit(`gen:${spec.name}:${name}`) * 4),
      healthMs: 4_000 + Math.floor(unit(`ah:${spec.name}:${name}`) * 30_000),
      inventory: [
        inv(service, service, "apps", "Deployment", "v1"),
        inv(service, service, "", "Service", "v1"),
        inv(service, `${service}-config`, "", "ConfigMap", "v1"),
      ],
    });
  }
  return { spec, seed, epoch, createdAt, addons, helmRepositories, appKustomizations, tenantDataFailure };
}

// ---------------------------------------------------------------------------------------------------
// Revisions of the Git sources

const infraRevision = (seed: number, env: string) => gitRevision("main", hex(`${seed}:fleet-infra:${env}`, 40));
const brokenInfraRevision = (seed: number, cluster: string) => gitRevision("main", hex(`${seed}:fleet-infra:broken:${cluster}`, 40));
export const appsRevision = (seed: number, commit: Commit["id"]) => gitRevision("main", hex(`${seed}:fleet-apps:${commit}`, 40));

interface Arrival extends Commit {
  arrive: number;
}

function appsArrivals(cluster: string): Arrival[] {
  const delay = appsFetchDelay(cluster);
  return APPS_COMMITS.map((c) => ({ ...c, arrive: c.at + delay }));
}

function currentArrival(arrivals: Arrival[], rel: number): { current: Arrival; index: number } {
  let index = 0;
  for (let i = 0; i < arrivals.length; i++) if (arrivals[i].arrive <= rel) index = i;
  return { current: arrivals[index], index };
}

// ---------------------------------------------------------------------------------------------------
// Inventories

const inv = (namespace: string, name: string, group: string, kind: string, v: string) => ({
  id: `${namespace}_${name}_${group}_${kind}`,
  v,
});

function servicesOf(plan: SpokePlan): string[] {
  const picks = APP_SERVICES.filter((s) => s !== "checkout" && unit(`${plan.seed}:svc:${plan.spec.name}:${s}`) < 0.2).slice(0, 4);
  return plan.spec.roles.includes("bad-commit") ? ["checkout", ...picks] : picks.length ? picks : ["catalog"];
}

function appsInventory(plan: SpokePlan) {
  const entries = [];
  for (const svc of servicesOf(plan)) {
    entries.push(inv("", svc, "", "Namespace", "v1"));
    entries.push(inv(svc, `${svc}-api`, "", "Service", "v1"));
    entries.push(inv(svc, `${svc}-api`, "apps", "Deployment", "v1"));
    entries.push(inv(svc, `${svc}-api`, "autoscaling", "HorizontalPodAutoscaler", "v2"));
    entries.push(inv(svc, `${svc}-api`, "networking.k8s.io", "Ingress", "v1"));
  }
  return entries;
}

/** Inventory entries with API versions later Kubernetes releases removed. */
function legacyEntries(plan: SpokePlan) {
  const entries = [];
  if (plan.spec.roles.includes("removed-api")) {
    // Still applied on 1.31; flowcontrol.apiserver.k8s.io/v1beta3 is gone in 1.32.
    entries.push(inv("", "platform-batch-jobs", "flowcontrol.apiserver.k8s.io", "FlowSchema", "v1beta3"));
    entries.push(inv("", "platform-batch", "flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration", "v1beta3"));
    entries.push(inv("", "legacy-restricted", "policy", "PodSecurityPolicy", "v1beta1"));
    entries.push(inv("kube-system", "cluster-autoscaler", "autoscaling", "HorizontalPodAutoscaler", "v2beta2"));
    entries.push(inv("ingress-nginx", "legacy-dashboard", "networking.k8s.io", "Ingress", "v1beta1"));
    entries.push(inv("kube-system", "ebs-capacity", "storage.k8s.io", "CSIStorageCapacity", "v1beta1"));
    return entries;
  }
  const u = unit(`legacy:${plan.spec.name}`);
  if (u < 0.04) entries.push(inv("", "legacy-restricted", "policy", "PodSecurityPolicy", "v1beta1"));
  else if (u < 0.08) entries.push(inv("monitoring", "grafana", "autoscaling", "HorizontalPodAutoscaler", "v2beta2"));
  else if (u < 0.1) entries.push(inv("kube-system", "ebs-capacity", "storage.k8s.io", "CSIStorageCapacity", "v1beta1"));
  else if (u < 0.12 && (plan.spec.version === "1.31" || plan.spec.version === "1.30")) {
    entries.push(inv("", "platform-batch-jobs", "flowcontrol.apiserver.k8s.io", "FlowSchema", "v1beta3"));
  }
  return entries;
}

function configsInventory(plan: SpokePlan) {
  return [
    inv("", "letsencrypt-prod", "cert-manager.io", "ClusterIssuer", "v1"),
    inv("", "default", "karpenter.sh", "NodePool", "v1"),
    inv("", "default", "karpenter.k8s.aws", "EC2NodeClass", "v1"),
    inv("", "gp3", "storage.k8s.io", "StorageClass", "v1"),
    inv("kube-system", "aws-auth-extra", "", "ConfigMap", "v1"),
    ...legacyEntries(plan),
  ];
}

function controllersInventory(plan: SpokePlan) {
  const entries = [];
  for (const repo of plan.helmRepositories) entries.push(inv(FLUX_NS, repo, "source.toolkit.fluxcd.io", "HelmRepository", "v1"));
  for (const { addon } of plan.addons) {
    entries.push(inv("", addon.namespace, "", "Namespace", "v1"));
    if (addon.source.kind === "OCIRepository")
      entries.push(inv(FLUX_NS, addon.source.name, "source.toolkit.fluxcd.io", "OCIRepository", "v1"));
    entries.push(inv(addon.namespace, addon.name, "helm.toolkit.fluxcd.io", "HelmRelease", "v2"));
  }
  // Drop namespace duplicates (several add-ons share kube-system).
  const seen = new Set<string>();
  return entries.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
}

// ---------------------------------------------------------------------------------------------------
// Kustomization state helpers

function steadyHistory(revision: string, since: number, rel: number, phase: number, durationMs: number): KsHistoryEpisode {
  const ticks = gridPointsIn(since, rel, phase, TIMELINE.reconcileTick);
  return {
    revision,
    status: "ReconciliationSucceeded",
    first: since,
    last: ticks > 0 ? lastGridPoint(rel, phase, TIMELINE.reconcileTick) : since,
    total: 1 + ticks,
    durationMs,
  };
}

function readyConditions(revision: string, at: number, gen: number, healthy: boolean, healthMs: number): Condition[] {
  const conditions = [condition("Ready", "True", "ReconciliationSucceeded", `Applied revision: ${revision}`, at, gen)];
  if (healthy) conditions.push(condition("Healthy", "True", "Succeeded", `Health check passed in ${goDuration(healthMs)}`, at, gen));
  return conditions;
}

// ---------------------------------------------------------------------------------------------------

export interface SpokeObjectsInput {
  plan: SpokePlan;
  /** absolute simulated time (epoch ms) */
  t: number;
}

export function spokeObjects({ plan, t }: SpokeObjectsInput): KubeObject[] {
  const { spec, seed, epoch } = plan;
  const rel = t - epoch;
  const abs = (r: number) => epoch + r;
  const cluster = spec.name;
  const id: ObjectIdentity = { seed, cluster, createdAt: plan.createdAt };
  const phase = tickPhase(cluster);
  const out: KubeObject[] = [];
  const events: KubeObject[] = [];
  const bootstrapAt = plan.createdAt + 20 * MINUTE;
  const fluxLabels = appliedBy("flux-system");

  // --- namespaces ----------------------------------------------------------------------------------
  const namespaces = new Set(["default", "kube-system", "kube-public", "kube-node-lease", FLUX_NS]);
  for (const { addon } of plan.addons) namespaces.add(addon.namespace);
  for (const svc of servicesOf(plan)) namespaces.add(svc);
  for (const ns of namespaces) {
    out.push({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        ...meta(id, "Namespace", undefined, ns),
        labels: { "kubernetes.io/metadata.name": ns, ...(ns === FLUX_NS ? fluxNamespaceLabels(spec.name, false) : {}) },
      },
      spec: { finalizers: ["kubernetes"] },
      status: { phase: "Active" },
    });
  }

  // --- cluster-info and secrets --------------------------------------------------------------------
  const cp = controlPlaneAt(spec, rel);
  out.push(clusterInfo(id, spec, cp.version));
  out.push(clusterSecrets(id, spec));
  out.push(gitAuthSecret(id));

  // --- nodes ----------------------------------------------------------------------------------------
  const addonsNow = managedAddonsAt(spec, rel);
  for (const ng of nodegroupsAt(spec, rel)) {
    const names = nodeNames(spec, ng, seed);
    names.forEach((name, i) => out.push(nodeObject(id, spec, ng, name, i, abs(ng.modifiedAt), addonsNow)));
  }
  applyNodeScenarios(out, spec, id, epoch, t, events);

  // --- Git sources ----------------------------------------------------------------------------------
  const depChain = spec.roles.includes("dependency-chain");
  const infraRev = infraRevision(seed, spec.env);
  const infraFetched = epoch - 2 * HOUR - Math.floor(unit(`infra-fetch:${cluster}`) * 50 * MINUTE);
  const currentInfraRev = depChain ? brokenInfraRevision(seed, cluster) : infraRev;
  const brokenSince = -TIMELINE.dependencyRootFailingFor;
  out.push(
    gitRepository({
      id,
      name: "flux-system",
      url: `${GIT_ORG}/fleet-infra`,
      branch: "main",
      interval: "1m0s",
      revision: currentInfraRev,
      fetchedAt: depChain ? abs(brokenSince - 20 * SECOND) : infraFetched,
      labels: fluxLabels,
    }),
  );

  const arrivals = appsArrivals(cluster);
  const { current: appsNow, index: appsIndex } = currentArrival(arrivals, rel);
  const appsRev = appsRevision(seed, appsNow.id);
  const appsInterval = appsSourceInterval(cluster) === MINUTE ? "1m0s" : "5m0s";
  out.push(
    gitRepository({
      id,
      name: "apps",
      url: `${GIT_ORG}/fleet-apps`,
      branch: "main",
      interval: appsInterval,
      revision: appsRev,
      fetchedAt: abs(appsNow.arrive),
      labels: fluxLabels,
    }),
  );

  // --- Kustomization flux-system ---------------------------------------------------------------------
  const fluxSystemInventory = [
    inv("", FLUX_NS, "", "Namespace", "v1"),
    inv(FLUX_NS, "apps", "source.toolkit.fluxcd.io", "GitRepository", "v1"),
    inv(FLUX_NS, "flux-system", "source.toolkit.fluxcd.io", "GitRepository", "v1"),
    inv(FLUX_NS, "apps", "kustomize.toolkit.fluxcd.io", "Kustomization", "v1"),
    inv(FLUX_NS, "flux-system", "kustomize.toolkit.fluxcd.io", "Kustomization", "v1"),
    inv(FLUX_NS, "infra-configs", "kustomize.toolkit.fluxcd.io", "Kustomization", "v1"),
    inv(FLUX_NS, "infra-controllers", "kustomize.toolkit.fluxcd.io", "Kustomization", "v1"),
    ...plan.appKustomizations.map((k) => inv(FLUX_NS, k.name, "kustomize.toolkit.fluxcd.io", "Kustomization", "v1")),
    ...(spec.roles.includes("huge-message") ? [inv(FLUX_NS, "tenants", "kustomize.toolkit.fluxcd.io", "Kustomization", "v1")] : []),
  ];
  out.push(
    kustomization({
      id,
      name: "flux-system",
      path: `./clusters/${cluster}`,
      interval: "10m0s",
      sourceRef: { kind: "GitRepository", name: "flux-system" },
      generation: 1,
      conditions: readyConditions(infraRev, infraFetched, 1, false, 0),
      reconcileRequestedAt: infraFetched - 4 * MINUTE,
      lastAppliedRevision: infraRev,
      lastAttemptedRevision: infraRev,
      inventory: fluxSystemInventory,
      history: [steadyHistory(infraRev, infraFetched, rel + epoch, phase + epoch, 2100 + Math.floor(unit(`d1:${cluster}`) * 900))],
      labels: fluxLabels,
    }),
  );

  // --- infra-controllers (root of the dependency chain) ---------------------------------------------
  const controllersGen = 3;
  const healthMs = 1500 + Math.floor(unit(`h:${cluster}`) * 20_000);
  let controllers: KubeObject;
  if (depChain) {
    const attemptTick = lastGridPoint(t, phase + epoch, 2 * MINUTE);
    const tmp = 1_000_000_000 + Math.floor(unit(`tmp:${cluster}:${attemptTick}`) * 3_000_000_000);
    const dir = `/tmp/kustomization-${tmp}/infrastructure/controllers/cert-manager`;
    const message =
      `kustomize build failed: accumulating resources: accumulation err='accumulating resources from './cert-manager': ` +
      `open ${dir}: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on ` +
      `'${dir}' : lstat ${dir}: no such file or directory`;
    const failedAt = abs(brokenSince);
    controllers = kustomization({
      id,
      name: "infra-controllers",
      path: "./infrastructure/controllers",
      interval: "1h0m0s",
      retryInterval: "2m0s",
      timeout: "5m0s",
      wait: true,
      sourceRef: { kind: "GitRepository", name: "flux-system" },
      generation: controllersGen,
      conditions: [
        condition(
          "Reconciling",
          "True",
          "ProgressingWithRetry",
          `Building manifests for revision ${currentInfraRev} with a timeout of 5m0s`,
          failedAt,
          controllersGen,
        ),
        condition("Ready", "False", "BuildFailed", message, failedAt, controllersGen),
      ],
      lastAppliedRevision: infraRev,
      lastAttemptedRevision: currentInfraRev,
      inventory: controllersInventory(plan),
      // A build failure adds no status.history entry (kustomize-controller upserts history from the apply
      // step on): the newest entry is still the last successful reconciliation.
      history: [steadyHistory(infraRev, infraFetched, failedAt, phase + epoch, 38_000)],
      labels: fluxLabels,
    });
    const first = failedAt;
    const last = attemptTick > first ? attemptTick : first;
    events.push(
      event({
        id,
        involved: controllers,
        reason: "BuildFailed",
        message,
        type: "Warning",
        controller: "kustomize-controller",
        first,
        last,
        count: 1 + Math.floor((last - first) / (2 * MINUTE)),
        revision: currentInfraRev,
      }),
    );
  } else {
    controllers = kustomization({
      id,
      name: "infra-controllers",
      path: "./infrastructure/controllers",
      interval: "1h0m0s",
      retryInterval: "2m0s",
      timeout: "5m0s",
      wait: true,
      sourceRef: { kind: "GitRepository", name: "flux-system" },
      generation: controllersGen,
      conditions: readyConditions(infraRev, infraFetched + 40 * SECOND, controllersGen, true, 35_000 + healthMs),
      lastAppliedRevision: infraRev,
      lastAttemptedRevision: infraRev,
      inventory: controllersInventory(plan),
      history: [steadyHistory(infraRev, infraFetched + 40 * SECOND, t, phase + epoch, 36_000 + healthMs)],
      labels: fluxLabels,
    });
  }
  out.push(controllers);

  // --- infra-configs ------------------------------------------------------------------------------------
  const depNotReady = (dependency: string) => `dependency '${FLUX_NS}/${dependency}' is not ready`;
  const pushDependencyEvent = (involved: KubeObject, dependency: string, since: number) => {
    const last = lastGridPoint(t, phase + epoch, 30 * SECOND);
    if (t - last > EVENT_TTL) return;
    events.push(
      event({
        id,
        involved,
        reason: "DependencyNotReady",
        message: `Dependencies do not meet ready condition (dependency '${FLUX_NS}/${dependency}' is not ready), retrying in 30s`,
        type: "Normal",
        controller: "kustomize-controller",
        first: since,
        last: Math.max(since, last),
        count: 1 + Math.floor((Math.max(since, last) - since) / (30 * SECOND)),
      }),
    );
  };

  const configsGen = 2;
  const configsAppliedAt = infraFetched + 95 * SECOND;
  const configs = kustomization({
    id,
    name: "infra-configs",
    path: "./infrastructure/configs",
    interval: "1h0m0s",
    retryInterval: "2m0s",
    timeout: "5m0s",
    wait: true,
    substituteFrom: true,
    dependsOn: ["infra-controllers"],
    sourceRef: { kind: "GitRepository", name: "flux-system" },
    generation: configsGen,
    conditions: depChain
      ? [condition("Ready", "False", "DependencyNotReady", depNotReady("infra-controllers"), abs(brokenSince + 4 * SECOND), configsGen)]
      : readyConditions(infraRev, configsAppliedAt, configsGen, true, 2_000 + healthMs / 10),
    lastAppliedRevision: infraRev,
    lastAttemptedRevision: infraRev,
    inventory: configsInventory(plan),
    history: [steadyHistory(infraRev, configsAppliedAt, depChain ? abs(brokenSince) : t, phase + epoch, 2_400)],
    labels: fluxLabels,
  });
  out.push(configs);
  if (depChain) pushDependencyEvent(configs, "infra-controllers", abs(brokenSince + 4 * SECOND));

  // --- apps (the bad-commit scenario) -----------------------------------------------------------------
  out.push(...appsKustomization(plan, t, arrivals, appsIndex, events, pushDependencyEvent));

  // --- app-* Kustomizations ---------------------------------------------------------------------------
  const appHistory = appKsHistory(plan, arrivals, appsIndex, t, phase, depChain);
  const appReadyAt = abs(appsNow.arrive + 3 * SECOND);
  for (const app of plan.appKustomizations) {
    const { name, service: svc, generation: gen } = app;
    // They follow main like `apps` but the bad commit does not touch them.
    const ks = kustomization({
      id,
      name,
      path: `./services/${svc}/overlays/${spec.env}`,
      interval: "10m0s",
      timeout: "3m0s",
      wait: true,
      substituteFrom: true,
      targetNamespace: svc,
      dependsOn: ["infra-configs"],
      sourceRef: { kind: "GitRepository", name: "apps" },
      generation: gen,
      conditions: depChain
        ? [condition("Ready", "False", "DependencyNotReady", depNotReady("infra-configs"), abs(brokenSince + 9 * SECOND), gen)]
        : readyConditions(appsRev, appReadyAt, gen, true, app.healthMs),
      lastAppliedRevision: depChain ? appsRevision(seed, "base") : appsRev,
      lastAttemptedRevision: depChain ? appsRevision(seed, "base") : appsRev,
      inventory: app.inventory,
      history: appHistory,
      labels: fluxLabels,
    });
    out.push(ks);
    if (depChain) pushDependencyEvent(ks, "infra-configs", abs(brokenSince + 9 * SECOND));
  }

  // --- tenants: a health check on hundreds of resources (huge-message.ts) ------------------------------
  if (spec.roles.includes("huge-message")) out.push(...tenantsObjects({ id, epoch, t, revision: infraRev }));

  // --- tenant-data: a Git source failing authentication ------------------------------------------------
  if (plan.tenantDataFailure) {
    const since = abs(TENANT_DATA_FAILING_SINCE);
    const url = `${GIT_ORG}/tenant-data`;
    const gitMessage =
      `failed to checkout and determine revision: unable to list remote for '${url}': authentication required: ` +
      `Invalid username or token. Password authentication is not supported for Git operations.`;
    const repo = gitRepository({
      id,
      name: "tenant-data",
      url,
      branch: "main",
      interval: "5m0s",
      fetchedAt: since,
      failure: { reason: "GitOperationFailed", message: gitMessage, since },
      labels: fluxLabels,
    });
    out.push(repo);
    const ks = kustomization({
      id,
      name: "tenant-data",
      path: "./deploy",
      interval: "10m0s",
      sourceRef: { kind: "GitRepository", name: "tenant-data" },
      generation: 1,
      conditions: [condition("Ready", "False", "ArtifactFailed", "Source artifact not found, retrying in 30s", since + 2 * SECOND, 1)],
      inventory: [],
      history: [],
      labels: fluxLabels,
    });
    out.push(ks);
    const last = lastGridPoint(t, since, 5 * MINUTE);
    events.push(
      event({
        id,
        involved: repo,
        reason: "GitOperationFailed",
        message: gitMessage,
        type: "Warning",
        controller: "source-controller",
        first: Math.max(since, last - 55 * MINUTE),
        last,
        count: 1 + Math.floor((last - since) / (5 * MINUTE)),
      }),
    );
  }

  // --- Helm add-ons ---------------------------------------------------------------------------------
  for (const repo of plan.helmRepositories) {
    const addon = plan.addons.find((a) => a.addon.source.name === repo)!.addon;
    const source = addonSource(plan.spec, addon);
    if (source.type === "oci") {
      out.push(ociHelmRepository(id, source, appliedBy("infra-controllers")));
      continue;
    }
    out.push(
      helmRepository({
        id,
        name: repo,
        url: addon.source.url,
        interval: "24h0m0s",
        fetchedAt: lastGridPoint(epoch - 2 * HOUR, bootstrapAt, DAY),
        labels: appliedBy("infra-controllers"),
      }),
    );
  }
  for (const choice of plan.addons) {
    out.push(...addonObjects(plan, choice, t, events));
  }
  applyObjectSemantics(plan, t, out, events);

  return out.concat(events);
}

function appKsHistory(
  plan: SpokePlan,
  arrivals: Arrival[],
  appsIndex: number,
  t: number,
  phase: number,
  depChain: boolean,
): KsHistoryEpisode[] {
  const { epoch } = plan;
  if (depChain) {
    const base = arrivals[0];
    return [
      steadyHistory(
        appsRevision(plan.seed, "base"),
        epoch + base.arrive + 3 * SECOND,
        epoch - TIMELINE.dependencyRootFailingFor,
        phase + epoch,
        3_100,
      ),
    ];
  }
  const episodes: KsHistoryEpisode[] = [];
  for (let i = 0; i <= appsIndex; i++) {
    const start = epoch + arrivals[i].arrive + 3 * SECOND;
    const end = i < appsIndex ? epoch + arrivals[i + 1].arrive : t;
    episodes.push(steadyHistory(appsRevision(plan.seed, arrivals[i].id), start, Math.max(start, end), phase + epoch, 2_800));
  }
  return episodes.reverse();
}

function appsKustomization(
  plan: SpokePlan,
  t: number,
  arrivals: Arrival[],
  appsIndex: number,
  events: KubeObject[],
  pushDependencyEvent: (involved: KubeObject, dependency: string, since: number) => void,
): KubeObject[] {
  const { spec, seed, epoch } = plan;
  const cluster = spec.name;
  const id: ObjectIdentity = { seed, cluster, createdAt: plan.createdAt };
  const phase = tickPhase(cluster) + epoch;
  const gen = 4;
  const affected = spec.roles.includes("bad-commit");
  const depChain = spec.roles.includes("dependency-chain");
  const timeoutMs = TIMELINE.appsHealthTimeout;
  const healthJitter = healthJitterOf(cluster);
  const failMessage = `health check failed after ${goDuration(timeoutMs + healthJitter)}: timeout waiting for: [Deployment/checkout/checkout-api status: 'InProgress']`;
  const base = {
    id,
    name: "apps",
    path: `./apps/${spec.env}`,
    interval: "10m0s",
    retryInterval: "2m0s",
    timeout: "2m0s",
    wait: true,
    substituteFrom: true,
    dependsOn: ["infra-configs"],
    sourceRef: { kind: "GitRepository" as const, name: "apps" },
    generation: gen,
    inventory: appsInventory(plan),
    labels: appliedBy("flux-system"),
  };

  if (depChain) {
    const since = epoch - TIMELINE.dependencyRootFailingFor + 7 * SECOND;
    const baseRev = appsRevision(seed, "base");
    const ks = kustomization({
      ...base,
      conditions: [condition("Ready", "False", "DependencyNotReady", `dependency '${FLUX_NS}/infra-configs' is not ready`, since, gen)],
      lastAppliedRevision: baseRev,
      lastAttemptedRevision: baseRev,
      history: [steadyHistory(baseRev, epoch + arrivals[0].arrive + 30 * SECOND, since, phase, 31_000)],
    });
    pushDependencyEvent(ks, "infra-configs", since);
    return [ks];
  }

  // Build the episodes (applied revision, outcome) from the commits that have arrived so far.
  const episodes: KsHistoryEpisode[] = [];
  let lastApplied = appsRevision(seed, "base");
  let lastGoodAt = epoch + arrivals[0].arrive + 30 * SECOND;
  const failures: { first: number; last: number; count: number; revision: string }[] = [];
  let state: "ready" | "progressing" | "failed" = "ready";
  let stateSince = lastGoodAt;
  let progressingRevision = lastApplied;
  for (let i = 0; i <= appsIndex; i++) {
    const a = arrivals[i];
    const rev = appsRevision(seed, a.id);
    const start = epoch + a.arrive;
    const end = i < appsIndex ? epoch + arrivals[i + 1].arrive : t;
    if (affected && a.broken) {
      const failAt = start + timeoutMs + healthJitter;
      if (failAt <= end && failAt <= t) {
        const retries = Math.floor((Math.min(end, t) - failAt) / APPS_RETRY_PERIOD);
        const last = failAt + retries * APPS_RETRY_PERIOD;
        episodes.push({
          revision: rev,
          status: "HealthCheckFailed",
          first: failAt,
          last,
          total: 1 + retries,
          durationMs: timeoutMs + healthJitter + 900,
        });
        failures.push({ first: failAt, last, count: 1 + retries, revision: rev });
        if (i === appsIndex) {
          state = "failed";
          stateSince = failAt;
        }
      } else if (i === appsIndex) {
        state = "progressing";
        stateSince = start;
        progressingRevision = rev;
      }
    } else {
      const readyAt = affected && i > 0 && arrivals[i - 1].broken ? start + TIMELINE.appsHealthPass : start + 30 * SECOND;
      if (i === 0) {
        episodes.push(steadyHistory(rev, lastGoodAt, Math.max(lastGoodAt, end), phase, 31_000));
      } else if (readyAt <= t) {
        episodes.push(steadyHistory(rev, readyAt, Math.max(readyAt, end), phase, readyAt - start));
        lastApplied = rev;
        lastGoodAt = readyAt;
        if (i === appsIndex) {
          state = "ready";
          stateSince = readyAt;
        }
      } else if (i === appsIndex) {
        state = "progressing";
        stateSince = start;
        progressingRevision = rev;
      }
    }
  }

  const current = appsRevision(seed, arrivals[appsIndex].id);
  let conditions: Condition[];
  if (state === "ready") {
    conditions = readyConditions(lastApplied, stateSince, gen, true, affected && appsIndex > 0 ? TIMELINE.appsHealthPass - 600 : 27_000);
  } else if (state === "progressing") {
    const msg = `Running health checks for revision ${progressingRevision} with a timeout of 2m0s`;
    conditions = [
      condition("Reconciling", "True", "Progressing", msg, stateSince, gen),
      condition("Ready", "Unknown", "Progressing", "Reconciliation in progress", stateSince, gen),
      condition("Healthy", "Unknown", "Progressing", msg, stateSince, gen),
    ];
  } else {
    conditions = [
      condition(
        "Reconciling",
        "True",
        "ProgressingWithRetry",
        `Running health checks for revision ${current} with a timeout of 2m0s`,
        stateSince,
        gen,
      ),
      condition("Ready", "False", "HealthCheckFailed", failMessage, stateSince, gen),
      condition("Healthy", "False", "HealthCheckFailed", failMessage, stateSince, gen),
    ];
  }

  const ks = kustomization({
    ...base,
    conditions,
    lastAppliedRevision: lastApplied,
    lastAttemptedRevision: state === "ready" ? lastApplied : current,
    history: episodes.reverse(),
  });
  if (failures.length) {
    const first = failures[0].first;
    const last = failures[failures.length - 1].last;
    if (t - last <= EVENT_TTL) {
      events.push(
        event({
          id,
          involved: ks,
          reason: "HealthCheckFailed",
          message: failMessage,
          type: "Warning",
          controller: "kustomize-controller",
          first,
          last,
          count: failures.reduce((n, f) => n + f.count, 0),
          revision: failures[failures.length - 1].revision,
        }),
      );
    }
  }
  return [ks];
}

const APPS_RETRY_PERIOD = TIMELINE.appsHealthTimeout + 2 * MINUTE;

/** Milliseconds a spoke's health check overruns its timeout (differs per cluster, like real durations). */
function healthJitterOf(cluster: string): number {
  return 20 + Math.floor(unit(`hc:${cluster}`) * 70);
}

/** Every instant (relative to t0) at which a spoke's `apps`/`app-*` objects or their Events change. */
export function appsChangeTimes(cluster: string, affected: boolean): number[] {
  const arrivals = appsArrivals(cluster);
  const times: number[] = [];
  let lastFailure: number | undefined;
  arrivals.forEach((a, i) => {
    times.push(a.arrive, a.arrive + 3 * SECOND, a.arrive + 30 * SECOND, a.arrive + TIMELINE.appsHealthPass);
    if (!affected || !a.broken) return;
    const end = i + 1 < arrivals.length ? arrivals[i + 1].arrive : Number.POSITIVE_INFINITY;
    for (
      let at = a.arrive + TIMELINE.appsHealthTimeout + healthJitterOf(cluster);
      at <= end && at < a.arrive + DAY;
      at += APPS_RETRY_PERIOD
    ) {
      times.push(at);
      lastFailure = at;
    }
  });
  if (lastFailure !== undefined) times.push(lastFailure + EVENT_TTL + 1);
  return times;
}

// ---------------------------------------------------------------------------------------------------
// Helm add-ons

function addonObjects(plan: SpokePlan, choice: AddonChoice, t: number, events: KubeObject[]): KubeObject[] {
  const { spec, seed, epoch } = plan;
  const cluster = spec.name;
  const id: ObjectIdentity = { seed, cluster, createdAt: plan.createdAt };
  const { addon } = choice;
  const out: KubeObject[] = [];
  const labels = appliedBy("infra-controllers");
  const stall = spec.roles.includes("helm-upgrade-stall") && addon.name === "kube-prometheus-stack";
  const suspended = spec.roles.includes("suspended") && addon.name === "podinfo";
  const rel = t - epoch;
  const bumped = stall && rel >= TIMELINE.helmUpgradeStart;
  const vi = bumped ? 0 : choice.versionIndex;
  const version = addon.versions[vi];
  const appVersion = addon.appVersions[vi];
  const baseGen = 2 + Math.floor(unit(`hrgen:${cluster}:${addon.name}`) * 3);
  const gen = bumped ? baseGen + 1 : baseGen;
  const isOci = addon.source.kind === "OCIRepository";
  const fullVersion = (v: string) => (isOci ? `${v}+${ociDigest(id, addon.source.url, v).slice(0, 12)}` : v);
  const ociDigestOf = (v: string) => (isOci ? `sha256:${ociDigest(id, addon.source.url, v)}` : undefined);

  if (isOci) {
    out.push(
      ociRepository({
        id,
        name: addon.source.name,
        url: addon.source.url,
        tag: version,
        interval: "12h0m0s",
        fetchedAt: choice.installedAt - 30 * SECOND,
        generation: baseGen,
        labels,
      }),
    );
  } else {
    out.push(
      helmChart({
        id,
        releaseNamespace: addon.namespace,
        releaseName: addon.name,
        chart: addon.chart,
        version,
        repository: addon.source.name,
        interval: "12h0m0s",
        pulledAt: bumped ? epoch + TIMELINE.helmUpgradeStart - 5 * SECOND : choice.installedAt - 20 * SECOND,
        generation: bumped ? 2 : 1,
        ociSource: addonSource(spec, addon).type === "oci",
      }),
    );
  }

  // Release history: the current release plus the one it superseded.
  const prevIndex = Math.min(choice.versionIndex + 1, addon.versions.length - 1);
  const installed: HelmSnapshot = {
    version: choice.releaseVersion,
    status: "deployed",
    chartName: addon.chart,
    chartVersion: fullVersion(addon.versions[choice.versionIndex]),
    appVersion: addon.appVersions[choice.versionIndex],
    firstDeployed: choice.installedAt,
    lastDeployed: choice.installedAt,
    action: "upgrade",
    ociDigest: ociDigestOf(addon.versions[choice.versionIndex]),
  };
  const previous: HelmSnapshot = {
    version: choice.releaseVersion - 1,
    status: "superseded",
    chartName: addon.chart,
    chartVersion: fullVersion(addon.versions[prevIndex]),
    appVersion: addon.appVersions[prevIndex],
    firstDeployed: choice.installedAt - 23 * DAY,
    lastDeployed: choice.installedAt - 23 * DAY,
    action: choice.releaseVersion - 1 === 1 ? "install" : "upgrade",
    ociDigest: ociDigestOf(addon.versions[prevIndex]),
  };
  const releaseRef = (v: number) => `${addon.namespace}/${addon.name}.v${v}`;
  const okMessage = `Helm upgrade succeeded for release ${releaseRef(choice.releaseVersion)} with chart ${addon.chart}@${installed.chartVersion}`;
  let conditions: Condition[] = [
    condition("Ready", "True", "UpgradeSucceeded", okMessage, choice.installedAt, baseGen),
    condition("Released", "True", "UpgradeSucceeded", okMessage, choice.installedAt, baseGen),
  ];
  let history: HelmSnapshot[] = [installed, previous];
  let failures = 0;
  let lastAttempted = installed.chartVersion;
  let lastAttemptedGeneration = baseGen;

  if (bumped) {
    // Attempts, rollbacks and the stall as helm-controller writes them (helm-stall.ts).
    const stall = helmStall({
      id,
      epoch,
      rel,
      namespace: addon.namespace,
      name: addon.name,
      chart: addon.chart,
      deployed: installed,
      superseded: previous,
      target: { version, appVersion },
      gen,
      baseGen,
      okMessage,
      installedAt: choice.installedAt,
    });
    conditions = stall.conditions;
    history = stall.history;
    failures = stall.failures;
    lastAttempted = version;
    lastAttemptedGeneration = gen;
    events.push(...stall.events);
  }

  let installFailures = 0;
  let installRetries: number | undefined;
  let action: "install" | "upgrade" = "upgrade";
  if (failsToInstall(spec, addon)) {
    const f = failedInstall(addon, version, appVersion, epoch, gen);
    ({ conditions, history, lastAttemptedRevision: lastAttempted, failures, installFailures, installRetries } = f);
    action = "install";
  }

  const dependsOn = (addon.dependsOn ?? [])
    .filter((d) => plan.addons.some((a) => a.addon.name === d))
    .map((d) => ({ name: d, namespace: HELM_ADDONS.find((a) => a.name === d)!.namespace }));
  out.push(
    helmRelease({
      id,
      name: addon.name,
      namespace: addon.namespace,
      chart: addon.chart,
      version,
      source: { kind: addon.source.kind, name: addon.source.name },
      interval: addon.name === "podinfo" ? "5m0s" : "30m0s",
      generation: gen,
      dependsOn,
      suspend: suspended,
      values: addonValues(addon, spec),
      labels,
      conditions,
      history,
      lastAttemptedRevision: lastAttempted,
      lastAttemptedReleaseAction: action,
      lastAttemptedGeneration,
      failures,
      installFailures,
      installRetries,
      upgradeFailures: action === "upgrade" ? failures : 0,
      inventory: [
        inv(addon.namespace, addon.workload.name, "apps", addon.workload.kind, "v1"),
        inv(addon.namespace, addon.workload.name, "", "ServiceAccount", "v1"),
        inv(addon.namespace, addon.workload.name, "", "Service", "v1"),
        ...extraInventory(spec, addon),
      ],
    }),
  );
  return out;
}

function addonValues(addon: HelmAddon, spec: SpokeSpec): Record<string, unknown> | undefined {
  switch (addon.name) {
    case "karpenter":
      return { settings: { clusterName: spec.name, interruptionQueue: `Karpenter-${spec.name}` } };
    case "aws-load-balancer-controller":
      return { clusterName: spec.name, region: spec.region };
    case "external-dns":
      return { provider: { name: "aws" }, txtOwnerId: spec.name, policy: "sync" };
    case "cert-manager":
      return { crds: { enabled: true } };
    case "podinfo":
      return { replicaCount: 2, ui: { message: `Hello from ${spec.name}` } };
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Core objects

export function clusterInfo(id: ObjectIdentity, spec: SpokeSpec, version: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { ...meta(id, "ConfigMap", FLUX_NS, "cluster-info"), labels: appliedBy("flux-system") },
    data: {
      account_id: spec.accountId,
      cluster_name: spec.name,
      environment: spec.env,
      region: spec.region,
      team: spec.team,
      kubernetes_version: version,
    },
  };
}

export function clusterSecrets(id: ObjectIdentity, spec: SpokeSpec): KubeObject {
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  return {
    apiVersion: "v1",
    kind: "Secret",
    type: "Opaque",
    metadata: { ...meta(id, "Secret", FLUX_NS, "cluster-secrets"), labels: appliedBy("flux-system") },
    data: {
      datadog_api_key: b64(hex(`dd:${id.seed}:${spec.name}`, 32)),
      grafana_admin_password: b64(hex(`gf:${id.seed}:${spec.name}`, 24)),
      slack_webhook_url: b64(`https://hooks.slack.com/services/T000SIM/B000SIM/${hex(`slack:${id.seed}`, 24)}`),
    },
  };
}

export function gitAuthSecret(id: ObjectIdentity): KubeObject {
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  return {
    apiVersion: "v1",
    kind: "Secret",
    type: "Opaque",
    metadata: meta(id, "Secret", FLUX_NS, "flux-system"),
    data: { username: b64("git"), password: b64(`ghp_sim${hex(`gh:${id.seed}:${id.cluster}`, 33)}`) },
  };
}

/**
 * A Node as an EKS managed node group's kubelet registers it (labels, annotations and status as a real
 * EKS 1.31 node serves them); `addons` are the cluster's EKS add-ons, whose images every node holds.
 */
export function nodeObject(
  id: ObjectIdentity,
  spec: SpokeSpec,
  ng: ReturnType<typeof nodegroupsAt>[number],
  name: string,
  index: number,
  launchedAt: number,
  addons: readonly { name: string; version: string }[] = [],
): KubeObject {
  const zone = `${spec.region}${"abc"[index % 3]}`;
  const kubelet = `v${eksVersion(ng.version).patch}-eks-${hex(`kubelet:${ng.version}`, 7)}`;
  const instanceId = `i-0${hex(`${id.seed}:instance:${name}`, 16)}`;
  const ip = name.split(".")[0].replace(/^ip-/, "").replace(/-/g, ".");
  const created = Math.max(id.createdAt, launchedAt - index * 45 * SECOND);
  const regionCode = zoneIdPrefix(spec.region);
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      ...meta({ ...id, createdAt: created }, "Node", undefined, name),
      labels: {
        "beta.kubernetes.io/arch": ng.arch,
        "beta.kubernetes.io/instance-type": ng.instanceType,
        "beta.kubernetes.io/os": "linux",
        "eks.amazonaws.com/capacityType": ng.capacityType,
        "eks.amazonaws.com/nodegroup": ng.name,
        "eks.amazonaws.com/nodegroup-image": `ami-0${hex(`ami:${ng.amiType}:${ng.version}`, 16)}`,
        "failure-domain.beta.kubernetes.io/region": spec.region,
        "failure-domain.beta.kubernetes.io/zone": zone,
        "k8s.io/cloud-provider-aws": hex(`cloud-provider:${id.seed}:${id.cluster}`, 32),
        "kubernetes.io/arch": ng.arch,
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": ng.instanceType,
        "topology.k8s.aws/zone-id": `${regionCode}-az${1 + (index % 3)}`,
        "topology.kubernetes.io/region": spec.region,
        "topology.kubernetes.io/zone": zone,
      },
      annotations: {
        "alpha.kubernetes.io/provided-node-ip": ip,
        "node.alpha.kubernetes.io/ttl": "0",
        "volumes.kubernetes.io/controller-managed-attach-detach": "true",
      },
    },
    spec: { providerID: `aws:///${zone}/${instanceId}` },
    status: {
      addresses: [
        { type: "InternalIP", address: ip },
        { type: "InternalDNS", address: name },
        { type: "Hostname", address: name },
      ],
      allocatable: {
        cpu: "1930m",
        "ephemeral-storage": "76224326324",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        memory: "7220940Ki",
        pods: "58",
      },
      capacity: {
        cpu: "2",
        "ephemeral-storage": "83873772Ki",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        memory: "7910092Ki",
        pods: "58",
      },
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      images: nodeImages(spec.region, addons),
      conditions: [
        {
          type: "MemoryPressure",
          status: "False",
          reason: "KubeletHasSufficientMemory",
          message: "kubelet has sufficient memory available",
          lastHeartbeatTime: iso(created + 40 * SECOND),
          lastTransitionTime: iso(created),
        },
        {
          type: "DiskPressure",
          status: "False",
          reason: "KubeletHasNoDiskPressure",
          message: "kubelet has no disk pressure",
          lastHeartbeatTime: iso(created + 40 * SECOND),
          lastTransitionTime: iso(created),
        },
        {
          type: "PIDPressure",
          status: "False",
          reason: "KubeletHasSufficientPID",
          message: "kubelet has sufficient PID available",
          lastHeartbeatTime: iso(created + 40 * SECOND),
          lastTransitionTime: iso(created),
        },
        {
          type: "Ready",
          status: "True",
          reason: "KubeletReady",
          message: "kubelet is posting ready status",
          lastHeartbeatTime: iso(created + 40 * SECOND),
          lastTransitionTime: iso(created + 40 * SECOND),
        },
      ],
      nodeInfo: {
        architecture: ng.arch,
        bootID: uuidLike(`${id.seed}:boot:${name}`),
        containerRuntimeVersion: "containerd://1.7.27",
        kernelVersion: ng.amiType.startsWith("AL2_")
          ? "5.10.245-241.976.amzn2.x86_64"
          : ng.amiType.startsWith("BOTTLEROCKET")
            ? "6.1.155"
            : "6.12.46-66.121.amzn2023." + (ng.arch === "arm64" ? "aarch64" : "x86_64"),
        kubeProxyVersion: kubelet,
        kubeletVersion: kubelet,
        machineID: hex(`machine:${name}`, 32),
        operatingSystem: "linux",
        osImage: ng.osImage,
        systemUUID: `ec2${hex(`sys:${name}`, 5)}-${hex(`sys2:${name}`, 4)}-${hex(`sys3:${name}`, 4)}-${hex(`sys4:${name}`, 4)}-${hex(`sys5:${name}`, 12)}`,
      },
    },
  };
}

/** An AWS zone ID's region part: us-east-1 → use1, ap-southeast-2 → apse2, eu-central-1 → euc1. */
function zoneIdPrefix(region: string): string {
  const [area, direction, number] = region.split("-");
  const compass: Record<string, string> = { northeast: "ne", southeast: "se", northwest: "nw", southwest: "sw" };
  return `${area}${compass[direction] ?? direction?.[0] ?? ""}${number ?? ""}`;
}

/** The images of the cluster's EKS add-ons' node pods (EKS's ECR account), largest first as the kubelet lists them. */
function nodeImages(region: string, addons: readonly { name: string; version: string }[]): { names: string[]; sizeBytes: number }[] {
  const ecr = `602401143452.dkr.ecr.${region}.amazonaws.com`;
  const image = (repo: string, tag: string, sizeBytes: number) => ({
    names: [`${ecr}/${repo}@sha256:${hex(`image:${repo}:${tag}`, 64)}`, `${ecr}/${repo}:${tag}`],
    sizeBytes,
  });
  const out: { names: string[]; sizeBytes: number }[] = [];
  for (const { name, version } of addons) {
    if (name === "vpc-cni") {
      out.push(image("amazon-k8s-cni-init", version, 70445438), image("amazon-k8s-cni", version, 53394093));
      out.push(image("amazon/aws-network-policy-agent", "v1.2.7-eksbuild.1", 35997169));
    } else if (name === "kube-proxy") out.push(image("eks/kube-proxy", version.replace("-eksbuild", "-minimal-eksbuild"), 47220238));
    else if (name === "coredns") out.push(image("eks/coredns", version, 19488197));
    else if (name === "aws-ebs-csi-driver")
      out.push(image("ebs-csi-driver/aws-ebs-csi-driver", version.replace(/-eksbuild\.\d+$/, ""), 31872436));
    else if (name === "eks-pod-identity-agent") out.push(image("eks/eks-pod-identity-agent", version.replace(/^v/, ""), 11573208));
  }
  out.push({
    names: ["602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.10", "localhost/kubernetes/pause:latest"],
    sizeBytes: 318731,
  });
  return out.sort((a, b) => b.sizeBytes - a.sizeBytes);
}

function uuidLike(label: string): string {
  const h = hex(label, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
