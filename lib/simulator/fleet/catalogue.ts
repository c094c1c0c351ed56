// Static facts the simulated fleet is built from: the EKS version calendar, managed add-on versions and a
// catalogue of Helm add-ons with the repositories real platforms install them from.

const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

export interface EksVersionInfo {
  version: string;
  releaseDate: number;
  endOfStandardSupport: number;
  endOfExtendedSupport: number;
  /** Newest patch EKS runs for this minor. */
  patch: string;
  /** Newest platform version (eks.N). */
  platformVersion: string;
  /** Suffix of the server gitVersion, e.g. v1.33.5-eks-3025e55. */
  buildSuffix: string;
  /** AMI release date used in node group releaseVersion (<patch>-<yyyymmdd>). */
  amiRelease: string;
}

/**
 * Amazon EKS release calendar (dates UTC, from the EKS user guide). 1.27 is long past end of extended
 * support: the EKS API still describes clusters running it, and lists it as UNSUPPORTED when asked for all
 * versions (DescribeClusterVersions includeAll); the past-extended-support spoke runs it.
 */
export const EKS_VERSIONS: readonly EksVersionInfo[] = [
  {
    version: "1.27",
    releaseDate: day(2023, 5, 24),
    endOfStandardSupport: day(2024, 7, 24),
    endOfExtendedSupport: day(2025, 7, 24),
    patch: "1.27.16",
    platformVersion: "eks.41",
    buildSuffix: "2f0b4c7",
    amiRelease: "20250715",
  },
  {
    version: "1.28",
    releaseDate: day(2023, 9, 26),
    endOfStandardSupport: day(2024, 11, 26),
    endOfExtendedSupport: day(2025, 11, 26),
    patch: "1.28.15",
    platformVersion: "eks.49",
    buildSuffix: "4c4b5e1",
    amiRelease: "20251103",
  },
  {
    version: "1.29",
    releaseDate: day(2024, 1, 23),
    endOfStandardSupport: day(2025, 3, 23),
    endOfExtendedSupport: day(2026, 3, 23),
    patch: "1.29.15",
    platformVersion: "eks.45",
    buildSuffix: "b3c8a6f",
    amiRelease: "20260210",
  },
  {
    version: "1.30",
    releaseDate: day(2024, 5, 23),
    endOfStandardSupport: day(2025, 7, 23),
    endOfExtendedSupport: day(2026, 7, 23),
    patch: "1.30.14",
    platformVersion: "eks.52",
    buildSuffix: "e7d1c09",
    amiRelease: "20260701",
  },
  {
    version: "1.31",
    releaseDate: day(2024, 9, 26),
    endOfStandardSupport: day(2025, 11, 26),
    endOfExtendedSupport: day(2026, 11, 26),
    patch: "1.31.14",
    platformVersion: "eks.48",
    buildSuffix: "9a1f3d2",
    amiRelease: "20261104",
  },
  {
    version: "1.32",
    releaseDate: day(2025, 1, 23),
    endOfStandardSupport: day(2026, 3, 23),
    endOfExtendedSupport: day(2027, 3, 23),
    patch: "1.32.11",
    platformVersion: "eks.33",
    buildSuffix: "5f2e8b7",
    amiRelease: "20261110",
  },
  {
    version: "1.33",
    releaseDate: day(2025, 5, 29),
    endOfStandardSupport: day(2026, 7, 29),
    endOfExtendedSupport: day(2027, 7, 29),
    patch: "1.33.7",
    platformVersion: "eks.26",
    buildSuffix: "3025e55",
    amiRelease: "20261110",
  },
  {
    version: "1.34",
    releaseDate: day(2025, 10, 2),
    endOfStandardSupport: day(2026, 12, 2),
    endOfExtendedSupport: day(2027, 12, 2),
    patch: "1.34.4",
    platformVersion: "eks.17",
    buildSuffix: "c8e2a41",
    amiRelease: "20261114",
  },
  {
    version: "1.35",
    releaseDate: day(2026, 1, 28),
    endOfStandardSupport: day(2027, 3, 27),
    endOfExtendedSupport: day(2028, 3, 27),
    patch: "1.35.2",
    platformVersion: "eks.9",
    buildSuffix: "1d7b9f3",
    amiRelease: "20261114",
  },
];

