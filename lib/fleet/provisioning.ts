// Crossplane resources that provision a cluster: what each one is doing (creating, available, upgrading,
// failed...) read from its conditions as crossplane-runtime, provider-aws and upjet write them, and whether
// the cluster as a whole is still being provisioned. Pure: the collector stores the verdicts, pages read them.
//
// What the providers really write (crossplane-runtime v1.20/v2.2, provider-aws v0.58, upjet v2.4):
// - Ready False `Creating` while the cloud resource is created (provider-aws also `atProvider.status: CREATING`;
//   upjet leaves `atProvider` empty for the whole creation).
// - provider-aws shows Ready False `Unavailable` for any AWS status but ACTIVE: `UPDATING` during a version
//   upgrade is no failure; FAILED / CREATE_FAILED / DEGRADED are.
// - upjet keeps Ready True during an upgrade; "upgrade in progress" is desired version ≠ observed one.
// - Synced False `ReconcileError` carries the error; upjet may report a failed create as LastAsyncOperation
//   False `AsyncCreateFailure` while Synced is still True.
// - While the cluster is created, dependants fail on purpose: a NodeGroup "cannot resolve references …
//   referenced field was empty", a ClusterAuth "ca data from the retrieved cluster is empty". That is waiting.
// - The connection secret exists, empty, from the first reconcile: only a kubeconfig in it means reachable.
import { compareVersions, kubernetesMinor } from "../upgrades/versions";
import type { ConditionLike } from "./status";

export type ProvisionerState = "creating" | "waiting" | "available" | "updating" | "failed" | "deleting" | "paused";

export interface ProvisionerInput {
  kind: string;
  conditions: ConditionLike[];
  /** status.atProvider.status */
  eksStatus: string | null;
  /** spec.forProvider.version and status.atProvider.version */
  desiredVersion: string | null;
  version: string | null;
}

export interface ProvisionerVerdict {
  state: ProvisionerState;
  /** The condition reason behind the verdict. */
  reason: string | null;
  message: string | null;
  /** When the deciding condition last changed (ISO). */
  since: string | null;
}

export type ClusterProvisioning = "creating" | "failed";

/** A provisioning state read back as text (a value this version does not know reads as none). */
export function parseProvisioning(value: string | null | undefined): ClusterProvisioning | null {
  return value === "creating" || value === "failed" ? value : null;
}

const WAITING_FOR_CLUSTER = [
  /referenced field was empty/i,
  /referenced resource may not yet be ready/i,
  /ca data from the retrieved cluster is empty/i,
  /cluster .* is not (yet )?(active|ready)/i,
];

const ASYNC_FAILURES = new Set(["AsyncCreateFailure", "AsyncUpdateFailure", "AsyncDeleteFailure", "ApplyFailure", "DestroyFailure"]);

const find = (r: ProvisionerInput, type: string) => r.conditions.find((c) => c.type === type);

const verdict = (state: ProvisionerState, c: ConditionLike | undefined, reason?: string | null, message?: string | null) => ({
  state,
  reason: reason !== undefined ? reason : (c?.reason ?? null),
  message: message !== undefined ? message : (c?.message ?? null),
  since: c?.lastTransitionTime ?? null,
});

/** The desired control-plane version is ahead of the one the provider observes. */
export function upgradeInProgress(desired: string | null, observed: string | null): boolean {
  const d = kubernetesMinor(desired);
  const o = kubernetesMinor(observed);
  return !!d && !!o && compareVersions(d, o) > 0;
}

/**
 * What one Crossplane resource is doing. `clusterCreated` says whether the cluster itself exists yet: a
 * dependant waiting for an unfinished cluster is waiting, the same error once the cluster is up is a failure.
 */
