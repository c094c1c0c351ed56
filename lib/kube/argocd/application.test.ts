import { describe, expect, it } from "vitest";
import { toArgoApplication, toArgoApplicationSet } from "./application";

const CHART_REPO = "https://aws.github.io/eks-charts";
const VALUES_REPO = "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template";
const VALUES_SHA = "e6d355197ff3af8e6be09e1dea068dc12727a915";

/** A GitOps Bridge add-on Application (multi-source: values ref + chart), shaped like Argo CD v3.5 writes it. */
function addonApp(status: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Application",
    metadata: {
      name: "addon-spoke-1-aws-load-balancer-controller",
      namespace: "argocd",
      uid: "5c3e7a52-0000-4000-a000-000000000001",
      generation: 4217,
      ownerReferences: [
        {
          apiVersion: "argoproj.io/v1alpha1",
          kind: "ApplicationSet",
          name: "addons-aws-load-balancer-controller",
          uid: "u",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      project: "default",
      destination: { name: "spoke-1", namespace: "kube-system" },
      sources: [
        { repoURL: VALUES_REPO, targetRevision: "HEAD", ref: "values" },
        {
          chart: "aws-load-balancer-controller",
          repoURL: CHART_REPO,
          targetRevision: "1.7.1",
          helm: {
            releaseName: "aws-load-balancer-controller",
            valueFiles: ["$values/environments/default/addons/aws-load-balancer-controller/values.yaml"],
            values: "vpcId: 'vpc-1'\nsecretToken: hunter2\n",
          },
        },
      ],
      syncPolicy: { automated: {}, syncOptions: ["CreateNamespace=true", "ServerSideApply=true"] },
    },
    ...extra,
    ...(status ? { status } : {}),
  };
}

const t = (minute: number) => `2026-11-23T17:${String(minute).padStart(2, "0")}:00Z`;

describe("toArgoApplication", () => {
  it("maps a just-created Application (no status) to new, with nothing pretending to be deployed", () => {
    const r = toArgoApplication(addonApp(undefined));
    expect(r).toMatchObject({
      kind: "Application",
      namespace: "argocd",
      name: "addon-spoke-1-aws-load-balancer-controller",
      health: "new",
      readyStatus: "Unknown",
      readyReason: "NotReconciled",
      attemptedRevision: null,
      appliedRevision: null,
      chartName: "aws-load-balancer-controller",
      desiredChartVersion: "1.7.1",
      chartVersion: null,
      url: CHART_REPO,
      inventory: null,
      history: null,
    });
    expect(r.argo).toMatchObject({
      multiSource: true,
      primarySource: 1,
      destination: { server: null, name: "spoke-1", namespace: "kube-system" },
      automatedSync: { enabled: true, prune: false, selfHeal: false },
      applicationSet: "addons-aws-load-balancer-controller",
      operation: null,
    });
  });

  it("maps a synced multi-source add-on: revisions per source, history newest first, chart deployed, resources and their APIs", () => {
    const status = {
      sync: {
        status: "Synced",
        comparedTo: {
          destination: { name: "spoke-1", namespace: "kube-system" },
          sources: [
            { repoURL: VALUES_REPO, targetRevision: "HEAD", ref: "values" },
            { repoURL: CHART_REPO, chart: "aws-load-balancer-controller", targetRevision: "1.7.1" },
          ],
        },
        revisions: [VALUES_SHA, "1.7.1"],
      },
      health: { status: "Healthy", lastTransitionTime: t(2) },
      history: [
        {
          id: 0,
          revisions: ["0000000000000000000000000000000000000001", "1.7.0"],
          deployStartedAt: t(0),
          deployedAt: t(1),
          initiatedBy: { automated: true },
          sources: [
            { repoURL: VALUES_REPO, ref: "values" },
            { repoURL: CHART_REPO, chart: "aws-load-balancer-controller", targetRevision: "1.7.0" },
          ],
        },
        {
          id: 1,
          revisions: [VALUES_SHA, "1.7.1"],
          deployStartedAt: t(1),
          deployedAt: t(2),
          initiatedBy: { username: "admin" },
          sources: [
            { repoURL: VALUES_REPO, ref: "values" },
            { repoURL: CHART_REPO, chart: "aws-load-balancer-controller", targetRevision: "1.7.1" },
          ],
        },
      ],
      operationState: {
        operation: { sync: { revisions: [VALUES_SHA, "1.7.1"], sources: [] }, initiatedBy: { username: "admin" }, retry: {} },
        phase: "Succeeded",
        message: "successfully synced (all tasks run)",
        startedAt: t(1),
        finishedAt: t(2),
        syncResult: { revisions: [VALUES_SHA, "1.7.1"], resources: [] },
      },
      reconciledAt: t(9),
      resourceHealthSource: "appTree",
      resources: [
        {
          group: "apps",
          version: "v1",
          kind: "Deployment",
          namespace: "kube-system",
          name: "aws-load-balancer-controller",
          status: "Synced",
        },
        { version: "v1", kind: "Service", namespace: "kube-system", name: "aws-load-balancer-webhook-service", status: "Synced" },
        {
          group: "admissionregistration.k8s.io",
          version: "v1",
          kind: "MutatingWebhookConfiguration",
          name: "aws-load-balancer-webhook",
          status: "Synced",
        },
        {
          group: "policy",
          version: "v1beta1",
          kind: "PodDisruptionBudget",
          namespace: "kube-system",
          name: "aws-load-balancer-controller",
          status: "Synced",
        },
      ],
      sourceTypes: ["Helm", "Helm"],
      summary: { images: ["public.ecr.aws/eks/aws-load-balancer-controller:v2.7.1"] },
    };
    const r = toArgoApplication(addonApp(status));
    expect(r).toMatchObject({
      health: "ready",
      readyStatus: "True",
      readyReason: "Synced",
      readyMessage: `Healthy and synced to ${VALUES_SHA.slice(0, 7)}, 1.7.1`,
      attemptedRevision: "1.7.1",
      appliedRevision: "1.7.1",
      chartVersion: "1.7.1",
      lastReconcileAt: "2026-11-23T17:09:00.000Z",
    });
    expect(r.argo.history.map((h) => [h.id, h.chartVersion, h.initiatedBy])).toEqual([
      [1, "1.7.1", "admin"],
      [0, "1.7.0", "automated"],
    ]);
    expect(r.argo.syncedRevisions).toEqual([VALUES_SHA, "1.7.1"]);
    expect(r.argo.resources).toMatchObject({
      total: 4,
      byStatus: { Synced: 4 },
      byHealth: {},
      healthSource: "appTree",
      byKind: { Deployment: 1, Service: 1, MutatingWebhookConfiguration: 1, PodDisruptionBudget: 1 },
    });
    expect(r.argo.resources.apiVersions).toContainEqual({ group: "policy", version: "v1beta1", kind: "PodDisruptionBudget", count: 1 });
    // Flux's inventory id form: <namespace>_<name>_<group>_<Kind>, so removed-API checks read it unchanged.
    expect(r.inventory).toContainEqual({ id: "kube-system_aws-load-balancer-controller_policy_PodDisruptionBudget", v: "v1beta1" });
    expect(r.inventory).toContainEqual({
      id: "_aws-load-balancer-webhook_admissionregistration.k8s.io_MutatingWebhookConfiguration",
      v: "v1",
    });
    expect(r.inventory).toContainEqual({ id: "kube-system_aws-load-balancer-webhook-service__Service", v: "v1" });
    expect(r.argo.images).toEqual(["public.ecr.aws/eks/aws-load-balancer-controller:v2.7.1"]);
    // Helm values never leave the cluster (they may hold secrets).
    expect(JSON.stringify(r.spec)).not.toContain("hunter2");
    expect(JSON.stringify(r.spec)).toContain("valueFiles");
  });

  it("maps the recorded ComparisonError Application (single Git source, sync Unknown, health Healthy)", () => {
    // Shape from a real Argo CD status (see docs/argocd.md): the comparison fails, health keeps its value.
    const raw = {
      apiVersion: "argoproj.io/v1alpha1",
      kind: "Application",
      metadata: { name: "good-app", namespace: "runtime", generation: 23398 },
      spec: {
        project: "default",
        destination: { server: "https://kubernetes.default.svc", namespace: "marvel-team" },
        source: { path: "git-source-2", repoURL: "https://github.com/noam-codefresh/git-source.git", targetRevision: "HEAD" },
      },
      status: {
        conditions: [
          {
            lastTransitionTime: "2023-10-01T08:07:28Z",
            message:
              "Failed to load target state: failed to generate manifest for source 1 of 1: rpc error: code = Unknown desc = Manifest generation error (cached): git-source-2: app path does not exist",
            type: "ComparisonError",
          },
        ],
        controllerNamespace: "runtime",
        health: { status: "Healthy" },
        history: [
          {
            deployStartedAt: "2023-09-26T11:52:49Z",
            deployedAt: "2023-09-26T11:52:50Z",
            id: 0,
            revision: "50240d9d473c490f6b1263c3c50f6369a446dce1",
            source: { path: "git-source-1", repoURL: "https://github.com/noam-codefresh/git-source.git", targetRevision: "HEAD" },
          },
          {
            deployStartedAt: "2023-09-26T13:39:33Z",
            deployedAt: "2023-09-26T13:39:34Z",
            id: 1,
            revision: "a656a333006bb50b480d00c42370bbbd1f45555d",
            source: { path: "git-source-1", repoURL: "https://github.com/noam-codefresh/git-source.git", targetRevision: "HEAD" },
          },
        ],
        operationState: {
          finishedAt: "2023-09-26T13:39:34Z",
          message: "successfully synced (all tasks run)",
          operation: {
            initiatedBy: { username: "admin" },
            retry: {},
            sync: {
              revision: "a656a333006bb50b480d00c42370bbbd1f45555d",
              syncOptions: ["allowEmpty=true", "CreateNamespace=true"],
              syncStrategy: { hook: {} },
            },
          },
          phase: "Succeeded",
          startedAt: "2023-09-26T13:39:33Z",
          syncResult: {
            resources: [],
            revision: "a656a333006bb50b480d00c42370bbbd1f45555d",
            source: { path: "git-source-1", repoURL: "https://github.com/noam-codefresh/git-source.git", targetRevision: "HEAD" },
          },
        },
        reconciledAt: "2023-10-01T08:54:48Z",
        resources: [
          {
            group: "argoproj.io",
            kind: "Application",
            name: "good-app",
            namespace: "marvel-team",
            requiresPruning: true,
            status: "Unknown",
            version: "v1alpha1",
          },
        ],
        summary: {},
        sync: {
          comparedTo: {
            destination: { namespace: "marvel-team", server: "https://kubernetes.default.svc" },
            source: { path: "git-source-2", repoURL: "https://github.com/noam-codefresh/git-source.git", targetRevision: "HEAD" },
          },
          status: "Unknown",
        },
      },
    };
    const r = toArgoApplication(raw);
    expect(r).toMatchObject({
      health: "failing",
      readyStatus: "False",
      readyReason: "ComparisonError",
      attemptedRevision: "a656a333006bb50b480d00c42370bbbd1f45555d",
      appliedRevision: "a656a333006bb50b480d00c42370bbbd1f45555d",
      url: "https://github.com/noam-codefresh/git-source.git",
      chartName: null,
      chartVersion: null,
      conditions: [{ type: "ComparisonError", status: "True", lastTransitionTime: "2023-10-01T08:07:28Z" }],
    });
    expect(r.readyMessage).toMatch(/app path does not exist$/);
    expect(r.argo).toMatchObject({ syncStatus: "Unknown", healthStatus: "Healthy", multiSource: false, primarySource: 0 });
    expect(r.argo.operation).toMatchObject({
      phase: "Succeeded",
      initiatedBy: "admin",
      revisions: ["a656a333006bb50b480d00c42370bbbd1f45555d"],
    });
    expect((r.history as Array<{ id: number }>).map((h) => h.id)).toEqual([1, 0]);
  });

  it("maps the lab's OutOfSync + Missing Helm add-on with auto-sync off to awaiting a manual sync", () => {
    const raw = {
      apiVersion: "argoproj.io/v1alpha1",
      kind: "Application",
      metadata: { name: "addon-lab-metrics-server", namespace: "argocd", annotations: { "argocd.argoproj.io/refresh": "hard" } },
      spec: {
        project: "default",
        destination: { name: "lab", namespace: "kube-system" },
        source: { repoURL: "https://kubernetes-sigs.github.io/metrics-server", chart: "metrics-server", targetRevision: "3.12.2" },
      },
      status: {
        sync: {
          status: "OutOfSync",
          revision: "3.12.2",
          comparedTo: {
            destination: { name: "lab", namespace: "kube-system" },
            source: { repoURL: "https://kubernetes-sigs.github.io/metrics-server", chart: "metrics-server", targetRevision: "3.12.2" },
          },
        },
        health: { status: "Missing" },
        resourceHealthSource: "appTree",
        reconciledAt: "2026-11-23T16:50:00Z",
        resources: [{ version: "v1", kind: "ServiceAccount", namespace: "kube-system", name: "metrics-server", status: "OutOfSync" }],
      },
    };
    const r = toArgoApplication(raw);
    expect(r).toMatchObject({
      health: "suspended",
      readyReason: "AwaitingManualSync",
      chartName: "metrics-server",
      desiredChartVersion: "3.12.2",
      chartVersion: null,
      appliedRevision: null,
    });
    expect(r.argo).toMatchObject({ automatedSync: { enabled: false }, refreshRequested: "hard", drift: { reason: "OutOfSync" } });
  });

  it("treats `automated: {enabled: false}` as auto-sync off and OCI charts as OCI", () => {
    const raw = {
      apiVersion: "argoproj.io/v1alpha1",
      kind: "Application",
      metadata: { name: "podinfo", namespace: "argocd" },
      spec: {
        project: "default",
        destination: { server: "https://kubernetes.default.svc" },
        source: { repoURL: "ghcr.io/stefanprodan/charts", chart: "podinfo", targetRevision: "6.9.2" },
        syncPolicy: { automated: { enabled: false, selfHeal: true } },
      },
    };
    const r = toArgoApplication(raw);
    expect(r.argo.automatedSync).toEqual({ enabled: false, prune: false, selfHeal: false });
    expect(r.argo.sources[0].kind).toBe("oci");
  });
});

describe("toArgoApplicationSet", () => {
  it("counts the Applications it generates and their health, and drops the template", () => {
    const raw = {
      apiVersion: "argoproj.io/v1alpha1",
      kind: "ApplicationSet",
      metadata: { name: "addons-metrics-server", namespace: "argocd", generation: 1 },
      spec: {
        goTemplate: false,
        generators: [{ merge: { mergeKeys: ["server"], generators: [] } }],
        template: {
          metadata: { name: "addon-{{name}}-{{values.addonChart}}" },
          spec: { project: "default", sources: [{ repoURL: "x", helm: { values: "secret: hunter2" } }], destination: { name: "{{name}}" } },
        },
      },
      status: {
        conditions: [
          {
            type: "ErrorOccurred",
            status: "False",
            reason: "ApplicationSetUpToDate",
            message: "All applications have been generated successfully",
            lastTransitionTime: "2026-11-23T17:00:00Z",
          },
          {
            type: "ParametersGenerated",
            status: "True",
            reason: "ParametersGenerated",
            message: "Successfully generated parameters for all Applications",
            lastTransitionTime: "2026-11-23T17:00:00Z",
          },
          {
            type: "ResourcesUpToDate",
            status: "True",
            reason: "ApplicationSetUpToDate",
            message: "All applications have been generated successfully",
            lastTransitionTime: "2026-11-23T17:01:00Z",
          },
        ],
        resources: [
          {
            group: "argoproj.io",
            version: "v1alpha1",
            kind: "Application",
            name: "addon-a-metrics-server",
            namespace: "argocd",
            status: "Synced",
            health: { status: "Healthy" },
          },
          {
            group: "argoproj.io",
            version: "v1alpha1",
            kind: "Application",
            name: "addon-b-metrics-server",
            namespace: "argocd",
            status: "Synced",
            health: { status: "Degraded" },
          },
        ],
        resourcesCount: 2,
      },
    };
    const r = toArgoApplicationSet(raw);
    expect(r).toMatchObject({
      kind: "ApplicationSet",
      health: "ready",
      readyStatus: "True",
      readyReason: "ApplicationSetUpToDate",
      lastReconcileAt: "2026-11-23T17:01:00.000Z",
    });
    expect(r.readyMessage).toMatch(/it generates 2 Applications$/);
    expect(r.appSet).toMatchObject({
      generated: 2,
      byHealth: { Healthy: 1, Degraded: 1 },
      byStatus: { Synced: 2 },
      generators: ["merge"],
      templateName: "addon-{{name}}-{{values.addonChart}}",
    });
    expect(JSON.stringify(r.spec)).not.toContain("hunter2");
  });

  it("is new before the controller wrote any status", () => {
    const r = toArgoApplicationSet({
      apiVersion: "argoproj.io/v1alpha1",
      kind: "ApplicationSet",
      metadata: { name: "s", namespace: "argocd" },
      spec: { generators: [] },
    });
    expect(r).toMatchObject({ health: "new", appSet: { generated: null } });
  });
});
