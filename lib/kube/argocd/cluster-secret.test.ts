import { describe, expect, it } from "vitest";
import { accessProblem, accessSummary, parseArgoClusterSecret, parseArgoClusterSecrets, resolveDestination } from "./cluster-secret";
import type { ArgoClusterSecret } from "./types";

const CA = "-----BEGIN CERTIFICATE-----\nMIIBdzCCAR2gAwIBAgIUSimulatedCaForTests0123456789wCgYIKoZIzj0EAwIw\n-----END CERTIFICATE-----\n";
const CERT = "-----BEGIN CERTIFICATE-----\nMIIBclientCertificateForTests\n-----END CERTIFICATE-----\n";
const KEY = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIclientKeyForTests\n-----END EC PRIVATE KEY-----\n";
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const SERVER = "https://ABCDEF0123456789.gr7.us-west-2.eks.amazonaws.com";

/** A cluster secret as the API server returns it: every value base64 in `data`. */
function secret(
  data: Record<string, string | undefined>,
  meta: { labels?: Record<string, string>; annotations?: Record<string, string>; name?: string } = {},
) {
  return {
    apiVersion: "v1",
    kind: "Secret",
    type: "Opaque",
    metadata: {
      name: meta.name ?? "hub-spoke-staging",
      namespace: "argocd",
      uid: "0b1c2d3e-0000-4000-a000-000000000001",
      labels: { "argocd.argoproj.io/secret-type": "cluster", ...meta.labels },
      annotations: meta.annotations,
    },
    data: Object.fromEntries(
      Object.entries(data)
        .filter((e): e is [string, string] => e[1] !== undefined)
        .map(([k, v]) => [k, b64(v)]),
    ),
  };
}
const withConfig = (config: unknown, extra: Record<string, string> = {}) =>
  secret({ name: "hub-spoke-staging", server: SERVER, config: typeof config === "string" ? config : JSON.stringify(config), ...extra });

const ok = (raw: unknown): ArgoClusterSecret => {
  const result = parseArgoClusterSecret(raw);
  if (!result.ok) throw new Error(`expected a parsed secret, got: ${result.problem}`);
  return result.cluster;
};
const problem = (raw: unknown): string => {
  const result = parseArgoClusterSecret(raw);
  if (result.ok) throw new Error("expected a problem");
  return result.problem;
};

