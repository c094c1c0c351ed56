// Upgrade readiness for N → N+1: blockers, warnings and an ordered checklist an engineer can follow.
// Pure: the caller gathers the cluster's facts from the database and hands them in.
import type { ManagedAddonStanding } from "./managed-addons";
import { apiVersionOf, type StagedRemovedApiUse } from "./removed-apis";
import type { SkewReport } from "./skew";
import { EXTRA_USD_PER_CLUSTER_MONTH, type SupportInfo } from "./support";
import { compareVersions, kubernetesMinor, minorsBehind, sameVersion } from "./versions";

export interface InsightInput {
  name: string;
  category: string;
  status: string; // PASSING | WARNING | ERROR | UNKNOWN
  reason?: string | null;
  kubernetesVersion?: string | null;
  recommendation?: string | null;
}

/** A removed or deprecated API found in the inventory of a Flux object, with its stage for this cluster. */
export interface RemovedApiFinding extends StagedRemovedApiUse {
  owner: { kind: string; namespace: string; name: string };
}

export interface HelmAddonInput {
  name: string;
  namespace: string;
  chart: string;
  applied: string | null;
  latest: string | null;
  failing: boolean;
}

export interface ReadinessInput {
  cluster: string;
  controlPlane: string | null;
  /** N+1 when a newer version is known (DescribeClusterVersions, the calendar or the fleet: nextVersionOf), else null. */
  next: string | null;
  eksStatus?: string | null;
  reachable: boolean;
  support: SupportInfo | null;
  skew: SkewReport | null;
  insights: readonly InsightInput[];
  managedAddons: readonly ManagedAddonStanding[];
  removedApis: readonly RemovedApiFinding[];
  helmAddons: readonly HelmAddonInput[];
  /** Node groups with their Kubernetes version, for the checklist. */
  nodeGroups: readonly { name: string; version: string | null }[];
}

export type FindingKind = "insight" | "kubelet-skew" | "managed-addon" | "removed-api" | "support" | "cluster" | "helm-addon";

export interface Finding {
  kind: FindingKind;
  title: string;
  detail: string;
  /** What it is about: node group, add-on, object ("Kustomization flux-system/apps"), insight name. */
  subject?: string;
}

export interface ChecklistStep {
  title: string;
  detail: string;
  /** A command or manifest change an engineer can copy. */
  command?: string;
  done: boolean;
}

export interface Readiness {
  cluster: string;
  current: string | null;
  next: string | null;
  blockers: Finding[];
  warnings: Finding[];
  /** APIs removed after N+1: work for the upgrades after this one, shown apart. */
  upcoming: Finding[];
  checklist: ChecklistStep[];
  ready: boolean;
}

function insightApplies(i: InsightInput, next: string): boolean {
  if (i.category !== "UPGRADE_READINESS") return false;
  const v = kubernetesMinor(i.kubernetesVersion);
  const behind = v ? minorsBehind(v, next) : 0;
  return behind === null || behind >= 0; // insights about later versions are not for this upgrade
}

function groupRemovedApis(uses: readonly RemovedApiFinding[]): Finding[] {
  const byApi = new Map<string, RemovedApiFinding[]>();
  for (const u of uses) {
    const key = `${apiVersionOf(u.group, u.version)} ${u.kind}`;
    byApi.set(key, [...(byApi.get(key) ?? []), u]);
  }
  return [...byApi].map(([key, group]) => {
    const first = group[0];
    const owners = [...new Set(group.map((u) => `${u.owner.kind} ${u.owner.namespace}/${u.owner.name}`))];
    const already = first.stage === "removed";
    return {
      kind: "removed-api" as const,
      subject: owners.join(", "),
      title: `${key} ${already ? "is no longer served since" : "is removed in"} ${first.removed.removedIn}`,
      detail: `${group.length} resource(s) (${group.map((u) => (u.namespace ? `${u.namespace}/${u.name}` : u.name)).join(", ")}) in ${owners.join(", ")}; migrate to ${first.removed.replacement}.`,
    };
  });
}

