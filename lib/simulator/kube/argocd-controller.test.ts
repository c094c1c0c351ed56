import { describe, expect, it } from "vitest";
import type { KubeObject } from "../contract";
import { argoControllerPatch, argoRequests, newestOperationOverlay } from "./argocd-controller";

const app = (extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "argoproj.io/v1alpha1",
  kind: "Application",
  metadata: { name: "workload-a", namespace: "argocd" },
  spec: { source: { repoURL: "https://example.com/w.git", path: "overlays/prod", targetRevision: "HEAD" } },
  ...extra,
});
const SHA = "0123456789abcdef0123456789abcdef01234567";

describe("the simulated Argo CD controller", () => {
  it("notices new refresh and sync requests only", () => {
    const refreshed = app({ metadata: { name: "a", annotations: { "argocd.argoproj.io/refresh": "hard" } } });
    expect(argoRequests(undefined, refreshed)).toEqual({ refresh: true, sync: false });
    expect(argoRequests(refreshed, refreshed)).toEqual({ refresh: false, sync: false });
    expect(argoRequests(app(), app({ operation: { sync: {} } }))).toEqual({ refresh: false, sync: true });
  });

  it("fails a manual sync of a revision the model says cannot be applied, with the apply error and no retry suffix", () => {
    const current = app({
      operation: { sync: {}, initiatedBy: { username: "alice" }, retry: {} },
      status: {
        sync: { status: "OutOfSync", revision: SHA },
        operationState: {
          phase: "Failed",
          message: "one or more objects failed to apply, reason: boom (retried 5 times).",
          startedAt: "2026-01-01T00:00:00Z",
        },
      },
    });
    const patch = argoControllerPatch(current, { refresh: false, sync: true }, "2026-01-01T01:00:00Z")!;
    expect(patch).toMatchObject({
      operation: null,
      status: {
        operationState: {
          phase: "Failed",
          message: "one or more objects failed to apply, reason: boom",
          startedAt: "2026-01-01T01:00:00Z",
          operation: { initiatedBy: { username: "alice" } },
        },
      },
    });
  });

  it("succeeds otherwise, recording what it synced, and removes a handled refresh", () => {
    const current = app({
      metadata: { name: "workload-a", annotations: { "argocd.argoproj.io/refresh": "normal" } },
      operation: { sync: {} },
      status: { sync: { status: "OutOfSync", revision: SHA }, operationState: { phase: "Succeeded", startedAt: "2026-01-01T00:00:00Z" } },
    });
    expect(argoControllerPatch(current, { refresh: true, sync: true }, "2026-01-01T01:00:00Z")).toMatchObject({
      metadata: { annotations: { "argocd.argoproj.io/refresh": null } },
      status: { operationState: { phase: "Succeeded", syncResult: { revision: SHA } } },
    });
  });

  it("lets a newer operation from the model replace a manual one kept in the overlay", () => {
    const overlay = {
      metadata: { annotations: { a: "b" } },
      status: { operationState: { phase: "Failed", startedAt: "2026-01-01T01:00:00Z" } },
    };
    const newer = app({ status: { operationState: { phase: "Succeeded", startedAt: "2026-01-01T02:00:00Z" } } });
    const older = app({ status: { operationState: { phase: "Succeeded", startedAt: "2026-01-01T00:30:00Z" } } });
    expect(newestOperationOverlay(newer, overlay)).toEqual({ metadata: { annotations: { a: "b" } }, status: {} });
    expect(newestOperationOverlay(older, overlay)).toBe(overlay);
  });
});
