// Flux objects as their controllers leave them when all is well, for the tests of the churn knob, the
// routine reconciles and the collector's change planner.
import type { KubeObject } from "../contract";

export const APPLIED_REVISION = "main@sha1:1111111111111111111111111111111111111111";

/**
 * A Kustomization that applied APPLIED_REVISION; `history`: with status.history[0] for that revision (40
 * reconciles, the last at 2026-11-23T11:55:00Z); `healthChecks`: with a Healthy condition.
 */
export function healthyKustomization(
  name: string,
  opts: { suspend?: boolean; history?: boolean; healthChecks?: boolean } = {},
): KubeObject {
  const since = "2026-11-20T10:00:00Z";
  return {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name, namespace: "flux-system", generation: 1 },
    spec: {
      interval: "10m0s",
      prune: true,
      path: `./${name}`,
      sourceRef: { kind: "GitRepository", name: "flux-system" },
      suspend: opts.suspend,
    },
    status: {
      observedGeneration: 1,
      lastAppliedRevision: APPLIED_REVISION,
      lastAttemptedRevision: APPLIED_REVISION,
      conditions: [
        {
          type: "Ready",
          status: "True",
          reason: "ReconciliationSucceeded",
          message: `Applied revision: ${APPLIED_REVISION}`,
          lastTransitionTime: since,
          observedGeneration: 1,
        },
        ...(opts.healthChecks
          ? [
              {
                type: "Healthy",
                status: "True",
                reason: "Succeeded",
                message: "Health check passed in 3.1s",
                lastTransitionTime: since,
                observedGeneration: 1,
              },
            ]
          : []),
      ],
      ...(opts.history && {
        history: [
          {
            digest: "sha256:43ad78c94b2655429d84f21488f29d7cca9cd45b7f54d2b27e16bbec8eff9228",
            firstReconciled: since,
            lastReconciled: "2026-11-23T11:55:00Z",
            lastReconciledDuration: "2.5s",
            lastReconciledStatus: "ReconciliationSucceeded",
            metadata: { revision: APPLIED_REVISION },
            totalReconciliations: 40,
          },
        ],
      }),
    },
  };
}

/** A HelmRelease whose upgrade to podinfo 6.7.1 (release v3) succeeded. */
export function healthyHelmRelease(name: string): KubeObject {
  return {
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    kind: "HelmRelease",
    metadata: { name, namespace: "monitoring", generation: 1 },
    spec: { interval: "10m", chart: { spec: { chart: name, version: "6.x", sourceRef: { kind: "HelmRepository", name: "podinfo" } } } },
    status: {
      observedGeneration: 1,
      lastAttemptedRevision: "6.7.1",
      conditions: [
        {
          type: "Ready",
          status: "True",
          reason: "UpgradeSucceeded",
          message: `Helm upgrade succeeded for release monitoring/${name}.v3 with chart ${name}@6.7.1`,
          lastTransitionTime: "2026-11-20T10:00:00Z",
        },
      ],
      history: [
        { chartName: name, chartVersion: "6.7.1", appVersion: "6.7.1", name, namespace: "monitoring", status: "deployed", version: 3 },
        { chartName: name, chartVersion: "6.7.0", appVersion: "6.7.0", name, namespace: "monitoring", status: "superseded", version: 2 },
      ],
    },
  };
}
