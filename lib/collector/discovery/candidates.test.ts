import { describe, expect, it } from "vitest";
import { toProvisioningRecord } from "../../kube/crossplane";
import fc from "fast-check";
import type { AccessPath, AccessVia } from "../../db/types";
import { normaliseEndpoint } from "../../kube/kubeconfig";
import { type Candidate, candidateFromSecret, mergeCandidates, VIA_ORDER } from "./candidates";
import { withCrossplaneFacts } from "./crossplane";
import type { SecretData } from "./secret-store";

const b64 = (s: string) => Buffer.from(s).toString("base64");
const kubeconfig = (cluster: string, server: string) =>
  [
    "apiVersion: v1",
    "clusters:",
    "- cluster:",
    `    server: ${server}`,
    `  name: ${cluster}`,
    "contexts:",
    "- context:",
    `    cluster: ${cluster}`,
    `    user: ${cluster}`,
    `  name: ${cluster}`,
    `current-context: ${cluster}`,
    "kind: Config",
    "users:",
    `- name: ${cluster}`,
    "  user:",
    "    token: k8s-aws-v1.abc",
  ].join("\n");

const secret = (namespace: string, name: string, data: Record<string, string>, extra: Partial<SecretData> = {}): SecretData => ({
  namespace,
  name,
  labels: {},
  annotations: {},
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  ...extra,
});

