// Argo CD on the hub, GitOps Bridge style: cluster secrets whose labels and annotations carry each cluster's
// metadata (written by Terraform in real fleets), ApplicationSets that generate one Application per add-on
// and cluster (multi-source: a values repository plus the chart), and the Applications with the status the
// Argo CD v3.5 controller writes. Spokes Argo CD reaches are two of the Flux spokes (a second way into the
// same cluster) and, when asked for, extra spokes only Argo CD knows (awsAuthConfig, a bearer token, an exec
// plugin). Scenarios (times relative to t0, see docs/simulator-scenarios.md):
//   - aws-load-balancer-controller 1.14.1 rolled out to prod is Degraded in every prod cluster;
//   - a bad commit in the workloads repository makes every workload Application fail to sync (SyncError)
//     until the fix commit;
//   - `cluster-policies` on the hub has automated sync off and a live edit: OutOfSync, not failing;
//   - `cluster-<spoke 8>` points at a directory that does not exist: ComparisonError.
import { createHmac } from "node:crypto";
import type { KubeObject, RuntimeInfo, SimCluster } from "../contract";
import { HELM_ADDONS } from "./catalogue";
import { hex, iso, unit, uuid } from "./random";
import { nodeObject } from "./spoke";
import { DAY, HOUR, MINUTE, SECOND, TIMELINE, gridPointsIn, lastGridPoint } from "./timeline";
import { HUB_NAME, HUB_REGION, REGIONS, type SpokeSpec } from "./topology";
import { controlPlaneAt, gitVersionOf, managedAddonsAt, nodeNames, nodegroupsAt } from "./versions";
import { HUB_ACCOUNT_ID } from "../aws/identities";

export const ARGOCD_NS = "argocd";
export const ARGOCD_API = "argoproj.io/v1alpha1";
/** The AWS account of the spokes only Argo CD knows: the collector's EKS discovery does not look there. */
export const ARGOCD_SPOKES_ACCOUNT_ID = "567890123456";
/** Flux spokes that Argo CD on the hub also deploys add-ons to (reached through an awsAuthConfig secret too). */
export const ARGOCD_FLUX_SPOKE_INDICES: readonly number[] = [2, 8];
/** The Flux spoke whose `environments/<name>` directory is missing (ComparisonError). */
export const COMPARISON_ERROR_SPOKE_INDEX = 8;
const SECRET_TYPE_LABEL = "argocd.argoproj.io/secret-type";
const IN_CLUSTER = "https://kubernetes.default.svc";
const ADDONS_REPO = "https://github.com/acme-platform/gitops-bridge-control-plane";
const WORKLOAD_REPO = "https://github.com/acme-platform/fleet-workloads";
/** argocd-cm timeout.reconciliation: 300s, on the hub's 5-minute grid. */
const RECONCILE = TIMELINE.classicTokenRotation;

export const ARGO_TIMELINE = {
  /** prod's addonChartVersion of aws-load-balancer-controller moved to the newest chart */
  albUpgrade: -42 * MINUTE,
  /** Deployment progress deadline: health turns Degraded this long after the sync */
  albProgressDeadline: 10 * MINUTE,
  /** bad commit on the workloads repository (a CPU request above its limit) */
  workloadBadCommit: 3 * MINUTE,
  /** the fix */
  workloadFixCommit: 12 * MINUTE,
  /** the live edit of a ClusterPolicy on the hub (automated sync is off there) */
  policiesEditedAt: -2 * HOUR - 14 * MINUTE,
  /** the missing `environments/<cluster>` directory has failed comparisons since this */
  comparisonErrorSince: -26 * MINUTE,
} as const;

export type ArgoSpokeAuth = "aws" | "bearer" | "exec";

/** A spoke only Argo CD on the hub knows (its cluster secret is the only way in). */
export interface ArgoSpokeSpec {
  index: number;
  name: string;
  env: "dev" | "staging" | "prod";
  team: string;
  region: string;
  accountId: string;
  version: string;
  auth: ArgoSpokeAuth;
}

const ARGO_ENVS = ["dev", "staging", "prod"] as const;
const ARGO_TEAMS = ["checkout", "search", "ml-platform", "growth"];

/** `standard`: the versions in standard support at the simulation's date, newest first (fleet-versions.ts). */
export function argoSpokeSpecs(count: number, standard: readonly string[]): ArgoSpokeSpec[] {
  return Array.from({ length: Math.max(0, Math.floor(count)) }, (_, j) => {
    const env = ARGO_ENVS[j % ARGO_ENVS.length];
    const region = REGIONS[(j + 1) % REGIONS.length];
    return {
      index: j,
      name: `argo-${env}-${region.short}-${String(j + 1).padStart(2, "0")}`,
      env,
      team: ARGO_TEAMS[j % ARGO_TEAMS.length],
      region: region.name,
      accountId: ARGOCD_SPOKES_ACCOUNT_ID,
      // Half on the newest version in standard support, half on the one before when there is one.
      version: standard[Math.min(unit(`argo-version:${j}`) < 0.5 ? 1 : 0, standard.length - 1)],
      auth: j % 3 === 1 ? "bearer" : j % 3 === 2 ? "exec" : "aws",
    };
  });
}