describe("Argo CD cluster secret config shapes", () => {
  const cases: Array<{
    name: string;
    config: unknown;
    server?: string;
    auth: unknown;
    tls?: Partial<ArgoClusterSecret["access"]["tls"]>;
    warning?: RegExp;
  }> = [
    {
      name: "GitOps Bridge default (TLS only, no credentials)",
      config: { tlsClientConfig: { insecure: false } },
      auth: { type: "none" },
      tls: { caPem: null, insecure: false, clientCert: null },
    },
    {
      name: "bearer token with CA",
      config: { bearerToken: "eyJhbGciOiJSUzI1NiJ9.sa-token", tlsClientConfig: { insecure: false, caData: b64(CA) } },
      auth: { type: "bearer", token: "eyJhbGciOiJSUzI1NiJ9.sa-token" },
      tls: { caPem: CA },
    },
    {
      name: "client certificate",
      config: { tlsClientConfig: { caData: b64(CA), certData: b64(CERT), keyData: b64(KEY), serverName: "kubernetes.internal" } },
      auth: { type: "client-cert" },
      tls: { clientCert: { certPem: CERT, keyPem: KEY }, serverName: "kubernetes.internal" },
    },
    {
      name: "client certificate next to a bearer token (both are sent)",
      config: { bearerToken: "t", tlsClientConfig: { certData: b64(CERT), keyData: b64(KEY) } },
      auth: { type: "bearer", token: "t" },
      tls: { clientCert: { certPem: CERT, keyPem: KEY } },
    },
    {
      name: "awsAuthConfig with a role (GitOps Bridge spoke)",
      config: {
        tlsClientConfig: { insecure: false, caData: b64(CA) },
        awsAuthConfig: { clusterName: "hub-spoke-staging", roleARN: "arn:aws:iam::123456789012:role/hub-spoke-staging-argocd-spoke" },
      },
      auth: {
        type: "eks-token",
        clusterName: "hub-spoke-staging",
        roleArn: "arn:aws:iam::123456789012:role/hub-spoke-staging-argocd-spoke",
        profile: null,
        via: "awsAuthConfig",
      },
      tls: { caPem: CA },
    },
    {
      name: "awsAuthConfig beats execProviderConfig and bearerToken (Argo CD's precedence)",
      config: {
        bearerToken: "ignored",
        awsAuthConfig: { clusterName: "prod-1" },
        execProviderConfig: { command: "tsh", args: ["kube", "credentials"], apiVersion: "client.authentication.k8s.io/v1beta1" },
      },
      auth: { type: "eks-token", clusterName: "prod-1", roleArn: null, profile: null, via: "awsAuthConfig" },
      warning: /execProviderConfig is ignored/,
    },
    {
      name: "awsAuthConfig with a profile (Argo CD's own AWS profile: noted)",
      config: { awsAuthConfig: { clusterName: "prod-1", profile: "spoke-admin" } },
      auth: { type: "eks-token", clusterName: "prod-1", roleArn: null, profile: "spoke-admin", via: "awsAuthConfig" },
      warning: /profile "spoke-admin"/,
    },
    {
      name: "execProviderConfig we cannot run: command kept, args and env dropped",
      config: {
        execProviderConfig: {
          command: "tsh",
          args: ["kube", "credentials", "--kube-cluster=prod-1", "--token=secret"],
          env: { TELEPORT_TOKEN: "secret" },
          apiVersion: "client.authentication.k8s.io/v1beta1",
          installHint: "install tsh",
        },
        bearerToken: "ignored",
      },
      auth: { type: "exec", command: "tsh", apiVersion: "client.authentication.k8s.io/v1beta1", installHint: "install tsh" },
      warning: /bearerToken and username\/password are ignored/,
    },
    {
      name: "exec `argocd-k8s-auth aws` is the awsAuthConfig token: minted natively",
      config: {
        execProviderConfig: {
          command: "argocd-k8s-auth",
          args: ["aws", "--cluster-name", "my-eks-cluster", "--role-arn", "arn:aws:iam::1:role/r"],
          env: { AWS_REGION: "xx-east-1" },
          apiVersion: "client.authentication.k8s.io/v1beta1",
        },
      },
      auth: { type: "eks-token", clusterName: "my-eks-cluster", roleArn: "arn:aws:iam::1:role/r", profile: null, via: "exec" },
    },
    {
      name: "exec `aws eks get-token --cluster-name=x`",
      config: {
        execProviderConfig: { command: "/usr/local/bin/aws", args: ["eks", "get-token", "--cluster-name=x", "--region", "eu-west-1"] },
      },
      auth: { type: "eks-token", clusterName: "x", roleArn: null, profile: null, via: "exec" },
    },
    {
      name: "username and password",
      config: { username: "admin", password: "s3cret", tlsClientConfig: { insecure: true } },
      auth: { type: "basic", username: "admin", password: "s3cret" },
      tls: { insecure: true },
    },
    {
      name: "field names match case-insensitively, as Go's encoding/json does",
      config: { BearerToken: "tok", TLSClientConfig: { CAData: b64(CA) } },
      auth: { type: "bearer", token: "tok" },
      tls: { caPem: CA },
    },
    {
      name: "in-cluster server ignores awsAuthConfig and TLS",
      server: "https://kubernetes.default.svc/",
      config: { tlsClientConfig: { caData: b64(CA) }, awsAuthConfig: { clusterName: "hub" } },
      auth: { type: "in-cluster" },
      tls: { caPem: CA },
      warning: /ignored for the in-cluster server/,
    },
    {
      name: "in-cluster server with a bearer token override",
      server: "https://kubernetes.default.svc",
      config: { bearerToken: "override" },
      auth: { type: "bearer", token: "override" },
    },
    { name: "no config at all", config: "", auth: { type: "none" } },
    { name: "config null", config: "null", auth: { type: "none" } },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const cluster = ok(
        secret({
          name: "hub-spoke-staging",
          server: c.server ?? SERVER,
          config: typeof c.config === "string" ? c.config : JSON.stringify(c.config),
        }),
      );
      expect(cluster.access.auth).toEqual(c.auth);
      if (c.tls) expect(cluster.access.tls).toMatchObject(c.tls);
      if (c.warning) expect(cluster.warnings.join("\n")).toMatch(c.warning);
      // Nothing that describes the access for storage or display carries a credential.
      expect(accessSummary(cluster.access)).not.toMatch(/s3cret|sa-token|override|\btok\b|--token|TELEPORT/);
    });
  }

  it("keeps proxyUrl and disableCompression, and trims the server's trailing slash", () => {
    const cluster = ok(
      secret({ server: `${SERVER}/`, config: JSON.stringify({ proxyUrl: "socks5://proxy:1080", disableCompression: true }) }),
    );
    expect(cluster.server).toBe(SERVER);
    expect(cluster.access).toMatchObject({ endpoint: SERVER, proxyUrl: "socks5://proxy:1080", disableCompression: true });
  });

  it("reads namespaces, clusterResources, project and shard like Argo CD", () => {
    const cluster = ok(
      secret({ server: SERVER, namespaces: " team-a, ,team-b ", clusterResources: "true", project: "payments", shard: "2" }),
    );
    expect(cluster).toMatchObject({ namespaces: ["team-a", "team-b"], clusterResources: true, project: "payments", shard: 2 });
    const loose = ok(secret({ server: SERVER, clusterResources: "yes", shard: "two" }));
    expect(loose).toMatchObject({ clusterResources: false, shard: null, namespaces: [] });
    expect(loose.warnings.join("\n")).toMatch(/shard "two" is not a number/);
  });

  it("accepts stringData (manifests) and lets it win over data, as on write", () => {
    const raw = { ...secret({ server: "https://old.example" }), stringData: { server: SERVER, name: "from-string-data" } };
    expect(ok(raw)).toMatchObject({ server: SERVER, name: "from-string-data" });
  });
});

