// The Argo CD part of the simulator over real HTTPS: kubectl against the hub's Argo CD kinds, the
// apiserver behaviour of a CRD without a status subresource, the simulated controller answering refresh
// and sync, and every way into a spoke that the hub's cluster secrets describe (awsAuthConfig through
// STS AssumeRole, a service-account bearer token, an exec plugin we do not run).
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { execFile } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintEksToken } from "../aws/eks-token";
import { syncPatch } from "../kube/argocd/actions";
import { accessProblem, parseArgoClusterSecrets } from "../kube/argocd/cluster-secret";
import type { ArgoClusterSecret } from "../kube/argocd/types";
import { STATIC_USER } from "./aws/identities";
import type { SimFleet } from "./fleet/index";
import { startSimulator, type RunningSimulator } from "./index";

const run = promisify(execFile);
let sim: RunningSimulator;
let outDir: string;
let secrets: Map<string, ArgoClusterSecret>;

async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await run("kubectl", ["--kubeconfig", sim.hubKubeconfigPath, "--cache-dir", join(outDir, "kube-cache"), ...args], {
    timeout: 30_000,
  });
  return stdout;
}

async function kubectlError(...args: string[]): Promise<string> {
  try {
    await kubectl(...args);
  } catch (error) {
    return (error as { stderr: string }).stderr;
  }
  throw new Error("expected kubectl to fail");
}

function getJson(url: string, token: string, ca: string | null): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Authorization: `Bearer ${token}` }, ca: ca ?? undefined }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the simulated controller did not answer");
};

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "sim-argocd-"));
  // Ten clusters hold both Flux spokes Argo CD manages (indices 2 and 8); three spokes only Argo CD knows.
  sim = await startSimulator({ outDir, clusters: 10, objects: 6, seed: 5, speed: 0, argocdSpokes: 3, reactionDelayMs: 100 });
  const list = JSON.parse(
    await kubectl("get", "secrets", "-n", "argocd", "-l", "argocd.argoproj.io/secret-type=cluster", "-o", "json"),
  ) as { items: unknown[] };
  const parsed = parseArgoClusterSecrets(list.items);
  expect(parsed.problems).toEqual([]);
  secrets = new Map(parsed.clusters.map((c) => [c.name!, c]));
}, 60_000);