export function readiness(input: ReadinessInput): Readiness {
  const current = kubernetesMinor(input.controlPlane);
  const next = current ? kubernetesMinor(input.next) : null;
  const blockers: Finding[] = [];
  const warnings: Finding[] = [];

  if (!input.reachable) {
    warnings.push({ kind: "cluster", title: "Cluster unreachable", detail: "Findings below are from the last successful poll." });
  }
  if ((input.eksStatus ?? "").toUpperCase() === "UPDATING") {
    warnings.push({
      kind: "cluster",
      title: "Control plane update in progress",
      detail: "EKS reports the cluster as UPDATING; wait for ACTIVE.",
    });
  }
  const s = input.support;
  if (s?.versionStatus === "UNSUPPORTED") {
    warnings.push({
      kind: "support",
      title: `Kubernetes ${s.version} is past end of extended support: auto-upgrade due since ${s.endOfExtendedSupport?.slice(0, 10) ?? "an unknown date"}`,
      detail: `EKS upgrades the control plane itself (not add-ons or node groups). Until then it is billed as extended support: $${EXTRA_USD_PER_CLUSTER_MONTH}/month more than standard support.`,
    });
  } else if (s?.inExtendedSupport) {
    warnings.push({
      kind: "support",
      title: `In extended support since ${s.endOfStandardSupport?.slice(0, 10)}`,
      detail: `Costs $${EXTRA_USD_PER_CLUSTER_MONTH}/month more than standard support; extended support ends in ${s.daysToEndOfExtendedSupport} days.`,
    });
  } else if (s?.daysToEndOfStandardSupport != null && s.daysToEndOfStandardSupport <= 90) {
    warnings.push({
      kind: "support",
      title: `Standard support ends in ${s.daysToEndOfStandardSupport} days`,
      detail: `On ${s.endOfStandardSupport?.slice(0, 10)}.`,
    });
  }

  if (next) {
    for (const i of input.insights) {
      if (!insightApplies(i, next)) continue;
      const status = i.status.toUpperCase();
      const finding: Finding = {
        kind: "insight",
        subject: i.name,
        title: `EKS insight: ${i.name} (${status})`,
        detail: [i.reason, i.recommendation].filter(Boolean).join(" "),
      };
      if (status === "ERROR" || status === "WARNING") blockers.push(finding);
      else if (status === "UNKNOWN") warnings.push(finding);
    }

    for (const g of input.skew?.groups ?? []) {
      const who = g.source ? `Node group ${g.source}` : `${g.nodes ?? "Some"} node(s)`;
      if (g.violatesNow) {
        blockers.push({
          kind: "kubelet-skew",
          subject: g.source || g.version,
          title: `${who}: kubelet ${g.minor} outside the skew policy`,
          detail: `Control plane is ${input.skew!.controlPlane}; kubelets may be at most 3 minors older and never newer.`,
        });
      } else if (g.blocksNext) {
        blockers.push({
          kind: "kubelet-skew",
          subject: g.source || g.version,
          title: `${who}: kubelet ${g.minor} too old for ${next}`,
          detail: `Every kubelet must be at least ${input.skew!.minimumForNext} before the control plane moves to ${next}.`,
        });
      } else if (g.behindNow > 0) {
        warnings.push({
          kind: "kubelet-skew",
          subject: g.source || g.version,
          title: `${who}: kubelet ${g.minor} behind the control plane`,
          detail: `${g.behindNow} minor(s) behind now, ${g.behindNext} after the upgrade.`,
        });
      }
    }

    for (const a of input.managedAddons) {
      if (a.noVersionForNext) {
        blockers.push({
          kind: "managed-addon",
          subject: a.name,
          title: `${a.name}: no version compatible with ${next}`,
          detail: "DescribeAddonVersions lists none; remove the add-on or wait for a release.",
        });
      } else if (a.compatibleWithNext === false) {
        if (a.advice.when === "before") {
          blockers.push({
            kind: "managed-addon",
            subject: a.name,
            title: `${a.name} ${a.version} is not compatible with ${next}`,
            detail: `Update to ${a.advice.to} first: it runs on both ${current} and ${next}.`,
          });
        } else {
          warnings.push({
            kind: "managed-addon",
            subject: a.name,
            title: `${a.name} ${a.version} is not compatible with ${next}`,
            detail: a.advice.to
              ? `No version runs on both ${current} and ${next}: update after the control plane, to ${a.advice.to}.`
              : `No listed version for ${next} is newer than ${a.version}: check DescribeAddonVersions before upgrading.`,
          });
        }
      } else if (a.compatibleWithNext === null) {
        warnings.push({
          kind: "managed-addon",
          subject: a.name,
          title: `${a.name}: compatibility with ${next} unknown`,
          detail: "The add-on catalog for the next version has not been fetched.",
        });
      }
      if (a.failing)
        warnings.push({
          kind: "managed-addon",
          subject: a.name,
          title: `${a.name} is ${a.status}`,
          detail: "Fix the add-on before upgrading.",
        });
    }

    blockers.push(...groupRemovedApis(input.removedApis.filter((u) => u.stage === "removed" || u.stage === "next")));
  }

  for (const h of input.helmAddons.filter((x) => x.failing)) {
    warnings.push({
      kind: "helm-addon",
      subject: `${h.namespace}/${h.name}`,
      title: `HelmRelease ${h.namespace}/${h.name} is failing`,
      detail: "Fix it first: a failing release hides what the upgrade changes.",
    });
  }

  return {
    cluster: input.cluster,
    current,
    next,
    blockers,
    warnings,
    upcoming: groupRemovedApis(input.removedApis.filter((u) => u.stage === "upcoming")),
    checklist: next ? checklist(input, current!, next, blockers) : [],
    ready: next !== null && blockers.length === 0,
  };
}

