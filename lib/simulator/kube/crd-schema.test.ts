import { describe, expect, it } from "vitest";
import { checkAgainstCrd, crdSchemaFor, crdSchemas, pruneUnknown } from "./crd-schema";

const application = crdSchemaFor("argoproj.io/v1alpha1", "Application")!;
const app = (extra: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: "argoproj.io/v1alpha1",
  kind: "Application",
  metadata: { name: "a", namespace: "argocd" },
  spec: {
    project: "default",
    destination: { name: "spoke-1", namespace: "kube-system" },
    source: { repoURL: "https://example.com/repo.git", path: "." },
  },
  ...extra,
});

describe("CRD schemas carried by the repository", () => {
  it("knows the Argo CD v3.5.1 kinds and which of them have a status subresource", () => {
    expect(
      crdSchemas()
        .filter((s) => s.group === "argoproj.io")
        .map((s) => `${s.kind}:${s.statusSubresource}`)
        .sort(),
    ).toEqual(["AppProject:false", "Application:false", "ApplicationSet:true"]);
    expect(application.source).toMatch(/argo-cd v3\.5\.1/);
  });

  it("knows the Crossplane EKS kinds of both providers at their storage versions, the same kind name in two groups", () => {
    expect(
      crdSchemas()
        .filter((s) => s.group.startsWith("eks.aws."))
        .map((s) => `${s.group}/${s.version}|${s.kind}`)
        .sort(),
    ).toEqual([
      "eks.aws.crossplane.io/v1alpha1|NodeGroup",
      "eks.aws.crossplane.io/v1beta1|Cluster",
      "eks.aws.upbound.io/v1beta1|ClusterAuth",
      "eks.aws.upbound.io/v1beta2|Cluster",
      "eks.aws.upbound.io/v1beta2|NodeGroup",
    ]);
    // Upbound's storage version nests Terraform blocks as objects: a v1beta1-style list is refused.
    const upbound = crdSchemaFor("eks.aws.upbound.io/v1beta2", "NodeGroup")!;
    const ng = (scalingConfig: unknown) => ({
      apiVersion: "eks.aws.upbound.io/v1beta2",
      kind: "NodeGroup",
      metadata: { name: "x" },
      spec: { forProvider: { region: "us-east-1", scalingConfig } },
    });
    expect(checkAgainstCrd(upbound, ng({ desiredSize: 2, minSize: 1, maxSize: 3 }))).toEqual({ causes: [], unknown: [] });
    expect(checkAgainstCrd(upbound, ng([{ desiredSize: 2 }])).causes[0]).toMatchObject({
      field: "spec.forProvider.scalingConfig",
      reason: "FieldValueTypeInvalid",
    });
  });

  // Causes and messages as a real kube-apiserver v1.26 returned them for the same patches (docs/argocd.md).
  it("requires history entries' deployedAt and id, like the apiserver's 422", () => {
    expect(checkAgainstCrd(application, app({ status: { history: [{ revision: "x" }] } })).causes).toEqual([
      { reason: "FieldValueRequired", message: "Required value", field: "status.history[0].deployedAt" },
      { reason: "FieldValueRequired", message: "Required value", field: "status.history[0].id" },
    ]);
  });

  it("checks types with the apiserver's message", () => {
    expect(checkAgainstCrd(application, app({ status: { health: { status: 5 } } })).causes).toEqual([
      {
        reason: "FieldValueTypeInvalid",
        message: 'Invalid value: "integer": status.health.status in body must be of type string: "integer"',
        field: "status.health.status",
      },
    ]);
    const spec = { project: "default", destination: { name: 7 }, source: { repoURL: "x" } };
    expect(checkAgainstCrd(application, app({ spec })).causes[0]).toMatchObject({
      field: "spec.destination.name",
      reason: "FieldValueTypeInvalid",
    });
  });

  it("requires what the CRD requires (a source's repoURL, the sync status)", () => {
    const causes = checkAgainstCrd(
      application,
      app({ spec: { project: "default", destination: {}, source: { path: "." } }, status: { sync: {} } }),
    ).causes;
    expect(causes.map((c) => c.field)).toEqual(["spec.source.repoURL", "status.sync.status"]);
  });

  it("finds fields the schema does not know, and prunes them as the apiserver does", () => {
    const object = app({ status: { sync: { status: "Synced", comparedTo: { destination: {} } }, bogus: 1 }, extra: true });
    expect(checkAgainstCrd(application, object)).toEqual({ causes: [], unknown: ["status.bogus", "extra"] });
    const pruned = pruneUnknown(application, object);
    expect(pruned).not.toHaveProperty("extra");
    expect(pruned.status).toEqual({ sync: { status: "Synced", comparedTo: { destination: {} } } });
    expect(object).toHaveProperty("extra"); // the input is left alone
  });

  it("accepts free-form parts (Helm valuesObject) and maps (labels in templates)", () => {
    const spec = {
      project: "default",
      destination: { server: "https://kubernetes.default.svc" },
      source: {
        repoURL: "https://charts.example.com",
        chart: "x",
        targetRevision: "1.0.0",
        helm: { valuesObject: { any: { thing: [1, "two"] } } },
      },
      syncPolicy: { managedNamespaceMetadata: { labels: { team: "a" } } },
    };
    expect(checkAgainstCrd(application, app({ spec }))).toEqual({ causes: [], unknown: [] });
  });
});
