// The past-extended-support spoke (ROLE_INDEX.pastExtendedSupport): a cluster left on Kubernetes 1.27, a
// year past the end of extended support, with the add-on shapes that go with such a cluster:
//
// - podinfo pulled from an OCI HelmRepository (`type: oci`, oci://ghcr.io/stefanprodan/charts: the chart
//   the source-controller docs use) while every other spoke pulls it over HTTPS: one chart, two sources;
// - metrics-server whose Helm install failed (someone installed it by hand before Flux): the release is
//   stalled after its one attempt and its history holds only the failed release, nothing deployed;
// - Karpenter's FlowSchemas rendered as flowcontrol.apiserver.k8s.io/v1beta3 (the newest the 1.27 API
//   server serves), an API removed in 1.32: an upcoming removal, not a blocker for 1.28.
import type { KubeObject } from "../contract";
import type { HelmAddon } from "./catalogue";
import { FLUX_NS, condition, meta, type Condition, type HelmSnapshot, type ObjectIdentity } from "./flux";
import { DAY, HOUR } from "./timeline";
import type { SpokeSpec } from "./topology";

const isOldCluster = (spec: SpokeSpec) => spec.roles.includes("past-extended-support");

export interface AddonSource {
  kind: "HelmRepository" | "OCIRepository";
  name: string;
  url: string;
  /** An OCI HelmRepository: a static data container (no artifact, empty status). */
  type?: "oci";
}

/** podinfo's chart is published over HTTPS and to GitHub's OCI registry; this spoke takes the OCI one. */
export const PODINFO_OCI: AddonSource = { kind: "HelmRepository", name: "podinfo", url: "oci://ghcr.io/stefanprodan/charts", type: "oci" };

/** Charts some spoke pulls from another repository than the catalogue's (the chart mirror serves them too). */
export const ALTERNATIVE_SOURCES: readonly { chart: string; source: AddonSource }[] = [{ chart: "podinfo", source: PODINFO_OCI }];

/** Where this spoke pulls the add-on's chart from. */
export function addonSource(spec: SpokeSpec, addon: HelmAddon): AddonSource {
  if (isOldCluster(spec) && addon.name === "podinfo") return PODINFO_OCI;
  return addon.source;
}

/** A HelmRepository of type oci as source-controller leaves it: never reconciled, so no status at all. */
export function ociHelmRepository(id: ObjectIdentity, source: AddonSource, labels: Record<string, string>): KubeObject {
  return {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "HelmRepository",
    metadata: meta(id, "HelmRepository", FLUX_NS, source.name, { generation: 1, labels }),
    spec: { interval: "24h0m0s", type: "oci", url: source.url },
    status: {},
  };
}

/** The release whose Helm install failed on this spoke. */
export function failsToInstall(spec: SpokeSpec, addon: HelmAddon): boolean {
  return isOldCluster(spec) && addon.name === "metrics-server";
}

/** When the install was attempted, relative to t0 (long enough ago for its Event to have expired). */
export const FAILED_INSTALL_AT = -3 * DAY - 5 * HOUR;

/** Helm's error for a resource that exists without the release's ownership labels (helm/pkg/action validate.go). */
function existingResourceError(namespace: string, name: string): string {
  return (
    `rendered manifests contain a resource that already exists. Unable to continue with install: ServiceAccount "${name}" in namespace "${namespace}" exists ` +
    `and cannot be imported into the current release: invalid ownership metadata; label validation error: missing key "app.kubernetes.io/managed-by": ` +
    `must be set to "Helm"; annotation validation error: missing key "meta.helm.sh/release-name": must be set to "${name}"; ` +
    `annotation validation error: missing key "meta.helm.sh/release-namespace": must be set to "${namespace}"`
  );
}

export interface FailedInstall {
  conditions: Condition[];
  history: HelmSnapshot[];
  lastAttemptedRevision: string;
  failures: number;
  installFailures: number;
  /** spec.install.remediation.retries: none, so one attempt and the failed release stays. */
  installRetries: number;
}

/**
 * A first install that failed with no retries left (helm-controller: Released/Ready False InstallFailed,
 * Stalled True RetriesExceeded "Failed to install after 1 attempt(s)"). The failed release is recorded
 * in status.history (status "failed", action "install"); none was ever deployed.
 */
export function failedInstall(addon: HelmAddon, version: string, appVersion: string, epoch: number, generation: number): FailedInstall {
  const at = epoch + FAILED_INSTALL_AT;
  const message = `Helm install failed for release ${addon.namespace}/${addon.name} with chart ${addon.chart}@${version}: ${existingResourceError(addon.namespace, addon.name)}`;
  return {
    conditions: [
      condition("Stalled", "True", "RetriesExceeded", "Failed to install after 1 attempt(s)", at + 2_000, generation),
      condition("Ready", "False", "InstallFailed", message, at + 2_000, generation),
      condition("Released", "False", "InstallFailed", message, at + 2_000, generation),
    ],
    history: [
      {
        version: 1,
        status: "failed",
        chartName: addon.chart,
        chartVersion: version,
        appVersion,
        firstDeployed: at,
        lastDeployed: at,
        action: "install",
      },
    ],
    lastAttemptedRevision: version,
    failures: 1,
    installFailures: 1,
    installRetries: 0,
  };
}

/** Inventory entries this spoke's release of the add-on holds besides its workload. */
export function extraInventory(spec: SpokeSpec, addon: HelmAddon): { id: string; v: string }[] {
  if (!isOldCluster(spec) || addon.name !== "karpenter") return [];
  // The chart renders its FlowSchemas with the newest flowcontrol API the cluster serves: v1beta3 on 1.27.
  return ["karpenter-leader-election", "karpenter-workload"].map((name) => ({
    id: `_${name}_flowcontrol.apiserver.k8s.io_FlowSchema`,
    v: "v1beta3",
  }));
}
