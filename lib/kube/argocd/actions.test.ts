import { describe, expect, it } from "vitest";
import { refreshPatch, syncPatch } from "./actions";

describe("refreshPatch", () => {
  it("is the merge patch argocd app get --refresh / --hard-refresh sends", () => {
    expect(JSON.stringify(refreshPatch())).toBe('{"metadata":{"annotations":{"argocd.argoproj.io/refresh":"normal"}}}');
    expect(JSON.stringify(refreshPatch("hard"))).toBe('{"metadata":{"annotations":{"argocd.argoproj.io/refresh":"hard"}}}');
  });
});

const single = {
  apiVersion: "argoproj.io/v1alpha1",
  kind: "Application",
  metadata: { name: "guestbook", namespace: "argocd", resourceVersion: "48213" },
  spec: {
    project: "default",
    destination: { server: "https://kubernetes.default.svc", namespace: "guestbook" },
    source: { repoURL: "https://github.com/argoproj/argocd-example-apps.git", path: "guestbook", targetRevision: "HEAD" },
    syncPolicy: { syncOptions: ["CreateNamespace=true"] },
  },
  status: { operationState: { phase: "Failed", message: "old", startedAt: "2026-11-23T17:00:00Z", operation: { sync: {} } } },
};

describe("syncPatch", () => {
  it("writes the operation the API server writes for `argocd app sync` on a single-source app", () => {
    const result = syncPatch(single, { username: "alice@example.com" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // Go's encoding: false/empty fields omitted, initiatedBy and retry (a struct) always present.
    expect(JSON.stringify(result.patch)).toBe(
      JSON.stringify({
        metadata: { resourceVersion: "48213" },
        operation: {
          sync: {
            source: { repoURL: "https://github.com/argoproj/argocd-example-apps.git", path: "guestbook", targetRevision: "HEAD" },
            syncOptions: ["CreateNamespace=true"],
          },
          initiatedBy: { username: "alice@example.com" },
          retry: {},
        },
        status: { operationState: null },
      }),
    );
  });

  it("accepts what the kubectl form in Argo CD's docs sends, and options like the CLI's flags", () => {
    const result = syncPatch(single, {
      username: "bob",
      strategy: "hook",
      prune: true,
      revision: "v2",
      info: [{ name: "Reason", value: "hotfix" }],
    });
    expect(result.ok && result.patch.operation).toEqual({
      sync: {
        revision: "v2",
        prune: true,
        syncStrategy: { hook: {} },
        source: single.spec.source,
        syncOptions: ["CreateNamespace=true"],
      },
      initiatedBy: { username: "bob" },
      info: [{ name: "Reason", value: "hotfix" }],
      retry: {},
    });
  });

  it("copies sources and the retry policy of a multi-source GitOps Bridge add-on (no old state to clear)", () => {
    const sources = [
      { repoURL: "https://github.com/org/addons", targetRevision: "HEAD", ref: "values" },
      {
        chart: "metrics-server",
        repoURL: "https://kubernetes-sigs.github.io/metrics-server",
        targetRevision: "3.12.0",
        helm: { releaseName: "metrics-server" },
      },
    ];
    const app = {
      metadata: { name: "addon-a-metrics-server", namespace: "argocd" },
      spec: { sources, syncPolicy: { automated: {}, retry: { limit: 5, backoff: { duration: "5s", factor: 2, maxDuration: "3m" } } } },
    };
    const result = syncPatch(app, {
      username: "carol",
      resources: [{ group: "apps", kind: "Deployment", name: "metrics-server", namespace: "kube-system" }],
    });
    expect(result.ok && result.patch).toEqual({
      operation: {
        sync: { resources: [{ group: "apps", kind: "Deployment", name: "metrics-server", namespace: "kube-system" }], sources },
        initiatedBy: { username: "carol" },
        retry: { limit: 5, backoff: { duration: "5s", factor: 2, maxDuration: "3m" } },
      },
    });
  });

  it("refuses like the API server does", () => {
    expect(syncPatch({ ...single, operation: { sync: {} } }, { username: "a" })).toEqual({
      ok: false,
      reason: "another operation is already in progress",
    });
    const auto = { ...single, spec: { ...single.spec, syncPolicy: { automated: { prune: true } } } };
    expect(syncPatch(auto, { username: "a", revision: "v9" })).toEqual({
      ok: false,
      reason: "Cannot sync to v9: auto-sync currently set to HEAD",
    });
    expect(syncPatch(auto, { username: "a", revision: "v9", dryRun: true }).ok).toBe(true);
    expect(syncPatch({ spec: { sources: [{ repoURL: "x" }] } }, { username: "a", revision: "v1" }).ok).toBe(false);
  });
});