/** The version EKS creates clusters with when none is given. */
export const EKS_DEFAULT_VERSION = "1.34";

export function eksVersion(version: string): EksVersionInfo {
  const info = EKS_VERSIONS.find((v) => v.version === version);
  if (!info) throw new Error(`unknown EKS version ${version}`);
  return info;
}

export function nextMinor(version: string): string {
  const [major, minor] = version.split(".").map(Number);
  return `${major}.${minor + 1}`;
}

export function previousMinor(version: string): string {
  const [major, minor] = version.split(".").map(Number);
  return `${major}.${minor - 1}`;
}

export type VersionStatus = "STANDARD_SUPPORT" | "EXTENDED_SUPPORT" | "UNSUPPORTED";

export function versionStatusAt(info: EksVersionInfo, ms: number): VersionStatus {
  if (ms < info.endOfStandardSupport) return "STANDARD_SUPPORT";
  if (ms < info.endOfExtendedSupport) return "EXTENDED_SUPPORT";
  return "UNSUPPORTED";
}

// ---------------------------------------------------------------------------------------------------
// EKS managed add-ons: versions per Kubernetes minor, newest first; the first is the default.

export interface ManagedAddonInfo {
  name: string;
  /** version list per Kubernetes minor (newest first, first = default) */
  versions: Record<string, string[]>;
  type: string;
  namespace: string;
}

const allMinors = EKS_VERSIONS.map((v) => v.version);
const same = (versions: string[]) => Object.fromEntries(allMinors.map((m) => [m, versions]));

export const MANAGED_ADDONS: readonly ManagedAddonInfo[] = [
  {
    name: "vpc-cni",
    type: "networking",
    namespace: "kube-system",
    versions: same(["v1.20.5-eksbuild.1", "v1.20.4-eksbuild.2", "v1.19.6-eksbuild.7", "v1.18.6-eksbuild.1"]),
  },
  {
    name: "coredns",
    type: "networking",
    namespace: "kube-system",
    versions: {
      "1.27": ["v1.10.1-eksbuild.38", "v1.10.1-eksbuild.33"],
      "1.28": ["v1.10.1-eksbuild.38", "v1.10.1-eksbuild.33"],
      "1.29": ["v1.11.4-eksbuild.24", "v1.11.1-eksbuild.16"],
      "1.30": ["v1.11.4-eksbuild.24", "v1.11.3-eksbuild.2"],
      "1.31": ["v1.11.4-eksbuild.24", "v1.11.3-eksbuild.2"],
      "1.32": ["v1.11.4-eksbuild.24", "v1.11.4-eksbuild.2"],
      "1.33": ["v1.12.4-eksbuild.1", "v1.12.1-eksbuild.2", "v1.11.4-eksbuild.24"],
      "1.34": ["v1.12.4-eksbuild.1", "v1.12.3-eksbuild.1"],
      "1.35": ["v1.13.1-eksbuild.1", "v1.12.4-eksbuild.1"],
    },
  },
  {
    name: "kube-proxy",
    type: "networking",
    namespace: "kube-system",
    versions: Object.fromEntries(
      EKS_VERSIONS.map((v) => {
        const [maj, min, patch] = v.patch.split(".").map(Number);
        return [v.version, [`v${maj}.${min}.${patch}-eksbuild.3`, `v${maj}.${min}.${Math.max(0, patch - 2)}-eksbuild.6`]];
      }),
    ),
  },
  {
    name: "aws-ebs-csi-driver",
    type: "storage",
    namespace: "kube-system",
    versions: same(["v1.52.1-eksbuild.1", "v1.51.1-eksbuild.1", "v1.48.0-eksbuild.2", "v1.45.0-eksbuild.2"]),
  },
  {
    name: "eks-pod-identity-agent",
    type: "security",
    namespace: "kube-system",
    versions: same(["v1.3.10-eksbuild.1", "v1.3.9-eksbuild.3", "v1.3.8-eksbuild.2"]),
  },
];

