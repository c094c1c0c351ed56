// Argo CD objects on our one health model. Argo CD describes an Application with three separate verdicts
// (health of the live resources, sync against Git, the last sync operation) plus error conditions; we fold
// them into one health, a reason and a message a person can act on. The table in docs/argocd.md is this
// function in prose; keep them together.
import type { ConditionLike, StoredHealth } from "./status";

/** Our stored healths: "new" is an Application Argo CD has never reconciled (no status at all), as for Flux. */
export type ArgoHealth = StoredHealth;

export interface ArgoResourceHealthInput {
  group?: string | null;
  kind: string;
  namespace?: string | null;
  name: string;
  status?: string | null;
  health?: string | null;
  healthMessage?: string | null;
}

export interface ArgoAppStatusInput {
  /** status.health.status */
  healthStatus: string | null;
  /** status.sync.status */
  syncStatus: string | null;
  /** status.sync.revision, or the revisions joined for multi-source Applications. */
  syncRevision: string | null;
  /** status.operationState.phase / message, and the revision(s) that operation synced. */
  operationPhase: string | null;
  operationMessage: string | null;
  operationRevision: string | null;
  /** The `operation` field is set: a sync is requested or running. */
  operationRequested: boolean;
  /** status.conditions: Argo CD's have a type and a message, no status (present means true). */
  conditions: Array<{ type: string; message?: string | null }>;
  /** spec.syncPolicy.automated present and not `enabled: false`. */
  autoSync: boolean;
  selfHeal: boolean;
  /** status.reconciledAt */
  reconciledAt: string | null;
  /** status.resources (health only when Argo CD persists it). */
  resources: ArgoResourceHealthInput[];
}

export interface ArgoVerdict {
  health: ArgoHealth;
  /** Stable, groupable word: a condition type, an Argo CD health or sync status, or one of ours. */
  reason: string;
  message: string;
  /** False when nothing in the object says why (Argo CD v3 keeps resource health out of the Application). */
  explained: boolean;
  /** Live state differs from Git and nobody will sync it automatically: shown, not counted as failing. */
  drift: { reason: string; message: string } | null;
  /** Warning conditions (SharedResourceWarning, OrphanedResourceWarning, …). */
  warnings: string[];
}

/** Error conditions, most telling first; any other `…Error` type counts too, after these. */
export const ARGO_ERROR_CONDITIONS = ["InvalidSpecError", "ComparisonError", "SyncError", "DeletionError", "UnknownError"] as const;

const isError = (type: string) => type.endsWith("Error");
const isWarning = (type: string) => type.endsWith("Warning");
const errorRank = (type: string) => {
  const i = (ARGO_ERROR_CONDITIONS as readonly string[]).indexOf(type);
  return i === -1 ? ARGO_ERROR_CONDITIONS.length : i;
};

const RETRYING = /Retrying attempt #\d+|Retrying operation/;

function shortRevision(revision: string | null): string | null {
  if (!revision) return null;
  return revision
    .split(", ")
    .map((r) => (/^[0-9a-f]{40}$/.test(r) ? r.slice(0, 7) : r))
    .join(", ");
}

function resourceName(r: ArgoResourceHealthInput): string {
  return `${r.kind} ${r.namespace ? `${r.namespace}/` : ""}${r.name}`;
}

/** "Deployment kube-system/x is Degraded: <message>" for the first resources with that health, when Argo CD persisted it. */
function resourcesWithHealth(resources: ArgoResourceHealthInput[], health: string): string | null {
  const matching = resources.filter((r) => r.health === health);
  if (matching.length === 0) return null;
  const shown = matching.slice(0, 3).map((r) => `${resourceName(r)} is ${health}${r.healthMessage ? `: ${r.healthMessage}` : ""}`);
  const more = matching.length - shown.length;
  return shown.join("; ") + (more > 0 ? `; and ${more} more` : "");
}

function outOfSyncCount(resources: ArgoResourceHealthInput[]): number {
  return resources.filter((r) => r.status === "OutOfSync").length;
}

