import { describe, expect, it } from "vitest";
import { parseArgoClusterSecret } from "../../kube/argocd/cluster-secret";
import { argocdCandidatesFrom, candidateFromArgoSecret } from "./argocd-secrets";
import { candidateFromSecret, mergeCandidates } from "./candidates";
import { SourceProblems } from "./problems";
import { model, ofKind, runtime } from "./simulated-hub.testing";

const HUB = { name: "hub", server: "https://hub.sim.test:6443" };
const clusterSecrets = ofKind("Secret").filter((s) => (s.metadata as { namespace: string }).namespace === "argocd");
const parsed = (name: string) => {
  const raw = clusterSecrets.find((s) => (s.metadata as { name: string }).name === name);
  const result = parseArgoClusterSecret(raw);
  if (!result.ok) throw new Error(result.problem);
  return result.cluster;
};

describe("discovery through Argo CD cluster secrets", () => {
  it("turns a GitOps Bridge secret with awsAuthConfig into a way in that mints an EKS token after assuming the role", () => {
    const [spoke] = model.facts.argocd!.argoOnly.filter((s) => s.auth === "aws");
    const c = candidateFromArgoSecret(parsed(spoke.name), HUB);
    const spec = model.argoSpokes.find((s) => s.name === spoke.name)!;
    expect(c).toMatchObject({
      name: spoke.name,
      via: "argocd-secret",
      endpoint: runtime.endpointOf(spoke.name),
      eksName: spoke.name,
      eksArn: `arn:aws:eks:${spec.region}:${spec.accountId}:cluster/${spoke.name}`,
      region: spec.region,
      accountId: spec.accountId,
      env: spec.env,
      team: spec.team,
    });
    expect(c.path).toMatchObject({
      via: "argocd-secret",
      secretNamespace: "argocd",
      secretName: spoke.name,
      region: spec.region,
      roleArn: `arn:aws:iam::${spec.accountId}:role/${spoke.name}-argocd-spoke`,
    });
    expect(c.path.argocd).toMatchObject({ name: spoke.name, problem: null, warnings: [] });
    expect(c.path.argocd!.access).toContain(`an EKS token for cluster ${spoke.name}, assuming arn:aws:iam::`);
    // Labels become cluster labels (add-on flags included), annotations facts.
    expect(c.labels).toMatchObject({ environment: spec.env, enable_aws_load_balancer_controller: "true", aws_cluster_name: spoke.name });
    expect(c.labels["argocd.argoproj.io/secret-type"]).toBeUndefined();
    expect(c.path.argocd!.gitopsBridge).toMatchObject({
      addons: { aws_load_balancer_controller: true, cert_manager: true },
      addonsRepo: { url: "https://github.com/acme-platform/gitops-bridge-control-plane", path: "bootstrap/control-plane/addons" },
    });
    // Stored as is: nothing from the config (the CA, a token) is kept.
    expect(JSON.stringify(c)).not.toContain("BEGIN CERTIFICATE");
  });

  it("reports an exec plugin it will not run, and keeps no credential of a bearer secret", () => {
    const exec = model.facts.argocd!.argoOnly.find((s) => s.auth === "exec")!;
    const bearer = model.facts.argocd!.argoOnly.find((s) => s.auth === "bearer")!;
    expect(candidateFromArgoSecret(parsed(exec.name), HUB).path.argocd!.problem).toContain('exec plugin "tsh"');
    const b = candidateFromArgoSecret(parsed(bearer.name), HUB);
    expect(b.path.argocd).toMatchObject({ access: "a bearer token from the secret", problem: null });
    expect(JSON.stringify(b)).not.toMatch(/eyJ/);
  });

  it("merges the in-cluster secret with the hub and a Flux spoke's secret with its kubeconfig secret, by server URL", () => {
    const [fluxSpoke] = model.facts.argocd!.fluxSpokes;
    const inCluster = candidateFromArgoSecret(parsed("hub"), HUB);
    expect(inCluster).toMatchObject({ name: "hub", endpoint: HUB.server, env: "control-plane" });
    const kubeconfig = [
      "apiVersion: v1",
      "clusters:",
      `- cluster: {server: "${runtime.endpointOf(fluxSpoke)}"}`,
      `  name: ${fluxSpoke}`,
      "contexts: [{name: c, context: {cluster: " + fluxSpoke + ", user: u}}]",
      "current-context: c",
      "users: [{name: u, user: {token: t}}]",
    ].join("\n");
    const viaFlux = candidateFromSecret(
      { namespace: "flux-system", name: `${fluxSpoke}-kubeconfig` },
      "flux-secret",
      {
        namespace: "flux-system",
        name: `${fluxSpoke}-kubeconfig`,
        labels: {},
        annotations: {},
        data: { value: Buffer.from(kubeconfig).toString("base64") },
      },
      undefined,
      {},
    )!;
    const merged = mergeCandidates([
      { ...inCluster, via: "hub", path: { via: "hub" }, labels: {}, env: null },
      inCluster,
      viaFlux,
      candidateFromArgoSecret(parsed(fluxSpoke), HUB),
    ]);
    expect(merged.map((c) => [c.name, c.role, c.accessPaths.map((p) => p.via)])).toEqual([
      ["hub", "hub", ["hub", "argocd-secret"]],
      [fluxSpoke, "spoke", ["flux-secret", "argocd-secret"]],
    ]);
    expect(merged[1].eksArn).toMatch(new RegExp(`:cluster/${fluxSpoke}$`));
  });

  it("notes a broken secret and goes on with the others, without making discovery incomplete", () => {
    const problems = new SourceProblems();
    const broken = structuredClone(clusterSecrets[1]);
    (broken.data as Record<string, string>).config = Buffer.from("{not json").toString("base64");
    const candidates = argocdCandidatesFrom([clusterSecrets[0], broken, ...clusterSecrets.slice(2)], HUB, problems);
    expect(candidates).toHaveLength(clusterSecrets.length - 1);
    expect(problems.messages).toEqual([
      `Argo CD cluster secret argocd/${(broken.metadata as { name: string }).name}: config is not valid JSON (at character 1)`,
    ]);
    expect(problems.complete).toBe(true);
  });
});
