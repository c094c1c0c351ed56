// The Flux Operator's FluxReport (fluxcd.controlplane.io/v1), on the clusters where the operator manages
// Flux: the distribution version (which differs across the fleet) and reconciler statistics computed from
// the cluster's own Flux objects, so it changes exactly when they do.
import type { KubeObject } from "../contract";
import { FLUX_NS, meta, type ObjectIdentity } from "./flux";
import { hex, iso, unit } from "./random";

/** Flux distributions seen in the fleet. v2.9.4's controller pins come from its manifests; older ones are approximate. */
const DISTRIBUTIONS = [
  {
    version: "v2.9.4",
    components: {
      "source-controller": "v1.9.4",
      "kustomize-controller": "v1.9.4",
      "helm-controller": "v1.6.3",
      "notification-controller": "v1.9.3",
    },
  },
  {
    version: "v2.8.5",
    components: {
      "source-controller": "v1.8.4",
      "kustomize-controller": "v1.8.3",
      "helm-controller": "v1.5.3",
      "notification-controller": "v1.8.3",
    },
  },
  {
    version: "v2.7.3",
    components: {
      "source-controller": "v1.7.4",
      "kustomize-controller": "v1.7.3",
      "helm-controller": "v1.4.3",
      "notification-controller": "v1.7.5",
    },
  },
] as const;

/** Whether the Flux Operator runs on a cluster (the hub and about seven spokes in ten). */
export function hasFluxOperator(cluster: string, isHub: boolean): boolean {
  return isHub || unit(`operator:${cluster}`) < 0.7;
}

export function fluxDistributionOf(cluster: string, isHub: boolean): string {
  if (isHub) return DISTRIBUTIONS[0].version;
  const u = unit(`flux-version:${cluster}`);
  return (u < 0.6 ? DISTRIBUTIONS[0] : u < 0.85 ? DISTRIBUTIONS[1] : DISTRIBUTIONS[2]).version;
}

/** Labels `flux install` / `flux bootstrap` put on the Flux namespace; the version is how clusters without the operator tell theirs. */
export function fluxNamespaceLabels(cluster: string, isHub: boolean): Record<string, string> {
  return {
    "app.kubernetes.io/instance": FLUX_NS,
    "app.kubernetes.io/part-of": "flux",
    "app.kubernetes.io/version": fluxDistributionOf(cluster, isHub),
  };
}

const RECONCILERS = [
  ["kustomize.toolkit.fluxcd.io/v1", "Kustomization"],
  ["helm.toolkit.fluxcd.io/v2", "HelmRelease"],
  ["source.toolkit.fluxcd.io/v1", "GitRepository"],
  ["source.toolkit.fluxcd.io/v1", "OCIRepository"],
  ["source.toolkit.fluxcd.io/v1", "HelmRepository"],
  ["source.toolkit.fluxcd.io/v1", "HelmChart"],
] as const;

interface Conditioned {
  spec?: { suspend?: boolean };
  status?: { conditions?: { type: string; status: string; message?: string }[] };
}

export function fluxReport(id: ObjectIdentity, cluster: string, isHub: boolean, objects: KubeObject[], serverVersion: string): KubeObject {
  const distribution = DISTRIBUTIONS.find((d) => d.version === fluxDistributionOf(cluster, isHub))!;
  const stats = new Map<string, { running: number; failing: number; suspended: number }>();
  let nodes = 0;
  let syncReady: { ready: boolean; status: string } | undefined;
  for (const o of objects) {
    if (o.kind === "Node") nodes++;
    const kind = RECONCILERS.find(([, k]) => k === o.kind);
    if (!kind || !o.apiVersion.includes("fluxcd.io")) continue;
    const s = stats.get(o.kind) ?? { running: 0, failing: 0, suspended: 0 };
    const c = o as Conditioned;
    const ready = c.status?.conditions?.find((x) => x.type === "Ready");
    if (c.spec?.suspend) s.suspended++;
    else if (ready?.status === "False") s.failing++;
    else s.running++;
    stats.set(o.kind, s);
    if (o.kind === "Kustomization" && o.metadata.name === "flux-system" && o.metadata.namespace === FLUX_NS) {
      syncReady = { ready: ready?.status === "True", status: ready?.message ?? "" };
    }
  }
  const platform = "linux/amd64";
  return {
    apiVersion: "fluxcd.controlplane.io/v1",
    kind: "FluxReport",
    metadata: { ...meta(id, "FluxReport", FLUX_NS, "flux"), labels: { "app.kubernetes.io/managed-by": "flux-operator" } },
    spec: {
      cluster: { nodes, platform, serverVersion },
      components: Object.entries(distribution.components).map(([name, tag]) => ({
        image: `ghcr.io/fluxcd/${name}:${tag}@sha256:${hex(`image:${name}:${tag}`, 64)}`,
        name,
        ready: true,
        status: "Current Deployment is available. Replicas: 1",
      })),
      distribution: {
        entitlement: "Issued by controlplane",
        managedBy: "flux-operator",
        status: "Installed",
        version: distribution.version,
      },
      operator: { apiVersion: "fluxcd.controlplane.io/v1", platform, version: "v0.36.0" },
      reconcilers: RECONCILERS.filter(([, kind]) => stats.has(kind)).map(([apiVersion, kind]) => ({
        apiVersion,
        kind,
        stats: stats.get(kind)!,
      })),
      ...(syncReady
        ? {
            sync: {
              id: "kustomization/flux-system",
              path: isHub ? "clusters/hub" : `clusters/${cluster}`,
              ready: syncReady.ready,
              source: "https://github.com/acme-platform/fleet-infra.git",
              status: syncReady.status,
            },
          }
        : {}),
    },
    status: {
      conditions: [
        {
          type: "Ready",
          status: "True",
          reason: "ReconciliationSucceeded",
          message: "Reporting finished in 52ms",
          lastTransitionTime: iso(id.createdAt + 3_600_000),
          observedGeneration: 1,
        },
      ],
    },
  };
}
