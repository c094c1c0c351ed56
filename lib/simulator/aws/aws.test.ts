import { Agent, request } from "node:https";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Sha256 } from "@aws-crypto/sha256-js";
import {
  DescribeAddonCommand,
  DescribeAddonVersionsCommand,
  DescribeClusterCommand,
  DescribeClusterVersionsCommand,
  DescribeInsightCommand,
  DescribeNodegroupCommand,
  EKSClient,
  ListAddonsCommand,
  ListClustersCommand,
  ListInsightsCommand,
  ListNodegroupsCommand,
  paginateListClusters,
} from "@aws-sdk/client-eks";
import { GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import { defaultProvider } from "@aws-sdk/credential-provider-node";
import { SignatureV4 } from "@smithy/signature-v4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimClock } from "../clock";
import type { RuntimeInfo } from "../contract";
import { calendarEntry } from "../../upgrades/eks-calendar";
import { nextMinor } from "../fleet/catalogue";
import { createFleetModel } from "../fleet/index";
import { insightsFor } from "./eks-data";
import { CROSSPLANE_IDENTITY, IdentityStore, STATIC_USER, deriveCredentials } from "./identities";
import { startAwsServers, verifyEksToken, type AwsServers } from "./index";
import { decodeEksToken, mintEksToken, presignGetCallerIdentityUrl, verifyEksToken as verifyAt } from "./token";

const EPOCH = Date.now();
const model = createFleetModel({ clusters: 24, objects: 30, seed: 11, epoch: EPOCH });
const clock = createSimClock({ start: EPOCH });
const runtime: RuntimeInfo = {
  endpointOf: (cluster) => `https://127.0.0.1:${30000 + model.clusters.findIndex((c) => c.name === cluster)}`,
  caDataOf: (cluster) => Buffer.from(`-----BEGIN CERTIFICATE-----\n${cluster}\n-----END CERTIFICATE-----\n`).toString("base64"),
  stsEndpoint: "",
};
const staticCredentials = { accessKeyId: STATIC_USER.accessKeyId, secretAccessKey: STATIC_USER.secretAccessKey };

let outDir: string;
let servers: AwsServers;
let requestHandler: { httpsAgent: Agent };
const eks = (region: string, credentials: NonNullable<ConstructorParameters<typeof EKSClient>[0]>["credentials"] = staticCredentials) =>
  new EKSClient({ endpoint: servers.eksEndpoint, region, credentials, requestHandler, maxAttempts: 1 });

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "aws-sim-"));
  servers = await startAwsServers({ model, runtime, clock, outDir });
  runtime.stsEndpoint = servers.stsEndpoint;
  requestHandler = { httpsAgent: new Agent({ ca: servers.caPem }) };
});

