// A HelmRelease as the upgrade pages count it: in the column of the cluster it installs into (a hub release
// with spec.kubeConfig deploys into a spoke, recorded by the collector as its target), at the chart version
// Helm deployed. The version it last attempted, or the one its spec asks for, is never shown as installed:
// attempted is not deployed, and a release not installed yet has no version.
import type { HelmInstallation } from "./addon-matrix";

export interface StoredHelmRelease {
  /** The cluster holding the HelmRelease object. */
  holder: string;
  /** The cluster it deploys into when that is another one (flux_object.targetClusterId), else null. */
  target: string | null;
  namespace: string;
  name: string;
  chart: string;
  repositoryUrl: string | null;
  /** spec.chart.spec.version. */
  desired: string | null;
  /** Chart version of the newest release Helm records as deployed; null when none is. */
  deployed: string | null;
  /** Stored health. */
  health: string;
}

const FAILING = new Set(["failing", "stalled"]);

export function helmInstallation(r: StoredHelmRelease): HelmInstallation {
  return {
    cluster: r.target ?? r.holder,
    objectCluster: r.holder,
    namespace: r.namespace,
    name: r.name,
    chart: r.chart,
    repositoryUrl: r.repositoryUrl,
    desired: r.desired,
    applied: r.deployed,
    failing: FAILING.has(r.health),
  };
}
