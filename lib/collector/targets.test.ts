import { describe, expect, it } from "vitest";
import type { FluxObjectRecord } from "../kube/types";
import { clustersBySecret, objectTargets } from "./targets";

const clusters = [
  { id: 1, role: "hub", endpoint: "https://hub.example:6443", accessPaths: [{ via: "hub" as const }] },
  {
    id: 2,
    role: "spoke",
    endpoint: "https://a.example",
    accessPaths: [{ via: "flux-secret" as const, secretNamespace: "flux-system", secretName: "a-kubeconfig" }],
  },
  {
    id: 3,
    role: "spoke",
    endpoint: null,
    accessPaths: [
      {
        via: "argocd-secret" as const,
        secretNamespace: "argocd",
        secretName: "b",
        argocd: {
          name: "prod-b",
          server: "https://B.example:443/",
          access: "a bearer token from the secret",
          problem: null,
          warnings: [],
          gitopsBridge: {} as never,
        },
      },
    ],
  },
];
const record = (kind: string, name: string, extra: Partial<FluxObjectRecord>) =>
  ({ kind, namespace: "argocd", name, spec: {}, details: null, ...extra }) as FluxObjectRecord;
const app = (name: string, destination: Record<string, string>) => record("Application", name, { details: { destination } });

describe("objects that apply to another cluster", () => {
  it("resolves an Application's destination by server URL (any form of it) or Argo CD name; its own cluster is no target", () => {
    const index = clustersBySecret(clusters);
    const targets = objectTargets(
      [
        app("by-server", { server: "https://a.example:443" }),
        app("by-argo-server", { server: "https://b.example" }),
        app("by-name", { name: "prod-b" }),
        app("in-cluster", { server: "https://kubernetes.default.svc" }),
        app("in-cluster-name", { name: "in-cluster" }),
        app("unknown", { name: "nowhere" }),
        app("hub-by-server", { server: "https://hub.example:6443" }),
        record("Kustomization", "via-secret", { spec: { kubeConfig: { secretRef: { name: "a-kubeconfig" } } }, namespace: "flux-system" }),
        record("Kustomization", "local", {}),
      ],
      index,
    );
    expect(Object.fromEntries(targets.map((t) => [t.name, t.targetClusterId]))).toEqual({
      "by-server": 2,
      "by-argo-server": 3,
      "by-name": 3,
      "in-cluster": null,
      "in-cluster-name": null,
      unknown: null,
      "hub-by-server": null,
      "via-secret": 2,
    });
  });
});