const NO_RESOURCE_HEALTH =
  "Argo CD keeps resource health out of the Application since v3 (unless controller.resource.health.persist is on), so the object does not say which resource";

/** One verdict for an Application, from the fields Argo CD writes. */
export function argoApplicationHealth(input: ArgoAppStatusInput): ArgoVerdict {
  const warnings = input.conditions.filter((c) => isWarning(c.type)).map((c) => `${c.type}: ${c.message ?? ""}`.trim());
  const verdict = (health: ArgoHealth, reason: string, message: string, explained = true, drift: ArgoVerdict["drift"] = null) => ({
    health,
    reason,
    message,
    explained,
    drift,
    warnings,
  });
  const reconciled = Boolean(input.reconciledAt || input.syncStatus || input.healthStatus || input.operationPhase);
  if (!reconciled) {
    return verdict(
      "new",
      "NotReconciled",
      input.operationRequested
        ? "Argo CD has not reconciled this Application yet; a sync is requested"
        : "Argo CD has not reconciled this Application yet",
    );
  }

  // 1. Error conditions: Argo CD itself says something is wrong.
  const errors = input.conditions.filter((c) => isError(c.type)).sort((a, b) => errorRank(a.type) - errorRank(b.type));
  if (errors.length > 0) {
    const [first] = errors;
    const more =
      errors.length > 1
        ? ` (and ${errors
            .slice(1)
            .map((c) => c.type)
            .join(", ")})`
        : "";
    return verdict("failing", first.type, `${first.message || `Argo CD reports ${first.type} without a message`}${more}`);
  }

  const phase = input.operationPhase;
  const synced = input.syncStatus === "Synced";
  // 2. The last sync failed and the live state still differs from Git.
  if ((phase === "Failed" || phase === "Error") && !synced) {
    return verdict("failing", `Operation${phase}`, input.operationMessage || `The last sync ended in ${phase} without a message`);
  }
  // 3. A sync is running (or retrying after a failure).
  if (phase === "Running" && input.operationMessage && RETRYING.test(input.operationMessage)) {
    return verdict("failing", "SyncRetrying", input.operationMessage);
  }
  if (phase === "Running" || phase === "Terminating") {
    return verdict("progressing", phase === "Running" ? "Syncing" : "Terminating", input.operationMessage || `Sync ${phase.toLowerCase()}`);
  }
  if (input.operationRequested) return verdict("progressing", "SyncRequested", "A sync is requested; Argo CD has not started it yet");

  // 4. Health of the live resources.
  switch (input.healthStatus) {
    case "Degraded": {
      const fromResources = resourcesWithHealth(input.resources, "Degraded");
      if (fromResources) return verdict("failing", "Degraded", fromResources);
      return verdict("failing", "Degraded", `Argo CD reports the Application Degraded. ${NO_RESOURCE_HEALTH} is degraded.`, false);
    }
    case "Missing":
      if (!input.autoSync) {
        return verdict(
          "suspended",
          "AwaitingManualSync",
          "Nothing is deployed yet: automated sync is off and nobody has synced this Application",
          true,
          { reason: "OutOfSync", message: "None of the Application's resources exist in the destination cluster" },
        );
      }
      return verdict("progressing", "Missing", "Argo CD has not created the Application's resources yet");
    case "Suspended":
      return verdict(
        "suspended",
        "Suspended",
        resourcesWithHealth(input.resources, "Suspended") ??
          "A resource is paused or suspended (a paused Deployment or Rollout, a suspended Job)",
      );
    case "Progressing": {
      const fromResources = resourcesWithHealth(input.resources, "Progressing");
      return verdict("progressing", "Progressing", fromResources ?? "Argo CD reports Progressing health: a resource is rolling out", true);
    }
    case "Unknown":
      return verdict(
        "failing",
        "HealthUnknown",
        `Argo CD cannot assess the Application's health. ${NO_RESOURCE_HEALTH} failed its health check.`,
        false,
      );
    case "Healthy":
      break;
    default:
      return verdict(
        "progressing",
        "HealthNotReported",
        input.healthStatus ? `Argo CD reports health "${input.healthStatus}"` : "Argo CD has not reported health yet",
        false,
      );
  }

  // 5. Healthy: how the live state compares with Git.
  const revision = shortRevision(input.syncRevision);
  if (synced) return verdict("ready", "Synced", `Healthy and synced${revision ? ` to ${revision}` : ""}`);
  if (input.syncStatus === "OutOfSync") {
    const count = outOfSyncCount(input.resources);
    const what =
      count > 0 ? `${count} resource${count === 1 ? "" : "s"} differ${count === 1 ? "s" : ""} from Git` : "The live state differs from Git";
    if (!input.autoSync) {
      return verdict("ready", "OutOfSync", `Healthy; ${what.charAt(0).toLowerCase()}${what.slice(1)} (automated sync is off)`, true, {
        reason: "OutOfSync",
        message: `${what}; automated sync is off, so nothing applies it until someone syncs`,
      });
    }
    // Automated sync without self-heal leaves live edits alone once it synced this revision.
    const alreadySynced = phase === "Succeeded" && input.operationRevision !== null && input.operationRevision === input.syncRevision;
    if (!input.selfHeal && alreadySynced) {
      return verdict("ready", "OutOfSync", `Healthy; ${what.charAt(0).toLowerCase()}${what.slice(1)} (self-heal is off)`, true, {
        reason: "OutOfSync",
        message: `${what}; this revision was synced already and self-heal is off, so Argo CD leaves the live change alone`,
      });
    }
    return verdict("progressing", "OutOfSync", `${what}; automated sync will apply ${revision ?? "the new revision"}`);
  }
  return verdict("progressing", "SyncUnknown", "Argo CD has not compared the live state with Git yet", false);
}

