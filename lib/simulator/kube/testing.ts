// A tiny deterministic fleet for the Kubernetes-side tests, built from recorded API responses: a hub
// with Crossplane resources and a composite, spokes with Flux objects and Events. One Kustomization
// ("apps") flips between failing and ready every simulated minute so re-syncs have something to do.
import { readFileSync } from "node:fs";
import type { FleetModel, KubeObject, RuntimeInfo, SimCluster } from "../contract";

export function readFixture(name: string): { status: number; headers: Record<string, string>; body: string } {
  const raw = readFileSync(new URL(`./fixtures/${name}.http`, import.meta.url), "utf8");
  const split = raw.indexOf("\r\n\r\n") >= 0 ? raw.indexOf("\r\n\r\n") : raw.indexOf("\n\n");
  const head = raw.slice(0, split).split(/\r?\n/);
  const status = Number(head[0].split(" ")[1]);
  const headers = Object.fromEntries(
    head.slice(1).map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  return { status, headers, body: raw.slice(split).trim() };
}

function recorded(name: string): KubeObject[] {
  const body = JSON.parse(readFixture(name).body) as { apiVersion: string; kind: string; items: KubeObject[] };
  return body.items.map((item) => {
    const { managedFields: _managed, resourceVersion: _rv, uid: _uid, ...metadata } = item.metadata;
    // Core list items carry no apiVersion/kind on the wire; the model's objects always do.
    const typeMeta = { apiVersion: item.apiVersion ?? body.apiVersion, kind: item.kind ?? body.kind.replace(/List$/, "") };
    return { ...item, ...typeMeta, metadata } as KubeObject;
  });
}

const MINUTE = 60_000;

export interface TestFleetOptions {
  spokes?: number;
  /** Extra generated Kustomizations per spoke (pagination). */
  extraKustomizations?: number;
  unreachable?: (cluster: string, t: number) => boolean;
}

export function createTestFleet(options: TestFleetOptions = {}): FleetModel {
  const spokes = options.spokes ?? 2;
  const clusters: SimCluster[] = [
    { name: "hub", role: "hub", gitVersion: "v1.33.4-eks-3025e55", auth: "static", env: "mgmt", team: "platform" },
    ...Array.from({ length: spokes }, (_, index): SimCluster => {
      const name = `spoke-${index + 1}`;
      return {
        name,
        role: "spoke",
        gitVersion: "v1.32.9-eks-113cf36",
        auth: "eks",
        env: index % 2 ? "prod" : "staging",
        team: "payments",
        eks: { name, region: "eu-west-1", accountId: "111122223333", arn: `arn:aws:eks:eu-west-1:111122223333:cluster/${name}` },
      };
    }),
  ];
  const kustomizations = recorded("02-list-kustomizations-all");
  const helmReleases = recorded("33-list-helmreleases-all");
  const events = recorded("22-events-fieldselector");

  const spokeObjects = (t: number): KubeObject[] => {
    const failing = Math.floor(t / MINUTE) % 2 === 0;
    const objects: KubeObject[] = [
      {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name: "flux-system", labels: { "kubernetes.io/metadata.name": "flux-system" } },
        spec: { finalizers: ["kubernetes"] },
        status: { phase: "Active" },
      },
      ...kustomizations.map((ks) => {
        if (ks.metadata.name !== "apps" || failing) return ks;
        const status = ks.status as { conditions: Record<string, unknown>[] };
        return {
          ...ks,
          status: {
            ...status,
            conditions: [
              {
                ...status.conditions[0],
                status: "True",
                reason: "ReconciliationSucceeded",
                message: "Applied revision: main@sha1:14f23760b24abde0bb034bb1efef3e97dba07b49",
              },
            ],
          },
        };
      }),
      ...helmReleases,
      ...events,
    ];
    for (let i = 0; i < (options.extraKustomizations ?? 0); i++) {
      objects.push({
        apiVersion: "kustomize.toolkit.fluxcd.io/v1",
        kind: "Kustomization",
        metadata: { name: `tenant-${String(i).padStart(3, "0")}`, namespace: "tenants", labels: { tier: i % 3 === 0 ? "gold" : "silver" } },
        spec: { interval: "10m0s", path: `./tenants/${i}`, prune: true, sourceRef: { kind: "GitRepository", name: "flux-system" } },
        status: {
          conditions: [
            {
              type: "Ready",
              status: "True",
              reason: "ReconciliationSucceeded",
              message: "Applied revision: main@sha1:1",
              lastTransitionTime: "2026-11-21T19:00:00Z",
              observedGeneration: 1,
            },
          ],
          observedGeneration: 1,
        },
      });
    }
    return objects;
  };

  const hubObjects = (runtime: RuntimeInfo): KubeObject[] =>
    clusters
      .filter((cluster) => cluster.role === "spoke")
      .flatMap((cluster): KubeObject[] => [
        {
          apiVersion: "eks.aws.crossplane.io/v1beta1",
          kind: "Cluster",
          metadata: { name: cluster.name, annotations: { "crossplane.io/external-name": cluster.name } },
          spec: {
            forProvider: { region: "eu-west-1", version: "1.32" },
            writeConnectionSecretToRef: { name: `${cluster.name}-conn`, namespace: "crossplane-system" },
          },
          status: {
            conditions: [
              { type: "Ready", status: "True", reason: "Available", lastTransitionTime: "2026-11-20T10:00:00Z" },
              { type: "Synced", status: "True", reason: "ReconcileSuccess", lastTransitionTime: "2026-11-20T10:00:00Z" },
            ],
          },
        },
        {
          apiVersion: "platform.example.org/v1alpha1",
          kind: "EKSCluster",
          metadata: { name: cluster.name },
          spec: { region: "eu-west-1" },
          status: {
            conditions: [
              { type: "Synced", status: "True", reason: "ReconcileSuccess" },
              { type: "Ready", status: "True", reason: "Available" },
            ],
          },
        },
        {
          apiVersion: "v1",
          kind: "Secret",
          metadata: { name: `${cluster.name}-conn`, namespace: "crossplane-system" },
          type: "connection.crossplane.io/v1alpha1",
          data: {
            endpoint: Buffer.from(runtime.endpointOf(cluster.name)).toString("base64"),
            clusterCA: Buffer.from(Buffer.from(runtime.caDataOf(cluster.name), "base64")).toString("base64"),
          },
        },
      ]);

  return {
    seed: 7,
    clusters,
    objectsAt: (cluster, t, runtime) => (cluster === "hub" ? hubObjects(runtime) : spokeObjects(t)),
    changedClusters: (t0, t1) =>
      Math.floor(t0 / MINUTE) === Math.floor(t1 / MINUTE) ? [] : clusters.filter((c) => c.role === "spoke").map((c) => c.name),
    conditionsAt: (cluster, t) => ({ unreachable: options.unreachable?.(cluster, t) ?? false }),
  };
}