describe("Argo CD cluster secrets that Argo CD itself would reject", () => {
  const cases: Array<{ name: string; raw: unknown; problem: RegExp }> = [
    { name: "malformed config JSON", raw: withConfig('{"bearerToken": "abc", '), problem: /^config is not valid JSON/ },
    { name: "config JSON that is not an object", raw: withConfig("[1,2]"), problem: /config must be a JSON object/ },
    { name: "missing server", raw: secret({ name: "x", config: "{}" }), problem: /no server/ },
    { name: "server that is not a URL", raw: secret({ server: "kubernetes.default.svc" }), problem: /not an http\(s\) URL/ },
    {
      name: "data value that is not base64",
      raw: { ...secret({ name: "x" }), data: { server: "!!not base64!!" } },
      problem: /data\.server is not valid base64/,
    },
    { name: "caData that is not base64", raw: withConfig({ tlsClientConfig: { caData: "%%%" } }), problem: /caData is not valid base64/ },
    {
      name: "caData that is base64 but not PEM",
      raw: withConfig({ tlsClientConfig: { caData: b64("hello") } }),
      problem: /caData is base64 but not of a PEM certificate/,
    },
    {
      name: "certData without keyData",
      raw: withConfig({ tlsClientConfig: { certData: b64(CERT) } }),
      problem: /certData without keyData/,
    },
    {
      name: "wrong type (insecure as a string)",
      raw: withConfig({ tlsClientConfig: { insecure: "true" } }),
      problem: /insecure must be a boolean/,
    },
    {
      name: "wrong type (bearerToken as a number)",
      raw: withConfig({ bearerToken: 42 }),
      problem: /bearerToken must be a string, not number/,
    },
    {
      name: "awsAuthConfig without clusterName",
      raw: withConfig({ awsAuthConfig: { roleARN: "arn:aws:iam::1:role/r" } }),
      problem: /awsAuthConfig has no clusterName/,
    },
    {
      name: "execProviderConfig without command",
      raw: withConfig({ execProviderConfig: { args: ["x"] } }),
      problem: /execProviderConfig has no command/,
    },
    {
      name: "bearer token and basic auth together",
      raw: withConfig({ bearerToken: "t", username: "u", password: "p" }),
      problem: /not both/,
    },
    {
      name: "insecure with a CA",
      raw: withConfig({ tlsClientConfig: { insecure: true, caData: b64(CA) } }),
      problem: /both insecure and caData/,
    },
    {
      name: "proxy with an unsupported scheme",
      raw: withConfig({ proxyUrl: "ftp://proxy:21" }),
      problem: /proxyUrl must use http, https or socks5, not ftp/,
    },
    {
      name: "a Secret without the cluster label",
      raw: {
        ...secret({ server: SERVER }),
        metadata: { name: "x", namespace: "argocd", labels: { "argocd.argoproj.io/secret-type": "repository" } },
      },
      problem: /not an Argo CD cluster secret/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => expect(problem(c.raw)).toMatch(c.problem));
  }

  it("never repeats a credential from a broken config in the problem", () => {
    const text = problem(withConfig('{"bearerToken": "super-secret-token-value" oops}'));
    expect(text).not.toContain("super-secret");
  });

  it("reports each broken secret apart and keeps the good ones", () => {
    const items = [
      secret({ name: "good", server: SERVER }, { name: "good" }),
      withConfig("{oops"),
      {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: "repo", namespace: "argocd", labels: { "argocd.argoproj.io/secret-type": "repository" } },
      },
      secret({ name: "no-server" }, { name: "no-server" }),
    ];
    const { clusters, problems } = parseArgoClusterSecrets(items);
    expect(clusters.map((c) => c.secret.name)).toEqual(["good"]);
    expect(problems).toEqual([
      { secret: { namespace: "argocd", name: "hub-spoke-staging" }, problem: expect.stringMatching(/not valid JSON/) },
      { secret: { namespace: "argocd", name: "no-server" }, problem: expect.stringMatching(/no server/) },
    ]);
  });
});