describe("discovery", () => {
  it("names a cluster from the kubeconfig entry, parsing an EKS ARN", () => {
    const arn = "arn:aws:eks:eu-west-1:111122223333:cluster/prod-a";
    const c = candidateFromSecret(
      { namespace: "flux-system", name: "prod-a-kubeconfig" },
      "flux-secret",
      secret("flux-system", "prod-a-kubeconfig", { value: kubeconfig(arn, "https://a.example:443") }),
      undefined,
      {},
    );
    expect(c).toMatchObject({
      name: "prod-a",
      eksArn: arn,
      region: "eu-west-1",
      accountId: "111122223333",
      endpoint: "https://a.example:443",
    });
  });

  it("honours the cluster-name annotation and environment/team labels on a labelled secret", () => {
    const s = secret(
      "fleet",
      "x",
      { value: kubeconfig("whatever", "https://x.example") },
      {
        annotations: { "crows-nest.io/cluster-name": "dev-x", "crows-nest.io/region": "us-east-1" },
        labels: { "crows-nest.io/environment": "dev", "crows-nest.io/team": "data" },
      },
    );
    expect(candidateFromSecret({ namespace: "fleet", name: "x" }, "label-secret", s, undefined, {})).toMatchObject({
      name: "dev-x",
      region: "us-east-1",
      env: "dev",
      team: "data",
    });
  });

  it("keeps a Crossplane resource whose connection secret holds only endpoint and CA (EKS token path)", () => {
    const provisioner = toProvisioningRecord({
      apiVersion: "eks.aws.crossplane.io/v1beta1",
      kind: "Cluster",
      metadata: { name: "mr-1", annotations: { "crossplane.io/external-name": "staging-b" } },
      spec: {
        forProvider: { region: "eu-central-1" },
        writeConnectionSecretToRef: { namespace: "crossplane-system", name: "staging-b-conn" },
      },
      status: {
        conditions: [
          { type: "Ready", status: "False", reason: "Creating" },
          { type: "Synced", status: "True", reason: "ReconcileSuccess" },
        ],
      },
    });
    expect(provisioner).toMatchObject({
      ready: "False",
      readyReason: "Creating",
      synced: "True",
      secretName: "staging-b-conn",
      eksName: "staging-b",
      region: "eu-central-1",
    });
    const c = candidateFromSecret(
      { namespace: "crossplane-system", name: "staging-b-conn" },
      "crossplane-secret",
      secret("crossplane-system", "staging-b-conn", { endpoint: "https://b.example" }),
      provisioner,
      {},
    );
    expect(c).toMatchObject({ name: "staging-b", endpoint: "https://b.example", region: "eu-central-1" });
  });

  it("merges one cluster seen through several paths (ARN, endpoint, name) and keeps every access path", () => {
    const arn = "arn:aws:eks:eu-west-1:111122223333:cluster/prod-a";
    const fromFlux = candidateFromSecret(
      { namespace: "flux-system", name: "a" },
      "flux-secret",
      secret("flux-system", "a", { value: kubeconfig("prod-a", "https://a.example") }),
      undefined,
      {},
    )!;
    const fromCrossplane = candidateFromSecret(
      { namespace: "crossplane-system", name: "b" },
      "crossplane-secret",
      secret("crossplane-system", "b", { kubeconfig: kubeconfig(arn, "https://A.example:443") }),
      undefined,
      {},
    )!;
    const fromEks = {
      ...fromFlux,
      via: "eks" as const,
      path: { via: "eks" as const, region: "eu-west-1" },
      endpoint: "https://a.example",
      eksArn: arn,
      eksName: "prod-a",
      region: "eu-west-1",
    };
    const other = candidateFromSecret(
      { namespace: "flux-system", name: "c" },
      "flux-secret",
      secret("flux-system", "c", { value: kubeconfig("prod-c", "https://c.example") }),
      undefined,
      {},
    )!;
    const merged = mergeCandidates([fromEks, fromCrossplane, other, fromFlux]);
    expect(merged.map((c) => c.name).sort()).toEqual(["prod-a", "prod-c"]);
    const a = merged.find((c) => c.name === "prod-a")!;
    expect(a.accessPaths.map((p) => p.via)).toEqual(["flux-secret", "crossplane-secret", "eks"]);
    expect(a.eksArn).toBe(arn);
  });

  it("a secret Crossplane published empty is the cluster its resource names, from whichever side it is found", () => {
    const provisioner = {
      ...toProvisioningRecord({
        apiVersion: "eks.aws.crossplane.io/v1beta1",
        kind: "Cluster",
        metadata: { name: "dev-use1-sandbox", annotations: { "crossplane.io/external-name": "dev-use1-sandbox" } },
        spec: {
          forProvider: { region: "us-east-1", version: "1.35" },
          writeConnectionSecretToRef: { namespace: "flux-system", name: "sandbox-conn" },
        },
        status: { conditions: [{ type: "Ready", status: "False", reason: "Creating" }] },
      }),
      secret: "empty" as const,
    };
    const empty = secret("flux-system", "sandbox-conn", {});
    // A hub Kustomization's kubeConfig ref finds the secret first, before its Crossplane resource.
    const fromFlux = candidateFromSecret({ namespace: "flux-system", name: "sandbox-conn" }, "flux-secret", empty, undefined, {})!;
    const fromCrossplane = candidateFromSecret(
      { namespace: "flux-system", name: "sandbox-conn" },
      "crossplane-secret",
      empty,
      provisioner,
      {},
    )!;
    const merged = mergeCandidates([fromCrossplane, fromFlux]);
    expect(merged.map((c) => c.name)).toEqual(["dev-use1-sandbox"]);
    const [cluster] = withCrossplaneFacts(merged, [], () => false);
    expect(cluster).toMatchObject({ provisioning: "creating", desiredVersion: "1.35" });
    expect(cluster.provisioners[0].verdict).toMatchObject({ state: "creating", reason: "Creating" });
    // The same secret with a kubeconfig: nothing is being provisioned any more.
    expect(withCrossplaneFacts(merged, [], () => true)[0].provisioning).toBeNull();
  });

  it("attaches Crossplane NodeGroups by EKS cluster name or by the Cluster resource they reference", () => {
    const fromFlux = candidateFromSecret(
      { namespace: "flux-system", name: "a" },
      "flux-secret",
      secret("flux-system", "a", { value: kubeconfig("prod-a", "https://a.example") }),
      undefined,
      {},
    )!;
    const ng = (clusterName: string | null, clusterRef: string | null, name: string) =>
      ({ name, clusterName, clusterRef }) as Parameters<typeof withCrossplaneFacts>[1][number];
    const [cluster] = withCrossplaneFacts(
      mergeCandidates([fromFlux]),
      [ng("prod-a", null, "system"), ng("prod-b", null, "x"), ng(null, "prod-a", "workers")],
      () => true,
    );
    expect(cluster.nodeGroups.map((g) => g.name)).toEqual(["system"]);
  });
});