// ---------------------------------------------------------------------------------------------------
// Helm add-ons installed by Flux. Versions newest first; index 0 is "current upstream".

export interface HelmAddon {
  /** HelmRelease name and namespace */
  name: string;
  namespace: string;
  chart: string;
  /** HelmRepository (https) or OCIRepository (oci) source */
  source: { kind: "HelmRepository" | "OCIRepository"; name: string; url: string };
  /** newest first: [latest, patch behind, minor behind, major behind] */
  versions: string[];
  /** app version per chart version (same index) */
  appVersions: string[];
  /** main workload, for inventories and health messages */
  workload: { kind: "Deployment" | "DaemonSet" | "StatefulSet"; name: string };
  dependsOn?: string[];
}

export const HELM_ADDONS: readonly HelmAddon[] = [
  {
    name: "cert-manager",
    namespace: "cert-manager",
    chart: "cert-manager",
    source: { kind: "HelmRepository", name: "jetstack", url: "https://charts.jetstack.io" },
    versions: ["v1.19.1", "v1.19.0", "v1.18.2", "v1.15.5"],
    appVersions: ["v1.19.1", "v1.19.0", "v1.18.2", "v1.15.5"],
    workload: { kind: "Deployment", name: "cert-manager" },
  },
  {
    name: "ingress-nginx",
    namespace: "ingress-nginx",
    chart: "ingress-nginx",
    source: { kind: "HelmRepository", name: "ingress-nginx", url: "https://kubernetes.github.io/ingress-nginx" },
    versions: ["4.13.3", "4.13.2", "4.12.4", "3.41.0"],
    appVersions: ["1.13.3", "1.13.2", "1.12.4", "0.51.0"],
    workload: { kind: "Deployment", name: "ingress-nginx-controller" },
    dependsOn: ["cert-manager"],
  },
  {
    name: "kube-prometheus-stack",
    namespace: "monitoring",
    chart: "kube-prometheus-stack",
    source: { kind: "HelmRepository", name: "prometheus-community", url: "https://prometheus-community.github.io/helm-charts" },
    versions: ["79.5.0", "79.4.1", "77.14.0", "69.8.2"],
    appVersions: ["v0.86.2", "v0.86.1", "v0.85.0", "v0.80.1"],
    workload: { kind: "Deployment", name: "kube-prometheus-stack-operator" },
  },
  {
    name: "podinfo",
    namespace: "podinfo",
    chart: "podinfo",
    source: { kind: "HelmRepository", name: "podinfo", url: "https://stefanprodan.github.io/podinfo" },
    versions: ["6.9.2", "6.9.1", "6.8.0", "5.2.1"],
    appVersions: ["6.9.2", "6.9.1", "6.8.0", "5.2.1"],
    workload: { kind: "Deployment", name: "podinfo" },
  },
  {
    name: "metrics-server",
    namespace: "kube-system",
    chart: "metrics-server",
    source: { kind: "HelmRepository", name: "metrics-server", url: "https://kubernetes-sigs.github.io/metrics-server/" },
    versions: ["3.13.0", "3.12.2", "3.12.1", "2.11.4"],
    appVersions: ["0.8.0", "0.7.2", "0.7.1", "0.3.6"],
    workload: { kind: "Deployment", name: "metrics-server" },
  },
  {
    name: "karpenter",
    namespace: "kube-system",
    chart: "karpenter",
    source: { kind: "OCIRepository", name: "karpenter", url: "oci://public.ecr.aws/karpenter/karpenter" },
    versions: ["1.8.1", "1.8.0", "1.6.3", "0.37.7"],
    appVersions: ["1.8.1", "1.8.0", "1.6.3", "0.37.7"],
    workload: { kind: "Deployment", name: "karpenter" },
  },
  {
    name: "aws-load-balancer-controller",
    namespace: "kube-system",
    chart: "aws-load-balancer-controller",
    source: { kind: "HelmRepository", name: "eks-charts", url: "https://aws.github.io/eks-charts" },
    versions: ["1.14.1", "1.14.0", "1.13.4", "0.1.2"],
    appVersions: ["v2.14.1", "v2.14.0", "v2.13.4", "v1.1.8"],
    workload: { kind: "Deployment", name: "aws-load-balancer-controller" },
    dependsOn: ["cert-manager"],
  },
  {
    name: "external-dns",
    namespace: "external-dns",
    chart: "external-dns",
    source: { kind: "HelmRepository", name: "external-dns", url: "https://kubernetes-sigs.github.io/external-dns/" },
    versions: ["1.19.0", "1.18.0", "1.16.1", "1.14.5"],
    appVersions: ["0.19.0", "0.18.0", "0.16.1", "0.14.2"],
    workload: { kind: "Deployment", name: "external-dns" },
  },
  {
    name: "external-secrets",
    namespace: "external-secrets",
    chart: "external-secrets",
    source: { kind: "HelmRepository", name: "external-secrets", url: "https://charts.external-secrets.io" },
    versions: ["1.1.0", "1.0.1", "0.20.4", "0.19.2"],
    appVersions: ["v1.1.0", "v1.0.1", "v0.20.4", "v0.19.2"],
    workload: { kind: "Deployment", name: "external-secrets" },
  },
  {
    name: "kyverno",
    namespace: "kyverno",
    chart: "kyverno",
    source: { kind: "HelmRepository", name: "kyverno", url: "https://kyverno.github.io/kyverno/" },
    versions: ["3.5.2", "3.5.1", "3.4.4", "2.7.5"],
    appVersions: ["v1.15.2", "v1.15.1", "v1.14.4", "v1.9.5"],
    workload: { kind: "Deployment", name: "kyverno-admission-controller" },
  },
  {
    name: "keda",
    namespace: "keda",
    chart: "keda",
    source: { kind: "HelmRepository", name: "kedacore", url: "https://kedacore.github.io/charts" },
    versions: ["2.18.1", "2.18.0", "2.17.2", "1.5.0"],
    appVersions: ["2.18.1", "2.18.0", "2.17.2", "1.5.0"],
    workload: { kind: "Deployment", name: "keda-operator" },
  },
  {
    name: "velero",
    namespace: "velero",
    chart: "velero",
    source: { kind: "HelmRepository", name: "vmware-tanzu", url: "https://vmware-tanzu.github.io/helm-charts" },
    versions: ["11.1.1", "11.1.0", "10.1.3", "8.7.2"],
    appVersions: ["1.17.1", "1.17.0", "1.16.2", "1.14.1"],
    workload: { kind: "Deployment", name: "velero" },
  },
  {
    name: "fluent-bit",
    namespace: "logging",
    chart: "fluent-bit",
    source: { kind: "HelmRepository", name: "fluent", url: "https://fluent.github.io/helm-charts" },
    versions: ["0.54.0", "0.53.1", "0.52.0", "0.21.7"],
    appVersions: ["4.1.1", "4.1.0", "4.0.7", "2.0.11"],
    workload: { kind: "DaemonSet", name: "fluent-bit" },
  },
  {
    name: "reloader",
    namespace: "reloader",
    chart: "reloader",
    source: { kind: "HelmRepository", name: "stakater", url: "https://stakater.github.io/stakater-charts" },
    versions: ["2.2.5", "2.2.4", "2.1.5", "1.4.10"],
    appVersions: ["v1.4.10", "v1.4.9", "v1.3.0", "v1.0.121"],
    workload: { kind: "Deployment", name: "reloader-reloader" },
  },
];

/** Application services deployed by the `apps` and `app-*` Kustomizations. */
export const APP_SERVICES = [
  "checkout",
  "payments",
  "catalog",
  "cart",
  "orders",
  "search",
  "recommendations",
  "shipping",
  "inventory",
  "notifications",
  "accounts",
  "pricing",
  "reviews",
  "media",
  "gateway",
  "auth",
  "billing",
  "reporting",
  "ledger",
  "fulfilment",
  "loyalty",
  "promotions",
  "returns",
  "warehouse",
  "analytics",
  "audit",
  "tax",
  "currency",
  "quotes",
  "subscriptions",
];