afterAll(async () => {
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

describe("Argo CD kinds on the simulated hub", () => {
  it("prints Applications like kube-apiserver does for the CRD's columns (Revision and Project only with -o wide)", async () => {
    const lines = (await kubectl("get", "applications", "-A")).trim().split("\n");
    expect(lines[0]).toMatch(/^NAMESPACE\s+NAME\s+SYNC STATUS\s+HEALTH STATUS$/);
    expect(lines.find((l) => l.includes("addon-prod-euw1-003-aws-load-balancer-controller"))).toMatch(/\sSynced\s+Degraded$/);
    expect(lines.find((l) => l.includes("cluster-policies"))).toMatch(/\sOutOfSync\s+Healthy$/);
    const wide = (await kubectl("get", "apps", "-n", "argocd", "-o", "wide")).trim().split("\n");
    expect(wide[0]).toMatch(/^NAME\s+SYNC STATUS\s+HEALTH STATUS\s+REVISION\s+PROJECT$/);
    expect(await kubectl("get", "appsets,appprojects", "-n", "argocd")).toMatch(/applicationset\.argoproj\.io\/workloads\s+\S+/);
  });

  it("has no status subresource for Application: /status is a 404, status on the object bumps the generation", async () => {
    const name = "cluster-policies";
    expect(
      await kubectlError(
        "patch",
        "application",
        "-n",
        "argocd",
        name,
        "--subresource=status",
        "--type",
        "merge",
        "-p",
        '{"status":{"reconciledAt":"2026-01-01T00:00:00Z"}}',
      ),
    ).toContain(`applications.argoproj.io "${name}" not found`);
    const generation = async () =>
      Number(await kubectl("get", "application", "-n", "argocd", name, "-o", "jsonpath={.metadata.generation}"));
    const before = await generation();
    await kubectl("annotate", "application", "-n", "argocd", name, "team=platform");
    expect(await generation()).toBe(before);
    await kubectl("patch", "application", "-n", "argocd", name, "--type", "merge", "-p", '{"status":{"controllerNamespace":"argocd-2"}}');
    expect(await generation()).toBe(before + 1);
    // kubectl's rendering of the 422, as a real v1.26 apiserver's answer renders it.
    expect(
      await kubectlError(
        "patch",
        "application",
        "-n",
        "argocd",
        name,
        "--type",
        "merge",
        "-p",
        '{"status":{"history":[{"revision":"x"}]}}',
      ),
    ).toContain(
      `The Application "${name}" is invalid: \n* status.history[0].deployedAt: Required value\n* status.history[0].id: Required value`,
    );
  });

  it("answers a refresh and a sync like Argo CD's controller", async () => {
    const name = "addon-hub-metrics-server";
    await kubectl(
      "patch",
      "application",
      "-n",
      "argocd",
      name,
      "--type",
      "merge",
      "-p",
      '{"metadata":{"annotations":{"argocd.argoproj.io/refresh":"hard"}}}',
    );
    await until(
      async () =>
        (await kubectl("get", "application", "-n", "argocd", name, "-o", "jsonpath={.metadata.annotations}")).includes("refresh") === false,
    );

    const app = JSON.parse(await kubectl("get", "application", "-n", "argocd", name, "-o", "json")) as Record<string, unknown>;
    const result = syncPatch(app, { username: "alice@example.com" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    await kubectl("patch", "application", "-n", "argocd", name, "--type", "merge", "-p", JSON.stringify(result.patch));
    await until(async () => (await kubectl("get", "application", "-n", "argocd", name, "-o", "jsonpath={.operation}")) === "");
    const state = JSON.parse(
      await kubectl("get", "application", "-n", "argocd", name, "-o", "jsonpath={.status.operationState}"),
    ) as Record<string, unknown>;
    expect(state).toMatchObject({ phase: "Succeeded", operation: { initiatedBy: { username: "alice@example.com" } } });
    // The stale resourceVersion the patch carried is refused now (409), like the API server's Update.
    expect(await kubectlError("patch", "application", "-n", "argocd", name, "--type", "merge", "-p", JSON.stringify(result.patch))).toMatch(
      /Conflict|modified/,
    );
  });
});

describe("ways into the spokes that the hub's Argo CD cluster secrets describe", () => {
  it("awsAuthConfig: our own AWS identity assumes the secret's role and mints the EKS token", async () => {
    const model = sim.model as SimFleet;
    for (const name of ["argo-dev-euw1-01", model.facts.argocd!.fluxSpokes[0]]) {
      const secret = secrets.get(name)!;
      expect(secret.access.auth.type).toBe("eks-token");
      if (secret.access.auth.type !== "eks-token") return;
      const requestHandler = { httpsAgent: new Agent({ ca: readFileSync(sim.awsEnv.NODE_EXTRA_CA_CERTS, "utf8") }) };
      const sts = new STSClient({
        region: sim.awsEnv.AWS_REGION,
        endpoint: sim.awsEnv.AWS_ENDPOINT_URL_STS,
        credentials: { accessKeyId: STATIC_USER.accessKeyId, secretAccessKey: STATIC_USER.secretAccessKey },
        requestHandler,
        maxAttempts: 1,
      });
      const assumed = await sts.send(new AssumeRoleCommand({ RoleArn: secret.access.auth.roleArn!, RoleSessionName: "crows-nest" }));
      const credentials = {
        accessKeyId: assumed.Credentials!.AccessKeyId!,
        secretAccessKey: assumed.Credentials!.SecretAccessKey!,
        sessionToken: assumed.Credentials!.SessionToken!,
      };
      const { token } = await mintEksToken({
        clusterName: secret.access.auth.clusterName,
        region: sim.awsEnv.AWS_REGION,
        credentials,
        stsEndpoint: sim.awsEnv.AWS_ENDPOINT_URL_STS,
      });
      const answer = await getJson(`${secret.access.endpoint}/api/v1/namespaces`, token, secret.access.tls.caPem);
      expect(answer.status, name).toBe(200);
    }
  });

  it("bearerToken: the argocd-manager service account's token opens its spoke, and only that one", async () => {
    const secret = secrets.get("argo-staging-usw2-02")!;
    if (secret.access.auth.type !== "bearer") throw new Error("expected a bearer secret");
    expect((await getJson(`${secret.access.endpoint}/api/v1/nodes`, secret.access.auth.token, secret.access.tls.caPem)).status).toBe(200);
    const other = secrets.get("argo-dev-euw1-01")!;
    expect((await getJson(`${other.access.endpoint}/api/v1/nodes`, secret.access.auth.token, other.access.tls.caPem)).status).toBe(401);
  });

  it("execProviderConfig: reported, never run", () => {
    expect(accessProblem(secrets.get("argo-prod-apse2-03")!.access)).toMatch(/exec plugin "tsh"/);
  });
});
