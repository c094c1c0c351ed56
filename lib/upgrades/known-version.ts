// What we know of a cluster's control-plane version right now, and how we know it. A cluster we cannot
// read today (unreachable, token refused, never reached, no EKS access) keeps its last known version with
// the age of that knowledge, or says "unknown" and why; it is never summed as a cluster that costs $0.
// A cluster Crossplane is still creating shows the version it was asked for.
import type { Reachability } from "../fleet/status";
import { kubernetesMinor } from "./versions";

export type VersionSource = "observed" | "last-known" | "desired" | "unknown";

export interface VersionKnowledgeInput {
  reachability: Reachability;
  /** Control-plane minor from the cluster row (EKS API or API server), as last stored. */
  version: string | null;
  lastSuccessAt: Date | string | null;
  /** Newest recorded change of the control-plane version (cluster_version_change "kubernetes" / "eks"). */
  lastVersionChangeAt?: Date | string | null;
  lastErrorKind: string | null;
  lastError: string | null;
  /** The EKS API describes this cluster (an ARN or an EKS version is stored). */
  eksAccess: boolean;
  /** Crossplane is still creating it; desiredVersion from its spec when known. */
  provisioning?: { creating: boolean; desiredVersion: string | null } | null;
}

export interface VersionKnowledge {
  version: string | null;
  source: VersionSource;
  /** When the version was last confirmed (ISO), for a last-known version. */
  asOf: string | null;
  /** Seconds since asOf. */
  ageSeconds: number | null;
  /** Why the version is not observed now; null when it is. */
  why: string | null;
  /** Observed now: its support dates and cost can be summed with the fleet's. */
  current: boolean;
}

const WHY_BY_KIND: Record<string, string> = {
  auth: "credentials refused (token expired or not allowed)",
  tls: "TLS handshake failed",
  timeout: "API server timed out",
  dns: "API server name does not resolve",
  refused: "API server refused the connection",
  http: "API server answered with an error",
};

/** One line saying why a cluster cannot be read now. */
export function unreachableReason(
  input: Pick<VersionKnowledgeInput, "reachability" | "lastErrorKind" | "lastError" | "eksAccess">,
): string {
  if (input.reachability === "gone") return "no longer discovered";
  const base =
    input.reachability === "pending"
      ? "never reached yet"
      : (input.lastErrorKind && WHY_BY_KIND[input.lastErrorKind]) || firstLine(input.lastError) || "unreachable";
  return input.eksAccess ? base : `${base}; no EKS API access`;
}

function firstLine(text: string | null | undefined): string | null {
  const line = text?.split("\n")[0]?.trim();
  return line ? (line.length > 120 ? `${line.slice(0, 117)}…` : line) : null;
}

const time = (v: Date | string | null | undefined): number | null => {
  if (v == null) return null;
  const t = (v instanceof Date ? v : new Date(v)).getTime();
  return Number.isNaN(t) ? null : t;
};

export function versionKnowledge(input: VersionKnowledgeInput, now: Date): VersionKnowledge {
  const minor = kubernetesMinor(input.version);
  if (input.provisioning?.creating) {
    const desired = kubernetesMinor(input.provisioning.desiredVersion);
    return {
      version: desired,
      source: desired ? "desired" : "unknown",
      asOf: null,
      ageSeconds: null,
      why: desired ? "being created by Crossplane (desired version)" : "being created by Crossplane; desired version not recorded",
      current: false,
    };
  }
  if (input.reachability === "reachable" && minor) {
    return { version: minor, source: "observed", asOf: null, ageSeconds: null, why: null, current: true };
  }
  const why = input.reachability === "reachable" ? "the API server did not report a version" : unreachableReason(input);
  if (!minor) return { version: null, source: "unknown", asOf: null, ageSeconds: null, why, current: false };
  // The last moment the version was confirmed: the last successful poll, or a later change the EKS API reported.
  const confirmed = Math.max(time(input.lastSuccessAt) ?? -Infinity, time(input.lastVersionChangeAt) ?? -Infinity);
  const asOf = Number.isFinite(confirmed) ? new Date(confirmed) : null;
  return {
    version: minor,
    source: "last-known",
    asOf: asOf?.toISOString() ?? null,
    ageSeconds: asOf ? Math.max(0, Math.round((now.getTime() - asOf.getTime()) / 1000)) : null,
    why,
    current: false,
  };
}

/** "1.34 (last known, 3 h ago)" / "unknown — never reached yet" / "1.35 (desired; being created)". */
export function describeKnowledge(k: VersionKnowledge): string {
  switch (k.source) {
    case "observed":
      return k.version!;
    case "last-known":
      return `${k.version} (last known${k.ageSeconds != null ? `, ${formatAge(k.ageSeconds)} ago` : ""})`;
    case "desired":
      return `${k.version} (desired; being created)`;
    default:
      return `unknown — ${k.why ?? "no data"}`;
  }
}

export function formatAge(seconds: number): string {
  if (seconds < 90) return `${Math.max(0, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} d`;
}