export interface ArgoAppSetStatusInput {
  /** status.conditions (ApplicationSet conditions have status and reason). */
  conditions: ConditionLike[];
  /** status.resourcesCount, else the length of status.resources; null when the status says nothing. */
  generated: number | null;
}

/** One verdict for an ApplicationSet: its conditions, and how many Applications it generates. */
export function argoApplicationSetHealth(input: ArgoAppSetStatusInput): Omit<ArgoVerdict, "drift" | "warnings"> {
  const find = (type: string) => input.conditions.find((c) => c.type === type);
  const error = find("ErrorOccurred");
  const params = find("ParametersGenerated");
  const upToDate = find("ResourcesUpToDate");
  const rollout = find("RolloutProgressing");
  const count =
    input.generated === null
      ? ""
      : input.generated === 0
        ? "; it generates no Application"
        : `; it generates ${input.generated} Application${input.generated === 1 ? "" : "s"}`;
  if (input.conditions.length === 0) {
    return {
      health: "new",
      reason: "NotReconciled",
      message: "The ApplicationSet controller has not processed this ApplicationSet yet",
      explained: true,
    };
  }
  if (error?.status === "True") {
    return {
      health: "failing",
      reason: error.reason || "ErrorOccurred",
      message: `${error.message || "An error occurred"}${count}`,
      explained: true,
    };
  }
  for (const c of [params, upToDate]) {
    if (c?.status === "False") {
      return { health: "failing", reason: c.reason || c.type, message: `${c.message || `${c.type} is False`}${count}`, explained: true };
    }
  }
  if (rollout?.status === "True") {
    return {
      health: "progressing",
      reason: rollout.reason || "RolloutProgressing",
      message: `${rollout.message || "A progressive sync is rolling out"}${count}`,
      explained: true,
    };
  }
  if (upToDate?.status === "True") {
    return {
      health: "ready",
      reason: upToDate.reason || "ApplicationSetUpToDate",
      message: `${upToDate.message || "All applications are up to date"}${count}`,
      explained: true,
    };
  }
  return {
    health: "progressing",
    reason: "Pending",
    message: `The ApplicationSet controller has not reported the Applications up to date${count}`,
    explained: false,
  };
}