describe("mergeCandidates at fleet size", () => {
  // The merge as a scan over every cluster merged so far (what the indexed merge must equal).
  function scanMerge(candidates: Candidate[]) {
    const out: ReturnType<typeof mergeCandidates> = [];
    const weak = new Set<(typeof out)[number]>();
    const sorted = [...candidates].sort(
      (a, b) => Number(!!a.weakName) - Number(!!b.weakName) || VIA_ORDER.indexOf(a.via) - VIA_ORDER.indexOf(b.via),
    );
    for (const c of sorted) {
      const endpoint = normaliseEndpoint(c.endpoint);
      const match = out.find(
        (o) =>
          (c.eksArn && o.eksArn === c.eksArn) ||
          (endpoint && normaliseEndpoint(o.endpoint) === endpoint) ||
          o.name === c.name ||
          (c.eksName && o.eksName === c.eksName && (!c.region || !o.region || o.region === c.region)) ||
          (c.path.secretName &&
            o.accessPaths.some((p) => p.secretName === c.path.secretName && p.secretNamespace === c.path.secretNamespace)),
      );
      const usable = c.path.via === "hub" || c.path.via === "eks" || !!c.path.secretName;
      if (!match) {
        const { via: _via, path, weakName, ...rest } = c;
        out.push({
          ...rest,
          role: c.via === "hub" ? "hub" : "spoke",
          accessPaths: usable ? [path] : [],
          provisioners: [...c.provisioners],
        });
        if (weakName) weak.add(out[out.length - 1]);
        continue;
      }
      if (weak.has(match) && !c.weakName) {
        match.name = c.name;
        weak.delete(match);
      }
      const same = (p: AccessPath) =>
        p.via === c.path.via &&
        p.secretNamespace === c.path.secretNamespace &&
        p.secretName === c.path.secretName &&
        p.region === c.path.region;
      if (usable && !match.accessPaths.some(same)) match.accessPaths.push(c.path);
      match.endpoint ??= c.endpoint;
      match.eksArn ??= c.eksArn;
      match.eksName ??= c.eksName;
      match.region ??= c.region;
      match.accountId ??= c.accountId;
      match.env ??= c.env;
      match.team ??= c.team;
      match.labels = { ...c.labels, ...match.labels };
    }
    return out.filter((c) => c.accessPaths.length > 0);
  }

  it("merges exactly as a scan over every merged cluster would, on random fleets with overlapping keys", () => {
    const pickOne = <T>(r: () => number, xs: T[]) => xs[Math.floor(r() * xs.length)];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 60 }), (seed, n) => {
        let state = seed;
        const r = () => (state = (state * 48271) % 2147483647) / 2147483647;
        const vias: AccessVia[] = ["hub", "label-secret", "flux-secret", "crossplane-secret", "argocd-secret", "eks"];
        const candidates: Candidate[] = Array.from({ length: n }, () => {
          const via = pickOne(r, vias);
          const secretName = r() < 0.7 ? pickOne(r, ["s1", "s2", "s3", "s4", "s5", "s6"]) : undefined;
          return {
            name: pickOne(r, ["a", "b", "c", "d", "e", "f", "g", "h"]),
            weakName: r() < 0.2,
            via,
            path: {
              via,
              secretNamespace: secretName ? pickOne(r, ["flux-system", "crossplane-system", undefined]) : undefined,
              secretName,
            },
            endpoint:
              r() < 0.6 ? pickOne(r, ["https://A.example:443", "a.example", "https://b.example:6443", "https://c.example", null]) : null,
            eksArn: r() < 0.3 ? pickOne(r, ["arn:aws:eks:eu-west-1:1:cluster/x", "arn:aws:eks:us-east-1:1:cluster/y"]) : null,
            eksName: r() < 0.4 ? pickOne(r, ["x", "y", "z"]) : null,
            region: r() < 0.5 ? pickOne(r, ["eu-west-1", "us-east-1"]) : null,
            accountId: null,
            env: r() < 0.3 ? pickOne(r, ["prod", "dev"]) : null,
            team: null,
            labels: (r() < 0.3 ? { team: pickOne(r, ["t1", "t2"]) } : {}) as Record<string, string>,
            provisioners: [],
          };
        });
        expect(mergeCandidates(candidates)).toEqual(scanMerge(candidates));
      }),
      { seed: 20261123, numRuns: 400 },
    );
  });
});