describe("GitOps Bridge metadata", () => {
  // Labels and annotations as gitops-bridge-argocd-bootstrap-terraform v2.0.0 writes them for a spoke.
  const bridge = secret(
    {
      name: "hub-spoke-staging",
      server: SERVER,
      config: `{\n  "tlsClientConfig": {\n    "insecure": false,\n    "caData" : "${b64(CA)}"\n  },\n  "awsAuthConfig" : {\n    "clusterName": "hub-spoke-staging",\n    "roleARN": "arn:aws:iam::123456789012:role/hub-spoke-staging-argocd-spoke"\n  }\n}\n`,
    },
    {
      labels: {
        cluster_name: "hub-spoke-staging",
        environment: "staging",
        enable_argocd: "true",
        enable_aws_load_balancer_controller: "true",
        enable_cert_manager: "false",
        enable_metrics_server: "true",
        kubernetes_version: "1.28",
        aws_cluster_name: "hub-spoke-staging",
      },
      annotations: {
        cluster_name: "hub-spoke-staging",
        environment: "staging",
        aws_cluster_name: "hub-spoke-staging",
        aws_region: "us-west-2",
        aws_account_id: "123456789012",
        aws_vpc_id: "vpc-0a1b2c3d4e5f67890",
        aws_load_balancer_controller_iam_role_arn: "arn:aws:iam::123456789012:role/alb-controller",
        aws_load_balancer_controller_namespace: "kube-system",
        aws_load_balancer_controller_service_account: "aws-load-balancer-controller-sa",
        karpenter_sqs_queue_name: "karpenter-queue",
        addons_repo_url: "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
        addons_repo_basepath: "",
        addons_repo_path: "bootstrap/control-plane/addons",
        addons_repo_revision: "HEAD",
        workload_repo_url: "https://github.com/gitops-bridge-dev/gitops-bridge",
        workload_repo_basepath: "argocd/iac/terraform/examples/eks/",
        workload_repo_path: "multi-cluster/hub-spoke/k8s",
        workload_repo_revision: "HEAD",
        "kubectl.kubernetes.io/last-applied-configuration": "{}",
        "managed-by": "argocd.argoproj.io",
      },
    },
  );

  it("turns labels and annotations into cluster facts, and keeps Argo CD's view of both", () => {
    const cluster = ok(bridge);
    expect(cluster).toMatchObject({
      name: "hub-spoke-staging",
      env: "staging",
      team: null,
      region: "us-west-2",
      accountId: "123456789012",
      eksName: "hub-spoke-staging",
      eksArn: "arn:aws:eks:us-west-2:123456789012:cluster/hub-spoke-staging",
      inCluster: false,
    });
    expect(cluster.gitopsBridge).toEqual({
      clusterName: "hub-spoke-staging",
      environment: "staging",
      team: null,
      region: "us-west-2",
      accountId: "123456789012",
      eksClusterName: "hub-spoke-staging",
      vpcId: "vpc-0a1b2c3d4e5f67890",
      kubernetesVersion: "1.28",
      addons: { argocd: true, aws_load_balancer_controller: true, cert_manager: false, metrics_server: true },
      addonMetadata: {
        aws_load_balancer_controller: {
          iamRoleArn: "arn:aws:iam::123456789012:role/alb-controller",
          namespace: "kube-system",
          serviceAccount: "aws-load-balancer-controller-sa",
        },
      },
      addonsRepo: {
        url: "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
        basepath: "",
        path: "bootstrap/control-plane/addons",
        revision: "HEAD",
      },
      workloadRepo: {
        url: "https://github.com/gitops-bridge-dev/gitops-bridge",
        basepath: "argocd/iac/terraform/examples/eks/",
        path: "multi-cluster/hub-spoke/k8s",
        revision: "HEAD",
      },
    });
    expect(cluster.labels).not.toHaveProperty("argocd.argoproj.io/secret-type");
    expect(cluster.annotations).not.toHaveProperty("kubectl.kubernetes.io/last-applied-configuration");
    expect(cluster.annotations).not.toHaveProperty("managed-by");
    expect(cluster.annotations.karpenter_sqs_queue_name).toBe("karpenter-queue");
    expect(accessSummary(cluster.access)).toBe(
      "an EKS token for cluster hub-spoke-staging, assuming arn:aws:iam::123456789012:role/hub-spoke-staging-argocd-spoke (awsAuthConfig)",
    );
    expect(accessProblem(cluster.access)).toBeNull();
  });

  it("takes team and region labels from people who follow the convention loosely", () => {
    const cluster = ok(secret({ server: SERVER }, { labels: { env: "dev", team: "payments", region: "eu-west-1", enable_keda: "yes" } }));
    expect(cluster).toMatchObject({ env: "dev", team: "payments", region: "eu-west-1", eksArn: null });
    expect(cluster.gitopsBridge.addons).toEqual({});
    expect(cluster.warnings.join("\n")).toMatch(/label enable_keda is "yes"/);
  });

  it("says why an exec-only cluster cannot be reached, naming the plugin", () => {
    const cluster = ok(withConfig({ execProviderConfig: { command: "tsh", args: ["kube", "credentials"] } }));
    expect(accessProblem(cluster.access)).toMatch(/exec plugin "tsh"; Crow's Nest never runs exec plugins/);
    expect(accessSummary(cluster.access)).toBe('the exec plugin "tsh", which Crow\'s Nest does not run');
  });

  it("honours skip-reconcile", () => {
    expect(ok(secret({ server: SERVER }, { annotations: { "argocd.argoproj.io/skip-reconcile": "true" } })).skipReconcile).toBe(true);
  });
});

describe("resolveDestination", () => {
  const spoke = ok(secret({ name: "spoke-a", server: "https://a.example" }, { name: "spoke-a" }));
  const twin = ok(secret({ name: "spoke-a", server: "https://a2.example" }, { name: "spoke-a-2" }));
  const hubSecret = ok(secret({ name: "hub", server: "https://kubernetes.default.svc" }, { name: "hub" }));

  const cases: Array<{
    name: string;
    destination: { server?: string; name?: string };
    clusters: ArgoClusterSecret[];
    server?: string;
    secret?: string | null;
    problem?: string;
    inClusterEnabled?: boolean;
  }> = [
    { name: "by server", destination: { server: "https://a.example/" }, clusters: [spoke], server: "https://a.example", secret: "spoke-a" },
    {
      name: "by name (GitOps Bridge ApplicationSets)",
      destination: { name: "spoke-a" },
      clusters: [spoke],
      server: "https://a.example",
      secret: "spoke-a",
    },
    {
      name: "implicit in-cluster by name, no secret",
      destination: { name: "in-cluster" },
      clusters: [spoke],
      server: "https://kubernetes.default.svc",
      secret: null,
    },
    {
      name: "implicit in-cluster by server",
      destination: { server: "https://kubernetes.default.svc" },
      clusters: [],
      server: "https://kubernetes.default.svc",
      secret: null,
    },
    {
      name: "in-cluster name reaches the secret that registers the in-cluster server",
      destination: { name: "in-cluster" },
      clusters: [hubSecret],
      server: "https://kubernetes.default.svc",
      secret: "hub",
    },
    {
      name: "that secret's own name works too",
      destination: { name: "hub" },
      clusters: [hubSecret],
      server: "https://kubernetes.default.svc",
      secret: "hub",
    },
    {
      name: "both name and server",
      destination: { name: "spoke-a", server: "https://a.example" },
      clusters: [spoke],
      problem: "application destination can't have both name and server defined: spoke-a https://a.example",
    },
    { name: "neither", destination: {}, clusters: [spoke], problem: "Destination server missing from app spec" },
    { name: "unknown name", destination: { name: "nope" }, clusters: [spoke], problem: "there are no clusters with this name: nope" },
    {
      name: "unknown server",
      destination: { server: "https://b.example" },
      clusters: [spoke],
      problem: 'cluster "https://b.example" not found',
    },
    {
      name: "duplicate name",
      destination: { name: "spoke-a" },
      clusters: [spoke, twin],
      problem: "there are 2 clusters with the same name: [https://a.example https://a2.example]",
    },
    {
      name: "in-cluster disabled",
      destination: { server: "https://kubernetes.default.svc" },
      clusters: [],
      problem: 'cluster "https://kubernetes.default.svc" is disabled',
      inClusterEnabled: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const result = resolveDestination(c.destination, c.clusters, { inClusterEnabled: c.inClusterEnabled });
      if (c.problem) expect(result).toEqual({ ok: false, problem: c.problem });
      else {
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.cluster.server).toBe(c.server);
        expect(result.cluster.secret?.secret.name ?? null).toBe(c.secret);
      }
    });
  }
});