function checklist(input: ReadinessInput, current: string, next: string, blockers: Finding[]): ChecklistStep[] {
  const c = input.cluster;
  const steps: ChecklistStep[] = [];
  const removed = blockers.filter((b) => b.kind === "removed-api");
  steps.push({
    title: "Migrate manifests off removed APIs",
    detail: removed.length
      ? removed.map((b) => `${b.title}: ${b.detail}`).join("\n")
      : `No resource in a Flux inventory uses an API removed in ${next}.`,
    done: removed.length === 0,
  });
  const oldNodes = (input.skew?.groups ?? []).filter((g) => g.blocksNext || g.violatesNow);
  steps.push({
    title: `Bring every kubelet to ${input.skew?.minimumForNext ?? "N-2"} or newer`,
    detail: oldNodes.length
      ? oldNodes.map((g) => `${g.source || `${g.nodes ?? "?"} node(s)`} at ${g.minor}`).join(", ")
      : "All kubelets are within the skew policy for the next version.",
    command: oldNodes.find((g) => g.source)
      ? `aws eks update-nodegroup-version --cluster-name ${c} --nodegroup-name ${oldNodes.find((g) => g.source)!.source} --kubernetes-version ${current}`
      : undefined,
    done: oldNodes.length === 0,
  });
  const before = input.managedAddons.filter((a) => a.compatibleWithNext === false && a.advice.when === "before");
  steps.push({
    title: `Update managed add-ons that do not run on ${next}`,
    detail: before.length
      ? before.map((a) => `${a.name} ${a.version} → ${a.advice.to} (runs on ${current} and ${next})`).join(", ")
      : `Nothing to update before the control plane: every managed add-on runs on ${next} or has no version for both.`,
    command: before.length
      ? before.map((a) => `aws eks update-addon --cluster-name ${c} --addon-name ${a.name} --addon-version ${a.advice.to}`).join("\n")
      : undefined,
    done: before.length === 0,
  });
  const insightBlockers = blockers.filter((b) => b.kind === "insight");
  steps.push({
    title: "Resolve EKS upgrade insights",
    detail: insightBlockers.length ? insightBlockers.map((b) => b.title).join(", ") : "No insight reports ERROR or WARNING.",
    command: `aws eks list-insights --cluster-name ${c} --filter kubernetesVersions=${next}`,
    done: insightBlockers.length === 0,
  });
  steps.push({
    title: `Upgrade the control plane ${current} → ${next}`,
    detail: "One minor at a time. Takes about 10 minutes; the API stays available.",
    command: `aws eks update-cluster-version --name ${c} --kubernetes-version ${next}`,
    done: false,
  });
  // After the control plane: the add-ons whose advice says so, from the version they will run by then.
  const after = input.managedAddons.flatMap((a) => {
    const from = a.advice.when === "before" ? a.advice.to : a.version;
    const to = a.advice.when === "after" ? a.advice.to : a.defaultNext;
    return from && to && compareVersions(from, to) < 0 && !sameVersion(from, to) ? [{ name: a.name, from, to }] : [];
  });
  steps.push({
    title: `Update managed add-ons after the control plane (to the ${next} defaults)`,
    detail: after.length
      ? after.map((a) => `${a.name} ${a.from} → ${a.to}`).join(", ")
      : "Nothing below the default version of the next release.",
    command:
      after.map((a) => `aws eks update-addon --cluster-name ${c} --addon-name ${a.name} --addon-version ${a.to}`).join("\n") || undefined,
    done: after.length === 0,
  });
  steps.push({
    title: `Upgrade node groups to ${next}`,
    detail: input.nodeGroups.length
      ? input.nodeGroups.map((g) => `${g.name} (${g.version ?? "?"})`).join(", ")
      : "No managed node groups recorded: upgrade self-managed nodes or Karpenter node pools.",
    command:
      input.nodeGroups
        .map((g) => `aws eks update-nodegroup-version --cluster-name ${c} --nodegroup-name ${g.name} --kubernetes-version ${next}`)
        .join("\n") || undefined,
    done: false,
  });
  const behind = input.helmAddons.filter((h) => h.applied && h.latest && compareVersions(h.applied, h.latest) < 0);
  steps.push({
    title: "Upgrade Helm add-ons that are behind upstream",
    detail: behind.length
      ? behind.map((h) => `${h.chart} ${h.applied} → ${h.latest}`).join(", ")
      : "Every Helm add-on with a known upstream is current.",
    done: behind.length === 0,
  });
  steps.push({
    title: "Verify",
    detail: "All Kustomizations and HelmReleases Ready, insights PASSING for the new version, no kubelet skew warnings.",
    command: "flux get all -A --status-selector ready=false",
    done: false,
  });
  return steps;
}
