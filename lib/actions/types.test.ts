import { describe, expect, it } from "vitest";
import { actionRequestSchema, actionsForKind } from "./types";

const base = { cluster: "hub", namespace: "argocd", name: "cluster-policies", csrfToken: "t" };

describe("which actions apply to which kind", () => {
  it("offers refresh and sync for an Application, Flux's three actions for Flux kinds", () => {
    expect(actionsForKind("Application")).toEqual(["refresh", "sync"]);
    expect(actionsForKind("helmrelease")).toEqual(["reconcile", "suspend", "resume"]);
  });

  it("refuses a request that mixes them, and accepts the ones that fit", () => {
    expect(actionRequestSchema.safeParse({ ...base, action: "sync", kind: "Application" }).success).toBe(true);
    expect(actionRequestSchema.safeParse({ ...base, action: "suspend", kind: "application" }).success).toBe(false);
    expect(actionRequestSchema.safeParse({ ...base, action: "refresh", kind: "kustomization" }).success).toBe(false);
    expect(actionRequestSchema.safeParse({ ...base, action: "sync", kind: "applicationset" }).success).toBe(false);
  });
});