/** The long-lived token of the `argocd-manager` service account `argocd cluster add` creates (bearer spokes). */
export function argoManagerToken(seed: number, cluster: string): string {
  const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const header = b64url({ alg: "RS256", kid: hex(`sa-kid:${cluster}`, 43) });
  const payload = b64url({
    iss: "kubernetes/serviceaccount",
    "kubernetes.io/serviceaccount/namespace": "kube-system",
    "kubernetes.io/serviceaccount/secret.name": "argocd-manager-token",
    "kubernetes.io/serviceaccount/service-account.name": "argocd-manager",
    "kubernetes.io/serviceaccount/service-account.uid": uuid(`${seed}:sa:${cluster}`),
    sub: "system:serviceaccount:kube-system:argocd-manager",
  });
  const signature = createHmac("sha256", `sim-sa-key:${seed}:${cluster}`).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

export function argoSpokeCluster(spec: ArgoSpokeSpec, seed: number): SimCluster {
  return {
    name: spec.name,
    role: "spoke",
    eks: {
      name: spec.name,
      region: spec.region,
      accountId: spec.accountId,
      arn: `arn:aws:eks:${spec.region}:${spec.accountId}:cluster/${spec.name}`,
    },
    gitVersion: gitVersionOf(spec.version),
    auth: "eks",
    env: spec.env,
    team: spec.team,
    ...(spec.auth === "bearer"
      ? { serviceAccountTokens: { [argoManagerToken(seed, spec.name)]: "system:serviceaccount:kube-system:argocd-manager" } }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Destinations: every cluster a secret on the hub registers

interface Destination {
  /** Argo CD's cluster name (the secret's data.name). */
  name: string;
  server: string;
  kind: "hub" | "flux-spoke" | "argo-spoke";
  env: string;
  team: string | null;
  region: string;
  accountId: string;
  version: string;
  auth: ArgoSpokeAuth | "in-cluster";
  addons: { aws_load_balancer_controller: boolean; metrics_server: boolean; cert_manager: boolean };
  /** The `environments/<name>` directory exists in the add-ons repository. */
  clusterDirectory: boolean;
}

function destinations(
  hub: SpokeSpec,
  fluxSpokes: SpokeSpec[],
  argoSpokes: ArgoSpokeSpec[],
  runtime: RuntimeInfo,
  rel: number,
): Destination[] {
  const out: Destination[] = [
    {
      name: HUB_NAME,
      server: IN_CLUSTER,
      kind: "hub",
      env: "control-plane",
      team: null,
      region: HUB_REGION,
      accountId: HUB_ACCOUNT_ID,
      version: hub.version,
      auth: "in-cluster",
      addons: { aws_load_balancer_controller: false, metrics_server: true, cert_manager: false },
      clusterDirectory: true,
    },
  ];
  for (const index of ARGOCD_FLUX_SPOKE_INDICES) {
    const spec = fluxSpokes[index];
    if (!spec) continue;
    out.push({
      name: spec.name,
      server: runtime.endpointOf(spec.name),
      kind: "flux-spoke",
      env: spec.env,
      team: null,
      region: spec.region,
      accountId: spec.accountId,
      version: controlPlaneAt(spec, rel).version,
      auth: "aws",
      // Flux runs cert-manager there; Argo CD brings the AWS add-ons.
      addons: { aws_load_balancer_controller: true, metrics_server: true, cert_manager: false },
      clusterDirectory: index !== COMPARISON_ERROR_SPOKE_INDEX,
    });
  }
  for (const spec of argoSpokes) {
    out.push({
      name: spec.name,
      server: runtime.endpointOf(spec.name),
      kind: "argo-spoke",
      env: spec.env,
      team: spec.team,
      region: spec.region,
      accountId: spec.accountId,
      version: spec.version,
      auth: spec.auth,
      addons: { aws_load_balancer_controller: true, metrics_server: true, cert_manager: true },
      clusterDirectory: true,
    });
  }
  return out;
}

const roleArn = (d: Destination) => `arn:aws:iam::${d.accountId}:role/${d.name}-argocd-spoke`;
const vpcOf = (name: string) => `vpc-0${hex(`vpc:${name}`, 16)}`;
const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

/** The config JSON as the GitOps Bridge Terraform heredoc writes it (indentation and `" :"` included). */
function configJson(d: Destination, caData: string, seed: number): string {
  if (d.auth === "in-cluster") return `{\n  "tlsClientConfig": {\n    "insecure": false\n  }\n}\n`;
  const tls = `  "tlsClientConfig": {\n    "insecure": false,\n    "caData" : "${caData}"\n  }`;
  if (d.auth === "aws") {
    return `{\n${tls},\n  "awsAuthConfig" : {\n    "clusterName": "${d.name}",\n    "roleARN": "${roleArn(d)}"\n  }\n}\n`;
  }
  if (d.auth === "bearer") return `{\n  "bearerToken": "${argoManagerToken(seed, d.name)}",\n${tls}\n}\n`;
  return (
    `{\n${tls},\n  "execProviderConfig": {\n    "command": "tsh",\n    "args": ["kube", "credentials", "--kube-cluster=${d.name}", "--teleport-cluster=teleport.acme.internal", "--proxy=teleport.acme.internal:443"],\n` +
    `    "apiVersion": "client.authentication.k8s.io/v1beta1",\n    "installHint": "Install tsh (Teleport) and log in with tsh login"\n  }\n}\n`
  );
}

function clusterSecret(d: Destination, runtime: RuntimeInfo, seed: number, createdAt: number): KubeObject {
  const flags = Object.fromEntries(Object.entries(d.addons).map(([k, v]) => [`enable_${k}`, String(v)]));
  const addonMeta: Record<string, string> = {};
  if (d.addons.aws_load_balancer_controller) {
    addonMeta.aws_load_balancer_controller_iam_role_arn = `arn:aws:iam::${d.accountId}:role/alb-controller-${hex(`alb-role:${d.name}`, 20)}`;
    addonMeta.aws_load_balancer_controller_namespace = "kube-system";
    addonMeta.aws_load_balancer_controller_service_account = "aws-load-balancer-controller-sa";
  }
  if (d.addons.cert_manager) {
    addonMeta.cert_manager_iam_role_arn = `arn:aws:iam::${d.accountId}:role/cert-manager-${hex(`cm-role:${d.name}`, 20)}`;
    addonMeta.cert_manager_namespace = "cert-manager";
    addonMeta.cert_manager_service_account = "cert-manager";
  }
  return {
    apiVersion: "v1",
    kind: "Secret",
    type: "Opaque",
    metadata: {
      name: d.name,
      namespace: ARGOCD_NS,
      uid: uuid(`${seed}:${HUB_NAME}:argocd-secret:${d.name}`),
      creationTimestamp: iso(createdAt),
      labels: {
        [SECRET_TYPE_LABEL]: "cluster",
        cluster_name: d.name,
        environment: d.env,
        enable_argocd: String(d.kind === "hub"),
        ...flags,
        kubernetes_version: d.version,
        aws_cluster_name: d.name,
        ...(d.team ? { team: d.team } : {}),
      },
      annotations: {
        cluster_name: d.name,
        environment: d.env,
        ...addonMeta,
        aws_cluster_name: d.name,
        aws_region: d.region,
        aws_account_id: d.accountId,
        aws_vpc_id: vpcOf(d.name),
        addons_repo_url: ADDONS_REPO,
        addons_repo_basepath: "",
        addons_repo_path: "bootstrap/control-plane/addons",
        addons_repo_revision: "HEAD",
        workload_repo_url: WORKLOAD_REPO,
        workload_repo_basepath: "",
        workload_repo_path: `overlays/${d.env}`,
        workload_repo_revision: "HEAD",
      },
    },
    // Terraform's kubernetes_secret_v1 `data`: stored base64, as the API returns it.
    data: {
      config: b64(configJson(d, d.auth === "in-cluster" ? "" : runtime.caDataOf(d.name), seed)),
      name: b64(d.name),
      server: b64(d.server),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Application status builders

interface Source {
  repoURL: string;
  targetRevision: string;
  path?: string;
  chart?: string;
  ref?: string;
  helm?: Record<string, unknown>;
  directory?: Record<string, unknown>;
}

interface Resource {
  group?: string;
  version: string;
  kind: string;
  namespace?: string;
  name: string;
  status?: "Synced" | "OutOfSync" | "Unknown";
}

interface HistoryItem {
  revisions: string[];
  at: number;
  automated: boolean;
  user?: string;
}

interface OperationView {
  phase: "Running" | "Succeeded" | "Failed";
  message: string;
  startedAt: number;
  finishedAt?: number;
  revisions: string[];
  automated: boolean;
  user?: string;
  retryCount?: number;
}

interface AppState {
  sync: "Synced" | "OutOfSync" | "Unknown";
  /** Compared revisions (absent when the comparison failed). */
  revisions: string[] | null;
  health: "Healthy" | "Degraded" | "Progressing" | "Missing";
  healthSince: number;
  history: HistoryItem[];
  operation: OperationView | null;
  conditions: Array<{ type: string; message: string; at: number }>;
  resources: Resource[];
}

interface AppInput {
  name: string;
  destination: Destination;
  namespace: string;
  sources: Source[];
  multi: boolean;
  automated: boolean;
  syncOptions?: string[];
  appSet?: { name: string; uid: string };
  createdAt: number;
  state: AppState;
}

function retryStrategy(automated: boolean) {
  return automated ? { limit: 5 } : {};
}

function operationObject(app: AppInput, op: OperationView) {
  const sync: Record<string, unknown> = app.multi
    ? { revisions: op.revisions, sources: app.sources }
    : { revision: op.revisions[0], ...(op.automated ? {} : { source: app.sources[0] }) };
  if (app.syncOptions?.length) sync.syncOptions = app.syncOptions;
  return { sync, initiatedBy: op.automated ? { automated: true } : { username: op.user ?? "admin" }, retry: retryStrategy(op.automated) };
}

function application(app: AppInput, t: number, epoch: number, seed: number): KubeObject {
  const { state, destination: d } = app;
  const dest =
    d.kind === "hub" && !app.appSet ? { server: IN_CLUSTER, namespace: app.namespace } : { name: d.name, namespace: app.namespace };
  const sourceField = app.multi ? { sources: app.sources } : { source: app.sources[0] };
  const spec: Record<string, unknown> = {
    project: "default",
    ...sourceField,
    destination: dest,
    syncPolicy: {
      ...(app.automated ? { automated: {} } : {}),
      ...(app.syncOptions?.length ? { syncOptions: app.syncOptions } : {}),
    },
  };
  const revisionsField = (revisions: string[]) => (app.multi ? { revisions } : { revision: revisions[0] });
  const sourcesField = app.multi ? { sources: app.sources } : { source: app.sources[0] };
  const status: Record<string, unknown> = {
    sync: {
      status: state.sync,
      comparedTo: { destination: dest, ...sourcesField },
      ...(state.revisions ? revisionsField(state.revisions) : {}),
    },
    health: { status: state.health, lastTransitionTime: iso(state.healthSince) },
    reconciledAt: iso(Math.max(app.createdAt, lastGridPoint(t, epoch, RECONCILE))),
    resourceHealthSource: "appTree",
    resources: state.resources.map((r) => ({ ...r, status: r.status ?? "Synced" })),
    summary: {},
    ...(app.multi ? {} : { sourceType: app.sources[0].chart ? "Helm" : "Directory" }),
    controllerNamespace: ARGOCD_NS,
  };
  if (state.conditions.length)
    status.conditions = state.conditions.map((c) => ({ type: c.type, message: c.message, lastTransitionTime: iso(c.at) }));
  if (state.history.length) {
    status.history = state.history.map((h, id) => ({
      id,
      ...revisionsField(h.revisions),
      deployStartedAt: iso(h.at - 8 * SECOND),
      deployedAt: iso(h.at),
      initiatedBy: h.automated ? { automated: true } : { username: h.user ?? "admin" },
      ...sourcesField,
    }));
  }
  if (state.operation) {
    const op = state.operation;
    status.operationState = {
      operation: operationObject(app, op),
      phase: op.phase,
      message: op.message,
      startedAt: iso(op.startedAt),
      ...(op.finishedAt !== undefined ? { finishedAt: iso(op.finishedAt) } : {}),
      ...(op.retryCount ? { retryCount: op.retryCount } : {}),
      // syncResult.revision has no omitempty in Argo CD's Go type: "" for multi-source syncs.
      ...(op.phase === "Succeeded"
        ? {
            syncResult: {
              revision: app.multi ? "" : op.revisions[0],
              ...(app.multi ? { revisions: op.revisions } : {}),
              ...sourcesField,
              resources: syncedResources(state.resources),
            },
          }
        : {}),
    };
  }
  // No status subresource: every status write bumps the generation (one per reconcile, roughly).
  const generation = 1 + Math.max(0, gridPointsIn(app.createdAt, t, epoch, RECONCILE)) + state.history.length;
  return {
    apiVersion: ARGOCD_API,
    kind: "Application",
    metadata: {
      name: app.name,
      namespace: ARGOCD_NS,
      uid: uuid(`${seed}:${HUB_NAME}:Application:${app.name}`),
      generation,
      creationTimestamp: iso(app.createdAt),
      ...(app.appSet
        ? {
            ownerReferences: [
              {
                apiVersion: ARGOCD_API,
                kind: "ApplicationSet",
                name: app.appSet.name,
                uid: app.appSet.uid,
                controller: true,
                blockOwnerDeletion: true,
              },
            ],
          }
        : {}),
    },
    spec,
    status,
  };
}

function syncedResources(resources: Resource[]) {
  return resources.map((r) => ({
    group: r.group ?? "",
    version: r.version,
    kind: r.kind,
    namespace: r.namespace ?? "",
    name: r.name,
    status: "Synced",
    message: `${r.group ? `${r.kind.toLowerCase()}.${r.group}` : r.kind.toLowerCase()}/${r.name} ${r.kind === "CustomResourceDefinition" ? "unchanged" : "configured"}`,
    hookPhase: "Running",
    syncPhase: "Sync",
  }));
}

// ---------------------------------------------------------------------------------------------------------
// The add-ons (GitOps Bridge ApplicationSets) and the other Applications

interface AddonDef {
  /** ApplicationSet name, e.g. addons-aws-load-balancer-controller */
  appSet: string;
  key: keyof Destination["addons"];
  chart: string;
  namespace: string;
  resources: (ns: string) => Resource[];
}

const addonCatalogue = (chart: string) => HELM_ADDONS.find((a) => a.chart === chart)!;

const ADDONS: readonly AddonDef[] = [
  {
    appSet: "addons-aws-load-balancer-controller",
    key: "aws_load_balancer_controller",
    chart: "aws-load-balancer-controller",
    namespace: "kube-system",
    resources: (ns) => [
      { version: "v1", kind: "Secret", namespace: ns, name: "aws-load-balancer-tls" },
      { version: "v1", kind: "Service", namespace: ns, name: "aws-load-balancer-webhook-service" },
      { version: "v1", kind: "ServiceAccount", namespace: ns, name: "aws-load-balancer-controller-sa" },
      { group: "admissionregistration.k8s.io", version: "v1", kind: "MutatingWebhookConfiguration", name: "aws-load-balancer-webhook" },
      { group: "admissionregistration.k8s.io", version: "v1", kind: "ValidatingWebhookConfiguration", name: "aws-load-balancer-webhook" },
      { group: "apps", version: "v1", kind: "Deployment", namespace: ns, name: "aws-load-balancer-controller" },
      { group: "elbv2.k8s.aws", version: "v1beta1", kind: "IngressClassParams", name: "alb" },
      { group: "networking.k8s.io", version: "v1", kind: "IngressClass", name: "alb" },
      { group: "policy", version: "v1", kind: "PodDisruptionBudget", namespace: ns, name: "aws-load-balancer-controller" },
      { group: "rbac.authorization.k8s.io", version: "v1", kind: "ClusterRole", name: "aws-load-balancer-controller-role" },
      { group: "rbac.authorization.k8s.io", version: "v1", kind: "ClusterRoleBinding", name: "aws-load-balancer-controller-rolebinding" },
      {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "Role",
        namespace: ns,
        name: "aws-load-balancer-controller-leader-election-role",
      },
      {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind: "RoleBinding",
        namespace: ns,
        name: "aws-load-balancer-controller-leader-election-rolebinding",
      },
    ],
  },
  {
    appSet: "addons-metrics-server",
    key: "metrics_server",
    chart: "metrics-server",
    namespace: "kube-system",
    resources: (ns) => [
      { version: "v1", kind: "Service", namespace: ns, name: "metrics-server" },
      { version: "v1", kind: "ServiceAccount", namespace: ns, name: "metrics-server" },
      { group: "apiregistration.k8s.io", version: "v1", kind: "APIService", name: "v1beta1.metrics.k8s.io" },
      { group: "apps", version: "v1", kind: "Deployment", namespace: ns, name: "metrics-server" },
      { group: "rbac.authorization.k8s.io", version: "v1", kind: "ClusterRole", name: "system:metrics-server" },
      { group: "rbac.authorization.k8s.io", version: "v1", kind: "ClusterRoleBinding", name: "system:metrics-server" },
      { group: "rbac.authorization.k8s.io", version: "v1", kind: "RoleBinding", namespace: ns, name: "metrics-server-auth-reader" },
    ],
  },
  {
    appSet: "addons-cert-manager",
    key: "cert_manager",
    chart: "cert-manager",
    namespace: "cert-manager",
    resources: (ns) => [
      { group: "apiextensions.k8s.io", version: "v1", kind: "CustomResourceDefinition", name: "certificates.cert-manager.io" },
      { group: "apiextensions.k8s.io", version: "v1", kind: "CustomResourceDefinition", name: "clusterissuers.cert-manager.io" },
      { group: "apiextensions.k8s.io", version: "v1", kind: "CustomResourceDefinition", name: "issuers.cert-manager.io" },
      { group: "apps", version: "v1", kind: "Deployment", namespace: ns, name: "cert-manager" },
      { group: "apps", version: "v1", kind: "Deployment", namespace: ns, name: "cert-manager-cainjector" },
      { group: "apps", version: "v1", kind: "Deployment", namespace: ns, name: "cert-manager-webhook" },
      { version: "v1", kind: "ServiceAccount", namespace: ns, name: "cert-manager" },
      { group: "admissionregistration.k8s.io", version: "v1", kind: "ValidatingWebhookConfiguration", name: "cert-manager-webhook" },
    ],
  },
];

/** Chart version an environment runs (the merge generator's per-environment addonChartVersion). */
export function addonChartVersion(chart: string, env: string): string {
  const versions = addonCatalogue(chart).versions;
  // prod got the newest aws-load-balancer-controller at ARGO_TIMELINE.albUpgrade; everyone else is one behind.
  return chart === "aws-load-balancer-controller" && env === "prod" ? versions[0] : versions[1];
}

const valuesRevision = (seed: number) => hex(`${seed}:gitops-bridge-control-plane`, 40);
const workloadRevision = (seed: number, commit: "older" | "base" | "bad" | "fix") => hex(`${seed}:fleet-workloads:${commit}`, 40);
/** How long after a commit a destination's Application notices it (3-minute repository polling). */
const noticeDelay = (d: Destination) => 10 * SECOND + Math.floor(unit(`argo-notice:${d.name}`) * 170 * SECOND);

function addonApp(def: AddonDef, d: Destination, seed: number, epoch: number, rel: number, appSetUid: string): AppInput {
  const addon = addonCatalogue(def.chart);
  const version = addonChartVersion(def.chart, d.env);
  const previous = addon.versions[Math.min(addon.versions.length - 1, addon.versions.indexOf(version) + 1)];
  const values = valuesRevision(seed);
  const createdAt = epoch - Math.floor((40 + unit(`argo-created:${d.name}`) * 200) * DAY);
  const sources: Source[] = [
    { repoURL: ADDONS_REPO, targetRevision: "HEAD", ref: "values" },
    {
      chart: def.chart,
      repoURL: addon.source.url,
      targetRevision: version,
      helm: {
        releaseName: def.chart,
        ignoreMissingValueFiles: true,
        valueFiles: [
          `$values/environments/default/addons/${def.chart}/values.yaml`,
          `$values/environments/${d.env}/addons/${def.chart}/values.yaml`,
          `$values/clusters/${d.name}/addons/${def.chart}/values.yaml`,
        ],
      },
    },
  ];
  const previousAt = epoch - 30 * DAY - Math.floor(unit(`argo-prev:${d.name}:${def.chart}`) * 20 * DAY);
  const upgradedAt =
    epoch + (def.chart === "aws-load-balancer-controller" && d.env === "prod" ? ARGO_TIMELINE.albUpgrade : -9 * DAY) + noticeDelay(d);
  const history: HistoryItem[] = [{ revisions: [values, previous], at: previousAt, automated: true }];
  let health: AppState["health"] = "Healthy";
  let healthSince = upgradedAt + 40 * SECOND;
  if (epoch + rel >= upgradedAt) history.push({ revisions: [values, version], at: upgradedAt, automated: true });
  const current = history[history.length - 1];
  const degradedAt = upgradedAt + ARGO_TIMELINE.albProgressDeadline;
  if (def.chart === "aws-load-balancer-controller" && d.env === "prod" && epoch + rel >= upgradedAt) {
    // The new controller crash-loops (missing IAM permission): the Deployment exceeds its progress deadline.
    if (epoch + rel >= degradedAt) {
      health = "Degraded";
      healthSince = degradedAt;
    } else {
      health = "Progressing";
      healthSince = upgradedAt;
    }
  }
  return {
    name: `addon-${d.name}-${def.chart}`,
    destination: d,
    namespace: def.namespace,
    sources,
    multi: true,
    automated: true,
    syncOptions: ["CreateNamespace=true", "ServerSideApply=true"],
    appSet: { name: def.appSet, uid: appSetUid },
    createdAt,
    state: {
      sync: "Synced",
      revisions: current.revisions,
      health,
      healthSince,
      history,
      operation: {
        phase: "Succeeded",
        message: "successfully synced (all tasks run)",
        startedAt: current.at - 8 * SECOND,
        finishedAt: current.at,
        revisions: current.revisions,
        automated: true,
      },
      conditions: [],
      resources: def.resources(def.namespace),
    },
  };
}

/** `cluster-<name>`: the cluster's own directory (namespaces, quotas), from the GitOps Bridge `clusters` ApplicationSet. */
function clusterApp(d: Destination, seed: number, epoch: number, appSetUid: string): AppInput {
  const createdAt = epoch - Math.floor((40 + unit(`argo-created:${d.name}`) * 200) * DAY);
  const source: Source = {
    repoURL: ADDONS_REPO,
    targetRevision: "HEAD",
    path: `environments/${d.name}`,
    directory: { recurse: true, exclude: "addons/*" },
  };
  const base = {
    name: `cluster-${d.name}`,
    destination: d,
    namespace: "*",
    sources: [source],
    multi: false,
    automated: true,
    appSet: { name: "clusters", uid: appSetUid },
  };
  const values = valuesRevision(seed);
  if (!d.clusterDirectory) {
    const since = epoch + ARGO_TIMELINE.comparisonErrorSince;
    return {
      ...base,
      createdAt: since - 2 * MINUTE,
      state: {
        sync: "Unknown",
        revisions: null,
        health: "Healthy",
        healthSince: since - 2 * MINUTE,
        history: [],
        operation: null,
        conditions: [
          {
            type: "ComparisonError",
            message: `Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = Unknown desc = Manifest generation error (cached): environments/${d.name}: app path does not exist`,
            at: since,
          },
        ],
        resources: [],
      },
    };
  }
  const syncedAt = createdAt + 3 * MINUTE;
  return {
    ...base,
    createdAt,
    state: {
      sync: "Synced",
      revisions: [values],
      health: "Healthy",
      healthSince: syncedAt + 20 * SECOND,
      history: [{ revisions: [values], at: syncedAt, automated: true }],
      operation: {
        phase: "Succeeded",
        message: "successfully synced (all tasks run)",
        startedAt: syncedAt - 8 * SECOND,
        finishedAt: syncedAt,
        revisions: [values],
        automated: true,
      },
      conditions: [],
      resources: [
        { version: "v1", kind: "Namespace", name: "workload" },
        { version: "v1", kind: "ResourceQuota", namespace: "workload", name: "workload-quota" },
        { group: "networking.k8s.io", version: "v1", kind: "NetworkPolicy", namespace: "workload", name: "default-deny" },
      ],
    },
  };
}

const BAD_APPLY =
  'one or more objects failed to apply, reason: Deployment.apps "checkout-api" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1';
const RETRY_LIMIT = 5;

/** Go's time.Kitchen ("3:04PM"), in UTC like the controller's container. */
function kitchen(ms: number): string {
  const d = new Date(ms);
  const h = d.getUTCHours();
  return `${h % 12 === 0 ? 12 : h % 12}:${String(d.getUTCMinutes()).padStart(2, "0")}${h < 12 ? "AM" : "PM"}`;
}

/** Start of attempt i (0-based) of an automated sync that keeps failing 2 s in: default backoff 5 s × 2^n. */
function attemptStart(first: number, i: number): number {
  let at = first;
  for (let n = 0; n < i; n++) at += 2 * SECOND + 5 * SECOND * 2 ** n;
  return at;
}

/** `workload-<name>`: the team workloads, from the `workloads` ApplicationSet. The SyncError scenario. */
function workloadApp(d: Destination, seed: number, epoch: number, rel: number, appSetUid: string): AppInput {
  const createdAt = epoch - Math.floor((40 + unit(`argo-created:${d.name}`) * 200) * DAY);
  const source: Source = { repoURL: WORKLOAD_REPO, targetRevision: "HEAD", path: `overlays/${d.env}` };
  const now = epoch + rel;
  const delay = noticeDelay(d);
  const badAt = epoch + ARGO_TIMELINE.workloadBadCommit + delay;
  const fixAt = epoch + ARGO_TIMELINE.workloadFixCommit + delay;
  const [older, base, bad, fix] = (["older", "base", "bad", "fix"] as const).map((c) => workloadRevision(seed, c));
  const history: HistoryItem[] = [
    { revisions: [older], at: epoch - 6 * DAY - Math.floor(unit(`wl-older:${d.name}`) * DAY), automated: true },
    { revisions: [base], at: epoch - 3 * HOUR - 12 * MINUTE + delay, automated: true },
  ];
  const state: AppState = {
    sync: "Synced",
    revisions: [base],
    health: "Healthy",
    healthSince: history[0].at + 30 * SECOND,
    history,
    operation: {
      phase: "Succeeded",
      message: "successfully synced (all tasks run)",
      startedAt: history[1].at - 8 * SECOND,
      finishedAt: history[1].at,
      revisions: [base],
      automated: true,
    },
    conditions: [],
    resources: [
      { version: "v1", kind: "ConfigMap", namespace: "workload", name: "checkout-config" },
      { version: "v1", kind: "Service", namespace: "workload", name: "checkout-api" },
      { group: "apps", version: "v1", kind: "Deployment", namespace: "workload", name: "checkout-api" },
      { group: "autoscaling", version: "v2", kind: "HorizontalPodAutoscaler", namespace: "workload", name: "checkout-api" },
    ],
  };
  if (now >= badAt && now < fixAt) {
    state.sync = "OutOfSync";
    state.revisions = [bad];
    state.resources = state.resources.map((r) => (r.kind === "Deployment" ? { ...r, status: "OutOfSync" } : r));
    // Attempts fail 2 s in; retries wait 5 s, 10 s, 20 s, 40 s, 80 s (the automated sync's default retry of 5).
    let failures = 0;
    while (failures <= RETRY_LIMIT && attemptStart(badAt, failures) + 2 * SECOND <= now) failures++;
    if (failures === 0) {
      state.operation = { phase: "Running", message: "one or more tasks are running", startedAt: badAt, revisions: [bad], automated: true };
    } else if (failures <= RETRY_LIMIT) {
      const lastFailure = attemptStart(badAt, failures - 1) + 2 * SECOND;
      state.operation = {
        phase: "Running",
        message: `${BAD_APPLY}. Retrying attempt #${failures} at ${kitchen(attemptStart(badAt, failures))}.`,
        startedAt: badAt,
        finishedAt: lastFailure,
        revisions: [bad],
        automated: true,
        retryCount: failures,
      };
    } else {
      const finalAt = attemptStart(badAt, RETRY_LIMIT) + 2 * SECOND;
      const message = `${BAD_APPLY} (retried ${RETRY_LIMIT} times).`;
      state.operation = {
        phase: "Failed",
        message,
        startedAt: badAt,
        finishedAt: finalAt,
        revisions: [bad],
        automated: true,
        retryCount: RETRY_LIMIT,
      };
      state.conditions = [{ type: "SyncError", message: `Failed last sync attempt to [${bad}]: ${message}`, at: finalAt + SECOND }];
    }
  } else if (now >= fixAt) {
    const doneAt = fixAt + 12 * SECOND;
    if (now < doneAt) {
      state.sync = "OutOfSync";
      state.revisions = [fix];
      state.operation = { phase: "Running", message: "one or more tasks are running", startedAt: fixAt, revisions: [fix], automated: true };
    } else {
      history.push({ revisions: [fix], at: doneAt, automated: true });
      state.revisions = [fix];
      state.operation = {
        phase: "Succeeded",
        message: "successfully synced (all tasks run)",
        startedAt: fixAt,
        finishedAt: doneAt,
        revisions: [fix],
        automated: true,
      };
    }
  }
  return {
    name: `workload-${d.name}`,
    destination: d,
    namespace: "workload",
    sources: [source],
    multi: false,
    automated: true,
    syncOptions: ["CreateNamespace=true"],
    appSet: { name: "workloads", uid: appSetUid },
    createdAt,
    state,
  };
}

/** `cluster-policies` on the hub: synced by hand (automated sync off); a ClusterPolicy was edited live. */
function policiesApp(hub: Destination, seed: number, epoch: number, rel: number): AppInput {
  const revision = hex(`${seed}:platform-policies`, 40);
  const syncedAt = epoch - 6 * DAY - 3 * HOUR;
  const edited = rel >= ARGO_TIMELINE.policiesEditedAt;
  const policies = ["disallow-privileged-containers", "require-resource-limits", "restrict-image-registries", "require-team-label"];
  return {
    name: "cluster-policies",
    destination: hub,
    namespace: "kyverno",
    sources: [{ repoURL: "https://github.com/acme-platform/platform-policies", targetRevision: "main", path: "kyverno/cluster-policies" }],
    multi: false,
    automated: false,
    syncOptions: ["ServerSideApply=true"],
    createdAt: epoch - 120 * DAY,
    state: {
      sync: edited ? "OutOfSync" : "Synced",
      revisions: [revision],
      health: "Healthy",
      healthSince: syncedAt + 30 * SECOND,
      history: [{ revisions: [revision], at: syncedAt, automated: false, user: "jane.doe@acme.io" }],
      operation: {
        phase: "Succeeded",
        message: "successfully synced (all tasks run)",
        startedAt: syncedAt - 8 * SECOND,
        finishedAt: syncedAt,
        revisions: [revision],
        automated: false,
        user: "jane.doe@acme.io",
      },
      conditions: [],
      resources: policies.map((name) => ({
        group: "kyverno.io",
        version: "v1",
        kind: "ClusterPolicy",
        name,
        status: edited && name === "require-resource-limits" ? ("OutOfSync" as const) : ("Synced" as const),
      })),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// ApplicationSets, events, the hub's Argo CD objects

function appSetObject(
  name: string,
  uid: string,
  createdAt: number,
  spec: Record<string, unknown>,
  apps: AppInput[],
  lastChange: number,
): KubeObject {
  const at = iso(lastChange);
  const resources = apps
    .map((a) => ({
      group: "argoproj.io",
      version: "v1alpha1",
      kind: "Application",
      name: a.name,
      namespace: ARGOCD_NS,
      status: a.state.sync,
      health: { status: a.state.health },
    }))
    .sort((x, y) => x.name.localeCompare(y.name));
  return {
    apiVersion: ARGOCD_API,
    kind: "ApplicationSet",
    metadata: { name, namespace: ARGOCD_NS, uid, generation: 1, creationTimestamp: iso(createdAt) },
    spec,
    status: {
      conditions: [
        {
          type: "ErrorOccurred",
          status: "False",
          reason: "ApplicationSetUpToDate",
          message: "All applications have been generated successfully",
          lastTransitionTime: at,
        },
        {
          type: "ParametersGenerated",
          status: "True",
          reason: "ParametersGenerated",
          message: "Successfully generated parameters for all Applications",
          lastTransitionTime: at,
        },
        {
          type: "ResourcesUpToDate",
          status: "True",
          reason: "ApplicationSetUpToDate",
          message: "All applications have been generated successfully",
          lastTransitionTime: at,
        },
      ],
      resources,
      resourcesCount: resources.length,
    },
  };
}

const clusterSelector = (key: string) => ({
  selector: {
    matchExpressions: [
      { key: "akuity.io/argo-cd-cluster-name", operator: "NotIn", values: ["in-cluster"] },
      { key, operator: "In", values: ["true"] },
    ],
  },
});

function addonAppSetSpec(def: AddonDef): Record<string, unknown> {
  const addon = addonCatalogue(def.chart);
  const byEnv = (env: string) => ({
    clusters: { selector: { matchLabels: { environment: env } }, values: { addonChartVersion: addonChartVersion(def.chart, env) } },
  });
  return {
    syncPolicy: { preserveResourcesOnDeletion: true },
    generators: [
      {
        merge: {
          mergeKeys: ["server"],
          generators: [
            {
              clusters: {
                values: {
                  addonChart: def.chart,
                  addonChartVersion: addonChartVersion(def.chart, "dev"),
                  addonChartRepository: addon.source.url,
                  addonChartNamespace: def.namespace,
                },
                ...clusterSelector(`enable_${def.key}`),
              },
            },
            byEnv("staging"),
            byEnv("prod"),
          ],
        },
      },
    ],
    template: {
      metadata: { name: "addon-{{name}}-{{values.addonChart}}" },
      spec: {
        project: "default",
        sources: [
          {
            repoURL: "{{metadata.annotations.addons_repo_url}}",
            targetRevision: "{{metadata.annotations.addons_repo_revision}}",
            ref: "values",
          },
          {
            chart: "{{values.addonChart}}",
            repoURL: "{{values.addonChartRepository}}",
            targetRevision: "{{values.addonChartVersion}}",
            helm: {
              releaseName: "{{values.addonChart}}",
              ignoreMissingValueFiles: true,
              valueFiles: [
                "$values/{{metadata.annotations.addons_repo_basepath}}environments/default/addons/{{values.addonChart}}/values.yaml",
                "$values/{{metadata.annotations.addons_repo_basepath}}environments/{{metadata.labels.environment}}/addons/{{values.addonChart}}/values.yaml",
                "$values/{{metadata.annotations.addons_repo_basepath}}clusters/{{name}}/addons/{{values.addonChart}}/values.yaml",
              ],
            },
          },
        ],
        destination: { namespace: "{{values.addonChartNamespace}}", name: "{{name}}" },
        syncPolicy: { automated: {}, syncOptions: ["CreateNamespace=true", "ServerSideApply=true"] },
      },
    },
  };
}

const CLUSTERS_APPSET_SPEC = {
  generators: [
    {
      clusters: { selector: { matchExpressions: [{ key: "akuity.io/argo-cd-cluster-name", operator: "NotIn", values: ["in-cluster"] }] } },
    },
  ],
  template: {
    metadata: { name: "cluster-{{name}}" },
    spec: {
      project: "default",
      source: {
        repoURL: "{{metadata.annotations.addons_repo_url}}",
        targetRevision: "{{metadata.annotations.addons_repo_revision}}",
        path: "environments/{{name}}",
        directory: { recurse: true, exclude: "addons/*" },
      },
      destination: { name: "{{name}}", namespace: "*" },
      syncPolicy: { automated: {} },
    },
  },
};

const WORKLOADS_APPSET_SPEC = {
  syncPolicy: { preserveResourcesOnDeletion: false },
  generators: [
    {
      clusters: {
        selector: {
          matchExpressions: [
            { key: "akuity.io/argo-cd-cluster-name", operator: "NotIn", values: ["in-cluster"] },
            { key: "environment", operator: "NotIn", values: ["control-plane"] },
          ],
        },
      },
    },
  ],
  template: {
    metadata: { name: "workload-{{name}}" },
    spec: {
      project: "default",
      source: {
        repoURL: "{{metadata.annotations.workload_repo_url}}",
        path: "{{metadata.annotations.workload_repo_basepath}}{{metadata.annotations.workload_repo_path}}",
        targetRevision: "{{metadata.annotations.workload_repo_revision}}",
      },
      destination: { namespace: "workload", name: "{{name}}" },
      syncPolicy: { automated: {}, syncOptions: ["CreateNamespace=true"] },
    },
  },
};

/** A core/v1 Event as the Argo CD controller records one (util/argo/audit_logger.go). */
function argoEvent(
  app: KubeObject,
  d: Destination,
  seed: number,
  reason: string,
  type: "Normal" | "Warning",
  message: string,
  at: number,
  user = "argocd-application-controller",
): KubeObject {
  const name = `${app.metadata.name}.${(BigInt(at) * 1_000_000n + BigInt(reason.length)).toString(16)}`;
  const spec = app.spec as { destination: { server?: string; name?: string; namespace?: string } };
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: {
      name,
      namespace: ARGOCD_NS,
      uid: uuid(`${seed}:${HUB_NAME}:argo-event:${name}`),
      creationTimestamp: iso(at),
      annotations: { "dest-namespace": spec.destination.namespace ?? "", "dest-server": spec.destination.server ?? d.server, user },
    },
    involvedObject: { apiVersion: ARGOCD_API, kind: "Application", name: app.metadata.name, namespace: ARGOCD_NS, uid: app.metadata.uid },
    reason,
    message,
    source: { component: "argocd-application-controller" },
    firstTimestamp: iso(at),
    lastTimestamp: iso(at),
    count: 1,
    type,
    eventTime: null,
    reportingComponent: "",
    reportingInstance: "",
  };
}

export interface ArgoHubInput {
  hub: SpokeSpec;
  fluxSpokes: SpokeSpec[];
  argoSpokes: ArgoSpokeSpec[];
  seed: number;
  epoch: number;
  t: number;
  runtime: RuntimeInfo;
}

/** Every Argo CD object the hub holds at t: namespace, config, project, cluster secrets, ApplicationSets, Applications, Events. */
export function argocdHubObjects({ hub, fluxSpokes, argoSpokes, seed, epoch, t, runtime }: ArgoHubInput): KubeObject[] {
  const rel = t - epoch;
  const installedAt = epoch - 300 * DAY;
  const dests = destinations(hub, fluxSpokes, argoSpokes, runtime, rel);
  const out: KubeObject[] = [
    {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: ARGOCD_NS,
        uid: uuid(`${seed}:${HUB_NAME}:Namespace:${ARGOCD_NS}`),
        creationTimestamp: iso(installedAt),
        labels: { "kubernetes.io/metadata.name": ARGOCD_NS },
      },
      spec: { finalizers: ["kubernetes"] },
      status: { phase: "Active" },
    },
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "argocd-cm",
        namespace: ARGOCD_NS,
        uid: uuid(`${seed}:${HUB_NAME}:ConfigMap:argocd-cm`),
        creationTimestamp: iso(installedAt),
        labels: { "app.kubernetes.io/name": "argocd-cm", "app.kubernetes.io/part-of": "argocd" },
      },
      data: { "timeout.reconciliation": "300s", "application.resourceTrackingMethod": "annotation" },
    },
    {
      apiVersion: ARGOCD_API,
      kind: "AppProject",
      metadata: {
        name: "default",
        namespace: ARGOCD_NS,
        uid: uuid(`${seed}:${HUB_NAME}:AppProject:default`),
        generation: 1,
        creationTimestamp: iso(installedAt),
      },
      spec: { sourceRepos: ["*"], destinations: [{ namespace: "*", server: "*" }], clusterResourceWhitelist: [{ group: "*", kind: "*" }] },
    },
  ];
  for (const d of dests)
    out.push(
      clusterSecret(
        d,
        runtime,
        seed,
        d.kind === "hub" ? installedAt : epoch - Math.floor((40 + unit(`argo-created:${d.name}`) * 200) * DAY) - HOUR,
      ),
    );

  const uidOf = (appSet: string) => uuid(`${seed}:${HUB_NAME}:ApplicationSet:${appSet}`);
  const apps: AppInput[] = [];
  const appSets: KubeObject[] = [];
  for (const def of ADDONS) {
    const generated = dests.filter((d) => d.addons[def.key]).map((d) => addonApp(def, d, seed, epoch, rel, uidOf(def.appSet)));
    apps.push(...generated);
    const lastChange = def.chart === "aws-load-balancer-controller" ? epoch + ARGO_TIMELINE.albUpgrade : installedAt + DAY;
    appSets.push(appSetObject(def.appSet, uidOf(def.appSet), installedAt, addonAppSetSpec(def), generated, lastChange));
  }
  const clusterApps = dests.map((d) => clusterApp(d, seed, epoch, uidOf("clusters")));
  apps.push(...clusterApps);
  appSets.push(
    appSetObject(
      "clusters",
      uidOf("clusters"),
      installedAt,
      CLUSTERS_APPSET_SPEC,
      clusterApps,
      epoch + ARGO_TIMELINE.comparisonErrorSince - 2 * MINUTE,
    ),
  );
  const workloadApps = dests.filter((d) => d.env !== "control-plane").map((d) => workloadApp(d, seed, epoch, rel, uidOf("workloads")));
  apps.push(...workloadApps);
  appSets.push(appSetObject("workloads", uidOf("workloads"), installedAt, WORKLOADS_APPSET_SPEC, workloadApps, installedAt + DAY));
  apps.push(policiesApp(dests[0], seed, epoch, rel));

  out.push(...appSets);
  for (const app of apps) {
    const object = application(app, t, epoch, seed);
    out.push(object);
    out.push(...eventsOf(app, object, seed, t));
  }
  return out;
}

/** Events of the last hour (the apiserver's event TTL) that the controller would have recorded. */
function eventsOf(app: AppInput, object: KubeObject, seed: number, t: number): KubeObject[] {
  const events: KubeObject[] = [];
  const recent = (at: number) => at <= t && at > t - HOUR;
  const op = app.state.operation;
  const revs = (r: string[]) => r.join(",");
  if (op && recent(op.startedAt)) {
    events.push(
      argoEvent(
        object,
        app.destination,
        seed,
        "OperationStarted",
        "Normal",
        `initiated automated sync to '${revs(op.revisions)}'`,
        op.startedAt,
      ),
    );
  }
  if (op && op.finishedAt !== undefined && recent(op.finishedAt) && op.phase !== "Running") {
    const ok = op.phase === "Succeeded";
    events.push(
      argoEvent(
        object,
        app.destination,
        seed,
        "OperationCompleted",
        ok ? "Normal" : "Warning",
        ok ? `Sync operation to ${revs(op.revisions)} succeeded` : `Sync operation to ${revs(op.revisions)} failed: ${op.message}`,
        op.finishedAt,
      ),
    );
  }
  if (app.state.health === "Degraded" && recent(app.state.healthSince)) {
    events.push(
      argoEvent(
        object,
        app.destination,
        seed,
        "ResourceUpdated",
        "Normal",
        "Updated health status: Progressing -> Degraded",
        app.state.healthSince,
      ),
    );
  }
  return events;
}

/** Times (relative to t0) at which the hub's Argo CD objects change besides the reconcile grid. */
export function argocdHubChangeTimes(hub: SpokeSpec, fluxSpokes: SpokeSpec[], argoSpokes: ArgoSpokeSpec[]): number[] {
  const stub: RuntimeInfo = { endpointOf: () => "", caDataOf: () => "", stsEndpoint: "" };
  const times: number[] = [];
  for (const d of destinations(hub, fluxSpokes, argoSpokes, stub, 0)) {
    const delay = noticeDelay(d);
    if (d.env === "prod")
      times.push(ARGO_TIMELINE.albUpgrade + delay, ARGO_TIMELINE.albUpgrade + delay + ARGO_TIMELINE.albProgressDeadline);
    if (d.env === "control-plane") continue;
    const badAt = ARGO_TIMELINE.workloadBadCommit + delay;
    for (let i = 0; i <= RETRY_LIMIT; i++) times.push(attemptStart(badAt, i) + 2 * SECOND);
    times.push(badAt, ARGO_TIMELINE.workloadFixCommit + delay, ARGO_TIMELINE.workloadFixCommit + delay + 12 * SECOND);
  }
  return [...new Set(times)].sort((a, b) => a - b);
}

/** What a spoke only Argo CD knows holds: namespaces, nodes, and the argocd-manager service account when it uses a token. */
export function argoSpokeObjects(spec: ArgoSpokeSpec, seed: number, epoch: number, t: number): KubeObject[] {
  const createdAt = epoch - Math.floor((40 + unit(`argo-created:${spec.name}`) * 200) * DAY) - 2 * HOUR;
  const id = { seed, cluster: spec.name, createdAt };
  const out: KubeObject[] = [];
  const namespaces = ["default", "kube-system", "kube-public", "kube-node-lease", "workload", "cert-manager"];
  for (const ns of namespaces) {
    out.push({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: ns,
        uid: uuid(`${seed}:${spec.name}:Namespace:${ns}`),
        creationTimestamp: iso(createdAt),
        labels: { "kubernetes.io/metadata.name": ns },
      },
      spec: { finalizers: ["kubernetes"] },
      status: { phase: "Active" },
    });
  }
  // The node helpers take a Flux spoke's spec; an index past the Flux range keeps node IPs apart.
  const asSpoke: SpokeSpec = {
    index: 150 + spec.index,
    name: spec.name,
    env: spec.env,
    team: spec.team,
    region: spec.region,
    accountId: spec.accountId,
    version: spec.version,
    provisioning: "eks-only",
    hubFluxRef: false,
    roles: [],
  };
  const addons = managedAddonsAt(asSpoke, t - epoch);
  for (const ng of nodegroupsAt(asSpoke, t - epoch)) {
    nodeNames(asSpoke, ng, seed).forEach((name, i) => out.push(nodeObject(id, asSpoke, ng, name, i, epoch + ng.modifiedAt, addons)));
  }
  if (spec.auth === "bearer") {
    const token = argoManagerToken(seed, spec.name);
    out.push({
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: {
        name: "argocd-manager",
        namespace: "kube-system",
        uid: uuid(`${seed}:sa:${spec.name}`),
        creationTimestamp: iso(createdAt + HOUR),
      },
    });
    out.push({
      apiVersion: "v1",
      kind: "Secret",
      type: "kubernetes.io/service-account-token",
      metadata: {
        name: "argocd-manager-token",
        namespace: "kube-system",
        uid: uuid(`${seed}:sa-secret:${spec.name}`),
        creationTimestamp: iso(createdAt + HOUR),
        annotations: {
          "kubernetes.io/service-account.name": "argocd-manager",
          "kubernetes.io/service-account.uid": uuid(`${seed}:sa:${spec.name}`),
        },
      },
      data: { namespace: b64("kube-system"), token: b64(token) },
    });
  }
  return out;
}

/** Names for documentation, tests and the ScenarioFacts. */
export function argocdFacts(hub: SpokeSpec, fluxSpokes: SpokeSpec[], argoSpokes: ArgoSpokeSpec[]) {
  const stub: RuntimeInfo = { endpointOf: () => "", caDataOf: () => "", stsEndpoint: "" };
  const dests = destinations(hub, fluxSpokes, argoSpokes, stub, 0);
  const prod = dests.filter((d) => d.env === "prod" && d.addons.aws_load_balancer_controller);
  return {
    namespace: ARGOCD_NS,
    fluxSpokes: dests.filter((d) => d.kind === "flux-spoke").map((d) => d.name),
    argoOnly: argoSpokes.map((s) => ({ name: s.name, auth: s.auth })),
    degradedAddon: {
      applicationSet: "addons-aws-load-balancer-controller",
      chartVersion: addonChartVersion("aws-load-balancer-controller", "prod"),
      applications: prod.map((d) => `addon-${d.name}-aws-load-balancer-controller`),
    },
    syncError: {
      applicationSet: "workloads",
      applications: dests.filter((d) => d.env !== "control-plane").map((d) => `workload-${d.name}`),
    },
    comparisonError: dests.filter((d) => !d.clusterDirectory).map((d) => `cluster-${d.name}`),
    outOfSyncManual: "cluster-policies",
  };
}
