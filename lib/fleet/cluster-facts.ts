// A cluster's EKS facts (version, platform version, status, ARN, node groups) come from the EKS API when we
// may call it, else from the Crossplane resources that provision it (their status.atProvider), and the
// Kubernetes version from the API server's /version. Which source said what is kept and shown; the EKS API
// wins when both speak. Pure: the collector decides what to store, pages describe what was stored.
import { controlPlaneMinor } from "../upgrades/versions";
import { versionKnowledge, type VersionKnowledge } from "../upgrades/known-version";
import { isReachable, type Reachability } from "./status";
import { upgradeInProgress } from "./provisioning";

export type FactSource = "eks-api" | "crossplane" | "kubernetes";

export const FACT_SOURCE_LABELS: Record<FactSource, string> = {
  "eks-api": "EKS API",
  crossplane: "Crossplane",
  kubernetes: "Kubernetes /version",
};

/** The EKS facts one Crossplane resource observed (status.atProvider) and asked for (spec.forProvider.version). */
export interface CrossplaneObservation {
  kind: string;
  desiredVersion: string | null;
  eksArn: string | null;
  version: string | null;
  platformVersion: string | null;
  eksStatus: string | null;
  supportType: string | null;
}

export interface CrossplaneEksFacts {
  eksArn: string | null;
  version: string | null;
  platformVersion: string | null;
  eksStatus: string | null;
  supportType: string | null;
  desiredVersion: string | null;
}

/**
 * The cluster's EKS facts as Crossplane knows them: a managed Cluster's atProvider first (composites carry
 * none of their own), each fact from the first resource that has it. Null when no resource observed anything.
 */
export function crossplaneEksFacts(resources: CrossplaneObservation[]): CrossplaneEksFacts | null {
  const ordered = [...resources.filter((r) => r.kind === "Cluster"), ...resources.filter((r) => r.kind !== "Cluster")];
  const first = <K extends keyof CrossplaneObservation>(key: K) => ordered.map((r) => r[key]).find((v) => v != null) ?? null;
  const facts: CrossplaneEksFacts = {
    eksArn: first("eksArn"),
    version: first("version"),
    platformVersion: first("platformVersion"),
    eksStatus: first("eksStatus"),
    supportType: first("supportType"),
    desiredVersion: first("desiredVersion"),
  };
  return Object.values(facts).some((v) => v != null) ? facts : null;
}

/**
 * Whether Crossplane's facts may replace what is stored: when nothing came from the EKS API, or when the EKS
 * API stopped answering for this cluster (access removed). The EKS API wins whenever it answers.
 */
export function crossplaneMayWrite(stored: { eksFactsSource: string | null; eksError: string | null }): boolean {
  return stored.eksFactsSource !== "eks-api" || stored.eksError !== null;
}

export interface VersionFactsInput {
  reachability: Reachability;
  /** Stored EKS version and where it came from ("eks-api" | "crossplane"). */
  eksVersion: string | null;
  eksFactsSource: string | null;
  /** The EKS API's last refusal for this cluster (AccessDenied…), null while it answers. */
  eksError: string | null;
  /** The API server's gitVersion, as last read. */
  kubernetesVersion: string | null;
  lastSuccessAt: Date | string | null;
  lastErrorKind: string | null;
  lastError: string | null;
  lastVersionChangeAt?: Date | string | null;
  /** The hub answered the last discovery: what Crossplane says is current. */
  hubReachable: boolean;
  /** Crossplane is creating the cluster (or failed to), with the version it was asked for. */
  provisioning: "creating" | "failed" | null;
  desiredVersion: string | null;
}

/** What we know of a cluster's version, with the source of the fact, what is asked for and whether an upgrade runs. */
export interface ClusterVersionKnowledge extends VersionKnowledge {
  /** Where the version shown came from; null when there is none. */
  from: FactSource | null;
  /** The version Crossplane is asked to run (spec.forProvider.version), when it manages the cluster. */
  desiredVersion: string | null;
  /** Desired ahead of the running version. */
  upgradeInProgress: boolean;
  /** The EKS API may be asked about this cluster (it answered the last time). */
  eksAccess: boolean;
}

const firstLine = (text: string | null) => {
  const line = text?.split("\n")[0]?.trim();
  return line ? (line.length > 160 ? `${line.slice(0, 157)}…` : line) : null;
};

/**
 * The version a page and the upgrade figures show for a cluster, and how sure it is: observed now (from the
 * EKS API, from Crossplane while the hub answers, or from the reachable API server), the last known one with
 * its age, the desired one of a cluster being created, or unknown and why.
 */
export function clusterVersionKnowledge(input: VersionFactsInput, now: Date): ClusterVersionKnowledge {
  const eksAccess = input.eksFactsSource === "eks-api" && input.eksError === null;
  const eksSource: FactSource | null =
    input.eksFactsSource === "eks-api" || input.eksFactsSource === "crossplane" ? input.eksFactsSource : null;
  const version = controlPlaneMinor(input.eksVersion, input.kubernetesVersion);
  const from: FactSource | null = !version
    ? null
    : eksSource && controlPlaneMinor(input.eksVersion, null) === version
      ? eksSource
      : "kubernetes";
  const running = version;
  const extra = {
    desiredVersion: input.desiredVersion,
    upgradeInProgress: !input.provisioning && upgradeInProgress(input.desiredVersion, running),
    eksAccess,
  };

  if (input.provisioning) {
    const k = versionKnowledge(
      {
        reachability: input.reachability,
        version: null,
        lastSuccessAt: null,
        lastErrorKind: null,
        lastError: null,
        eksAccess,
        provisioning: { creating: true, desiredVersion: input.desiredVersion },
      },
      now,
    );
    const why = input.provisioning === "failed" ? "Crossplane failed to create it" : k.why;
    return { ...k, why, from: null, ...extra };
  }
  // EKS facts that are current: the EKS API answering, or Crossplane's status read from a hub that answers.
  // The collector asks the EKS API after a successful poll of the cluster's API server, so while that
  // fails the EKS API's facts are as old as the last successful poll: last known, not current.
  const eksCurrent = (from === "eks-api" && eksAccess && isReachable(input.reachability)) || (from === "crossplane" && input.hubReachable);
  if (version && eksCurrent) {
    return { version, source: "observed", asOf: null, ageSeconds: null, why: null, current: true, from, ...extra };
  }
  const k = versionKnowledge(
    {
      reachability: input.reachability,
      version,
      lastSuccessAt: input.lastSuccessAt,
      lastVersionChangeAt: input.lastVersionChangeAt,
      lastErrorKind: input.lastErrorKind,
      lastError: input.lastError,
      eksAccess,
    },
    now,
  );
  // Never reached at all: say what stopped us, not only the kind of error.
  const neverReached = input.reachability === "unreachable" && input.lastSuccessAt == null;
  const why = neverReached
    ? `never reached: ${firstLine(input.lastError) ?? input.lastErrorKind ?? "no answer"}${eksAccess ? "" : "; no EKS API access"}`
    : k.why;
  return { ...k, why, from: k.version ? from : null, ...extra };
}