afterAll(async () => {
  await servers?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

describe("simulated EKS API with the real @aws-sdk/client-eks", () => {
  it("lists the clusters of the signing region, page by page", async () => {
    const client = eks("eu-west-1");
    const names: string[] = [];
    for await (const page of paginateListClusters({ client, pageSize: 2 }, {})) names.push(...(page.clusters ?? []));
    expect(names).toEqual(
      model.spokes
        .filter((s) => s.region === "eu-west-1")
        .map((s) => s.name)
        .sort(),
    );
    const first = await client.send(new ListClustersCommand({ maxResults: 2 }));
    expect(first.clusters).toHaveLength(2);
    expect(first.nextToken).toBeTruthy();
    const hubRegion = await eks("us-east-1").send(new ListClustersCommand({}));
    expect(hubRegion.clusters).toContain("hub");
  });

  it("describes a cluster consistently with the fleet model", async () => {
    const spec = model.spokeSpec(model.facts.extendedSupport!.cluster)!;
    const { cluster } = await eks(spec.region).send(new DescribeClusterCommand({ name: spec.name }));
    expect(cluster).toMatchObject({
      name: spec.name,
      arn: `arn:aws:eks:${spec.region}:${spec.accountId}:cluster/${spec.name}`,
      version: model.facts.extendedSupport!.version,
      status: "ACTIVE",
      endpoint: runtime.endpointOf(spec.name),
      certificateAuthority: { data: runtime.caDataOf(spec.name) },
      upgradePolicy: { supportType: "EXTENDED" },
      platformVersion: expect.stringMatching(/^eks\.\d+$/),
    });
    expect(cluster!.createdAt).toBeInstanceOf(Date);
    expect(cluster!.identity?.oidc?.issuer).toMatch(/^https:\/\/oidc\.eks\./);
  });

  it("answers ResourceNotFoundException for unknown clusters and clusters of another region", async () => {
    const other = model.spokes.find((s) => s.region !== "eu-west-1")!;
    for (const name of ["does-not-exist", other.name]) {
      const error = await eks("eu-west-1")
        .send(new DescribeClusterCommand({ name }))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: "ResourceNotFoundException",
        message: `No cluster found for name: ${name}.`,
        $metadata: { httpStatusCode: 404 },
      });
    }
  });

  it("shows the node group skew of the cluster mid-upgrade", async () => {
    const spec = model.spokeSpec(model.facts.nodeGroupSkew!.cluster)!;
    const { controlPlane, nodegroupVersion } = model.facts.nodeGroupSkew!;
    const client = eks(spec.region);
    const { nodegroups } = await client.send(new ListNodegroupsCommand({ clusterName: spec.name }));
    const described = await Promise.all(
      nodegroups!.map((n) => client.send(new DescribeNodegroupCommand({ clusterName: spec.name, nodegroupName: n }))),
    );
    const versions = Object.fromEntries(described.map((d) => [d.nodegroup!.nodegroupName, [d.nodegroup!.version, d.nodegroup!.status]]));
    expect(versions).toEqual({ system: [controlPlane, "ACTIVE"], batch: [nodegroupVersion, "UPDATING"] });
    expect(described[0].nodegroup!.releaseVersion).toMatch(new RegExp(`^${controlPlane.replace(".", "\\.")}\\.\\d+-\\d{8}$`));
  });

  it("warns of the node group skew in Upgrade Insights while EKS knows the next version", () => {
    // Insights are about N+1: on the newest version EKS knows (1.35 from 2026-12-02 on, until the calendar
    // gains 1.36) there are none, so this runs on a fleet pinned to a day with 1.34 in standard support.
    const pinned = createFleetModel({ clusters: 24, objects: 6, seed: 11, epoch: Date.UTC(2026, 10, 26, 12) });
    const { cluster, controlPlane } = pinned.facts.nodeGroupSkew!;
    const insights = insightsFor(pinned, pinned.spokeSpec(cluster)!, pinned.epoch);
    expect(insights.find((i) => i.name === "Kubelet version skew")).toMatchObject({
      kubernetesVersion: nextMinor(controlPlane),
      insightStatus: { status: "WARNING" },
    });
  });

  it("serves managed add-ons and their compatible versions", async () => {
    const spec = model.spokes[0];
    const client = eks(spec.region);
    const { addons } = await client.send(new ListAddonsCommand({ clusterName: spec.name }));
    expect(addons).toEqual(["aws-ebs-csi-driver", "coredns", "eks-pod-identity-agent", "kube-proxy", "vpc-cni"]);
    const { addon } = await client.send(new DescribeAddonCommand({ clusterName: spec.name, addonName: "coredns" }));
    expect(addon).toMatchObject({
      addonName: "coredns",
      clusterName: spec.name,
      status: "ACTIVE",
      addonVersion: expect.stringMatching(/^v1\.\d+\.\d+-eksbuild\.\d+$/),
    });
    const versions = await client.send(new DescribeAddonVersionsCommand({ addonName: "kube-proxy", kubernetesVersion: "1.35" }));
    const kubeProxy = versions.addons![0];
    expect(kubeProxy.addonVersions![0].compatibilities).toEqual([
      { clusterVersion: "1.35", platformVersions: ["*"], defaultVersion: true },
    ]);
    const missing = await client.send(new DescribeAddonCommand({ clusterName: spec.name, addonName: "nope" })).catch((e: unknown) => e);
    expect(missing).toMatchObject({ name: "ResourceNotFoundException" });
  });

  it("reports the version calendar relative to the simulated date", async () => {
    clock.advance(0);
    const { clusterVersions } = await eks("us-east-1").send(new DescribeClusterVersionsCommand({ includeAll: true }));
    const byVersion = Object.fromEntries(clusterVersions!.map((v) => [v.clusterVersion, v]));
    expect(byVersion["1.34"].endOfStandardSupportDate).toEqual(new Date(Date.UTC(2026, 11, 2)));
    expect(byVersion["1.34"].defaultVersion).toBe(true);
    const expected = (v: string) => {
      const info = byVersion[v];
      const now = clock.now();
      return now < info.endOfStandardSupportDate!.getTime()
        ? "STANDARD_SUPPORT"
        : now < info.endOfExtendedSupportDate!.getTime()
          ? "EXTENDED_SUPPORT"
          : "UNSUPPORTED";
    };
    for (const v of Object.keys(byVersion)) expect(byVersion[v].versionStatus).toBe(expected(v));
  });

  it("describes the cluster left on 1.27, past end of extended support, consistently with the calendar", async () => {
    const spec = model.spokes.find((s) => s.roles.includes("past-extended-support"))!;
    const { cluster } = await eks(spec.region).send(new DescribeClusterCommand({ name: spec.name }));
    expect(cluster).toMatchObject({ version: "1.27", status: "ACTIVE", upgradePolicy: { supportType: "EXTENDED" } });
    // Only when asked for every version does EKS list 1.27, as UNSUPPORTED, with the calendar's dates.
    const client = eks("us-east-1");
    const supported = await client.send(new DescribeClusterVersionsCommand({}));
    expect(supported.clusterVersions!.map((v) => v.clusterVersion)).not.toContain("1.27");
    const { clusterVersions } = await client.send(new DescribeClusterVersionsCommand({ includeAll: true }));
    const old = clusterVersions!.find((v) => v.clusterVersion === "1.27")!;
    const calendar = calendarEntry("1.27")!;
    expect(old).toMatchObject({
      versionStatus: "UNSUPPORTED",
      status: "unsupported",
      releaseDate: new Date(`${calendar.releaseDate}T00:00:00Z`),
      endOfStandardSupportDate: new Date(`${calendar.endOfStandardSupport}T00:00:00Z`),
      endOfExtendedSupportDate: new Date(`${calendar.endOfExtendedSupport}T00:00:00Z`),
    });
  });

  it("raises an Upgrade Insights ERROR for the cluster that still uses APIs removed in the next version", async () => {
    const spec = model.spokeSpec(model.facts.removedApi!.cluster)!;
    const client = eks(spec.region);
    const { insights } = await client.send(
      new ListInsightsCommand({ clusterName: spec.name, filter: { categories: ["UPGRADE_READINESS"] } }),
    );
    const removed = insights!.find((i) => i.name === "Deprecated APIs removed in Kubernetes v1.32")!;
    expect(removed).toMatchObject({ kubernetesVersion: "1.32", insightStatus: { status: "ERROR" } });
    const { insight } = await client.send(new DescribeInsightCommand({ clusterName: spec.name, id: removed.id }));
    expect(insight!.categorySpecificSummary!.deprecationDetails![0]).toMatchObject({
      usage: "/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas",
      replacedWith: "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas",
      stopServingVersion: "1.32",
    });
    // Any other cluster EKS knows the next version of passes: the scheduled upgrade's starts one below the newest.
    const other = model.spokeSpec(model.facts.scheduledUpgrade!.cluster)!;
    const { insights: others } = await eks(other.region).send(new ListInsightsCommand({ clusterName: other.name }));
    expect(others!.find((i) => i.name === `Deprecated APIs removed in Kubernetes v${model.facts.scheduledUpgrade!.to}`)).toMatchObject({
      insightStatus: { status: "PASSING" },
    });
  });

  it("speaks the restJson1 wire format: epoch-second timestamps, the botocore example's members, x-amzn-errortype", async () => {
    const spec = model.spokes[0];
    const signed = async (path: string) => {
      const url = new URL(servers.eksEndpoint);
      const signer = new SignatureV4({ credentials: staticCredentials, region: spec.region, service: "eks", sha256: Sha256 });
      const req = await signer.sign({
        method: "GET",
        protocol: "https:",
        hostname: url.hostname,
        port: Number(url.port),
        path,
        headers: { host: url.host },
      });
      return get(`${servers.eksEndpoint}${path}`, req.headers as Record<string, string>);
    };
    const response = await signed(`/clusters/${spec.name}`);
    expect(response.status).toBe(200);
    const { cluster } = JSON.parse(response.body);
    // botocore's DescribeCluster example (wire format) has these members with these JSON types.
    const example = {
      version: "1.10",
      name: "devel",
      arn: "arn:aws:eks:us-west-2:012345678910:cluster/devel",
      certificateAuthority: { data: "LS0t" },
      createdAt: 1527807879.988,
      endpoint: "https://A0DC.yl4.us-west-2.eks.amazonaws.com",
      resourcesVpcConfig: { securityGroupIds: ["sg-6979fe18"], subnetIds: ["subnet-6782e71e"], vpcId: "vpc-950809ec" },
      roleArn: "arn:aws:iam::012345678910:role/eks-service-role",
      status: "ACTIVE",
    };
    const shape = (v: unknown): unknown =>
      Array.isArray(v)
        ? [shape(v[0])]
        : v && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]))
          : typeof v;
    expect(shape(cluster)).toMatchObject(shape(example) as object);
    const missing = await signed("/clusters/nope");
    expect(missing.status).toBe(404);
    expect(missing.headers["x-amzn-errortype"]).toBe("ResourceNotFoundException");
    expect(JSON.parse(missing.body)).toEqual({ message: "No cluster found for name: nope.", clusterName: "nope" });
  });

  it("rejects a bad signature and an unknown access key", async () => {
    const wrongSecret = eks("eu-west-1", { accessKeyId: STATIC_USER.accessKeyId, secretAccessKey: "x".repeat(40) });
    expect(await wrongSecret.send(new ListClustersCommand({})).catch((e: unknown) => e)).toMatchObject({
      name: "InvalidSignatureException",
      $metadata: { httpStatusCode: 403 },
    });
    const unknown = eks("eu-west-1", deriveCredentials("nobody", false) as { accessKeyId: string; secretAccessKey: string });
    expect(await unknown.send(new ListClustersCommand({})).catch((e: unknown) => e)).toMatchObject({ name: "UnrecognizedClientException" });
  });
});