export function provisionerVerdict(r: ProvisionerInput, clusterCreated: boolean): ProvisionerVerdict {
  const ready = find(r, "Ready");
  const synced = find(r, "Synced");
  const lastAsync = find(r, "LastAsyncOperation");
  const status = r.eksStatus?.toUpperCase() ?? null;

  if (ready?.status === "False" && ready.reason === "Deleting") return verdict("deleting", ready);
  if (synced?.status === "False" && synced.reason === "ReconcilePaused") return verdict("paused", synced);
  if (lastAsync?.status === "False" && lastAsync.reason && ASYNC_FAILURES.has(lastAsync.reason)) return verdict("failed", lastAsync);
  if (synced?.status === "False") {
    const waiting = !clusterCreated && WAITING_FOR_CLUSTER.some((re) => re.test(synced.message ?? ""));
    return verdict(waiting ? "waiting" : "failed", synced, synced.reason ?? "ReconcileError");
  }
  if (ready?.status === "True") {
    const upgrading = status === "UPDATING" || upgradeInProgress(r.desiredVersion, r.version);
    return upgrading
      ? verdict("updating", ready, "Upgrading", `version ${r.version ?? "?"} → ${r.desiredVersion ?? "?"}`)
      : verdict("available", ready);
  }
  if (ready?.status === "False") {
    if (ready.reason === "Creating" || status === "CREATING") return verdict("creating", ready);
    if (ready.reason === "Unavailable") {
      if (status === "UPDATING")
        return verdict(
          "updating",
          ready,
          "Upgrading",
          `atProvider.status UPDATING (version ${r.version ?? "?"} → ${r.desiredVersion ?? "?"})`,
        );
      if (status === "PENDING") return verdict("creating", ready);
      return verdict("failed", ready, "Unavailable", ready.message ?? (status ? `atProvider.status ${status}` : "not available"));
    }
    return verdict("failed", ready);
  }
  // No verdict from the provider yet (just created, or its provider is not running).
  return verdict("creating", ready ?? synced, ready?.reason ?? null, null);
}

export interface ClusterProvisioningInput extends ProvisionerInput {
  /** The connection secret this resource writes (null: it names none, or it was not read). */
  secret: "missing" | "empty" | "kubeconfig" | null;
}

export interface ClusterProvisioningResult {
  /** null: not being provisioned (reachable through a kubeconfig, or nothing Crossplane says stops it). */
  state: ClusterProvisioning | null;
  /** The version the cluster is asked to run. */
  desiredVersion: string | null;
  verdicts: ProvisionerVerdict[];
}

/** The cluster, seen through every Crossplane resource that provisions it. */
export function clusterProvisioning(resources: ClusterProvisioningInput[], reachableOtherwise = false): ClusterProvisioningResult {
  // A Cluster (either provider) or a composite is the cluster; a ClusterAuth only publishes its kubeconfig.
  const primary = (r: ClusterProvisioningInput) => r.kind !== "ClusterAuth";
  const created = resources.some(
    (r) => primary(r) && (find(r, "Ready")?.status === "True" || ["ACTIVE", "UPDATING"].includes(r.eksStatus?.toUpperCase() ?? "")),
  );
  const verdicts = resources.map((r) => provisionerVerdict(r, created));
  const desiredVersion = resources.find((r) => primary(r) && r.desiredVersion)?.desiredVersion ?? null;
  const hasKubeconfig = reachableOtherwise || resources.some((r) => r.secret === "kubeconfig");
  if (hasKubeconfig || resources.length === 0) return { state: null, desiredVersion, verdicts };
  // Nothing to reach it through yet: failing to get there, or on the way.
  if (verdicts.some((v) => v.state === "failed")) return { state: "failed", desiredVersion, verdicts };
  const onTheWay = verdicts.some((v, i) => primary(resources[i]) && (v.state === "creating" || v.state === "waiting"));
  // The cluster is up but its kubeconfig is not published yet (ClusterAuth still waiting): still provisioning.
  const publishing = created && resources.some((r) => r.secret === "empty" || r.secret === "missing");
  return { state: onTheWay || publishing ? "creating" : null, desiredVersion, verdicts };
}