describe("IRSA through the simulated STS", () => {
  it("gets credentials with the default chain's web-identity provider and uses them against EKS and STS", async () => {
    const env = servers.env;
    expect(readFileSync(env.AWS_WEB_IDENTITY_TOKEN_FILE, "utf8").split(".")).toHaveLength(3);
    const saved = { ...process.env };
    try {
      for (const key of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"]) delete process.env[key];
      Object.assign(process.env, env, {
        AWS_EC2_METADATA_DISABLED: "true",
        AWS_CONFIG_FILE: join(outDir, "none"),
        AWS_SHARED_CREDENTIALS_FILE: join(outDir, "none"),
      });
      const credentials = defaultProvider({ clientConfig: { requestHandler } });
      const resolved = await credentials();
      expect(resolved.accessKeyId).toMatch(/^ASIA/);
      expect(resolved.sessionToken).toBeTruthy();

      // No endpoint given: the client takes AWS_ENDPOINT_URL_EKS from the environment.
      const client = new EKSClient({ region: "ap-southeast-2", credentials, requestHandler, maxAttempts: 1 });
      const { clusters } = await client.send(new ListClustersCommand({}));
      expect(clusters).toEqual(
        model.spokes
          .filter((s) => s.region === "ap-southeast-2")
          .map((s) => s.name)
          .sort(),
      );

      // The collector's own EKS token, signed with the IRSA session, opens any spoke.
      const spoke = model.spokes[3].name;
      const token = mintEksToken({
        clusterName: spoke,
        credentials: resolved,
        stsEndpoint: env.AWS_ENDPOINT_URL_STS,
        region: env.AWS_REGION,
        signingDateMs: Date.now(),
      });
      expect(verifyEksToken(token, spoke, clock.now())).toEqual({
        ok: true,
        user: "arn:aws:sts::123456789012:assumed-role/crows-nest-collector/crows-nest-collector",
        readOnly: false,
      });

      const sts = new STSClient({ region: env.AWS_REGION, credentials, requestHandler, maxAttempts: 1 });
      const me = await sts.send(new GetCallerIdentityCommand({}));
      expect(me.Arn).toBe("arn:aws:sts::123456789012:assumed-role/crows-nest-collector/crows-nest-collector");
    } finally {
      process.env = saved;
    }
  });

  it("recognises temporary credentials it issued before a restart (same state key), and only those", () => {
    const key = Buffer.alloc(32, 7);
    const before = new IdentityStore();
    before.setSessionKey(key);
    const issued = before.issue({
      accessKeyId: "ASIAEXAMPLE0000001",
      arn: "arn:aws:sts::123456789012:assumed-role/crows-nest-collector/s",
      principalArn: "arn:aws:iam::123456789012:role/crows-nest-collector",
      userId: "AROAEXAMPLE:s",
      accountId: "123456789012",
      expiresAtMs: Date.now() + 3600_000,
      readOnly: false,
    });
    const after = new IdentityStore();
    after.setSessionKey(key);
    expect(after.resolve(issued.accessKeyId, issued.sessionToken)).toMatchObject({
      secretAccessKey: issued.secretAccessKey,
      arn: issued.arn,
    });
    const other = new IdentityStore();
    other.setSessionKey(Buffer.alloc(32, 8));
    expect(other.resolve(issued.accessKeyId, issued.sessionToken)).toBeUndefined();
    expect(after.resolve("ASIAEXAMPLE0000002", issued.sessionToken)).toBeUndefined();
  });

  it("refuses a web-identity token it did not issue", async () => {
    const form = new URLSearchParams({
      Action: "AssumeRoleWithWebIdentity",
      Version: "2011-06-15",
      RoleArn: servers.env.AWS_ROLE_ARN,
      RoleSessionName: "x1",
      WebIdentityToken: servers.webIdentityToken().replace(/\.[^.]+$/, ".c2lnbmF0dXJl"),
    }).toString();
    const response = await post(servers.stsEndpoint, form);
    expect(response.status).toBe(400);
    expect(response.body).toContain("<Code>InvalidIdentityToken</Code>");
  });
});

describe("EKS tokens", () => {
  const cluster = model.spokes[0].name;
  const now = Date.UTC(2026, 10, 21, 20, 30, 0);
  const mint = (clusterName: string, signingDateMs: number) =>
    mintEksToken({
      clusterName,
      credentials: CROSSPLANE_IDENTITY,
      stsEndpoint: "https://127.0.0.1:4443",
      region: "us-east-1",
      signingDateMs,
    });

  it("presigns exactly like @smithy/signature-v4", async () => {
    const signer = new SignatureV4({ credentials: CROSSPLANE_IDENTITY, region: "us-east-1", service: "sts", sha256: Sha256 });
    const presigned = await signer.presign(
      {
        method: "GET",
        protocol: "https:",
        hostname: "127.0.0.1",
        port: 4443,
        path: "/",
        query: { Action: "GetCallerIdentity", Version: "2011-06-15" },
        headers: { host: "127.0.0.1:4443", "x-k8s-aws-id": cluster },
      },
      { expiresIn: 60, signingDate: new Date(now) },
    );
    const ours = decodeEksToken(mint(cluster, now))!;
    expect(Object.fromEntries(ours.searchParams)).toEqual(presigned.query);
    expect(
      presignGetCallerIdentityUrl({
        clusterName: cluster,
        credentials: CROSSPLANE_IDENTITY,
        stsEndpoint: "https://127.0.0.1:4443",
        region: "us-east-1",
        signingDateMs: now,
      }),
    ).toBe(ours.href);
  });

  it("accepts a fresh token and rejects expired, foreign and tampered ones", () => {
    const token = mint(cluster, now);
    expect(token).toMatch(/^k8s-aws-v1\.[A-Za-z0-9_-]+$/);
    expect(verifyAt(token, cluster, now + 60_000)).toEqual({ ok: true, user: CROSSPLANE_IDENTITY.arn, readOnly: false });
    expect(verifyAt(mint(cluster, now - 16 * 60_000), cluster, now)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("expired"),
    });
    expect(verifyAt(token, model.spokes[1].name, now)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("SignatureDoesNotMatch"),
    });
    const url = decodeEksToken(token)!;
    url.searchParams.set("X-Amz-Date", url.searchParams.get("X-Amz-Date")!.replace(/.$/, "9"));
    const tampered = "k8s-aws-v1." + Buffer.from(url.href).toString("base64url");
    expect(verifyAt(tampered, cluster, now).ok).toBe(false);
    expect(verifyAt(token + "=", cluster, now).ok).toBe(false);
    // The simulator's verifier also judges tokens at wall-clock time (clients sign with their own clock).
    const fresh = mint(cluster, Date.now());
    expect(verifyEksToken(fresh, cluster, Date.now() + 3 * 3600_000).ok).toBe(true);
    expect(verifyAt(fresh, cluster, Date.now() + 3 * 3600_000).ok).toBe(false);
  });

  it("is a presigned GetCallerIdentity the simulated STS answers", async () => {
    const token = mintEksToken({
      clusterName: cluster,
      credentials: CROSSPLANE_IDENTITY,
      stsEndpoint: servers.stsEndpoint,
      region: "us-east-1",
      signingDateMs: Date.now(),
    });
    const url = decodeEksToken(token)!;
    const response = await get(url.href, { "x-k8s-aws-id": cluster });
    expect(response.status).toBe(200);
    expect(response.body).toContain(`<Arn>${CROSSPLANE_IDENTITY.arn}</Arn>`);
  });
});

function post(endpoint: string, form: string) {
  return send(endpoint, "POST", { "content-type": "application/x-www-form-urlencoded" }, form);
}
function get(url: string, headers: Record<string, string>) {
  return send(url, "GET", headers);
}
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolveResponse, reject) => {
    const req = request(url, { method, headers, agent: requestHandler.httpsAgent }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolveResponse({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
