// The whole simulator (scenario fleet, EKS tokens) checked with the real kubectl binary, the way a
// person or a script would use it.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionSecretOf, type SimFleet } from "./fleet/index";
import { startSimulator, type RunningSimulator } from "./index";

const run = promisify(execFile);
let sim: RunningSimulator;
let outDir: string;

async function kubectl(kubeconfig: string, ...args: string[]): Promise<string> {
  const { stdout } = await run("kubectl", ["--kubeconfig", kubeconfig, "--cache-dir", join(outDir, "kube-cache"), ...args], {
    timeout: 30_000,
  });
  return stdout;
}

async function kubectlError(kubeconfig: string, ...args: string[]): Promise<string> {
  try {
    await kubectl(kubeconfig, ...args);
  } catch (error) {
    return (error as { stderr: string }).stderr;
  }
  throw new Error("expected kubectl to fail");
}

/** The kubeconfig Crossplane published for a spoke, read from the hub with kubectl. */
async function spokeKubeconfig(spoke: string): Promise<string> {
  const spec = (sim.model as SimFleet).spokeSpec(spoke)!;
  const ref = connectionSecretOf(spec)!;
  const encoded = await kubectl(sim.hubKubeconfigPath, "get", "secret", "-n", ref.namespace, ref.name, "-o", `jsonpath={.data.${ref.key}}`);
  const path = join(outDir, `${spoke}.kubeconfig`);
  writeFileSync(path, Buffer.from(encoded, "base64"));
  return path;
}

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "sim-kubectl-"));
  sim = await startSimulator({ outDir, clusters: 6, objects: 20, seed: 3, reactionDelayMs: 100 });
});

afterAll(async () => {
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

describe("the simulator with kubectl", () => {
  it("lists Flux objects across namespaces with server-side columns", async () => {
    const output = await kubectl(sim.hubKubeconfigPath, "get", "kustomizations,helmreleases", "-A");
    expect(output.split("\n")[0]).toMatch(/^NAMESPACE\s+NAME\s+AGE\s+READY\s+STATUS/);
    expect(output).toContain("kustomization.kustomize.toolkit.fluxcd.io/");
  });

  it("annotates and merge-patches like kubectl users do, and the simulated controller answers", async () => {
    const fleet = sim.fleetKubeconfigPath;
    const spoke = (sim.model as SimFleet).spokes.find(
      (candidate) => candidate.name !== (sim.model as SimFleet).facts.unreachable?.cluster,
    )!.name;
    const name = (
      await kubectl(fleet, "--context", spoke, "get", "kustomizations", "-n", "flux-system", "-o", "jsonpath={.items[0].metadata.name}")
    ).trim();
    const requestedAt = new Date().toISOString();
    await kubectl(
      fleet,
      "--context",
      spoke,
      "annotate",
      "--overwrite",
      "-n",
      "flux-system",
      "kustomization",
      name,
      `reconcile.fluxcd.io/requestedAt=${requestedAt}`,
    );
    expect(
      await kubectl(
        fleet,
        "--context",
        spoke,
        "get",
        "kustomization",
        "-n",
        "flux-system",
        name,
        "-o",
        "jsonpath={.metadata.annotations.reconcile\\.fluxcd\\.io/requestedAt}",
      ),
    ).toBe(requestedAt);
    for (;;) {
      const handled = await kubectl(
        fleet,
        "--context",
        spoke,
        "get",
        "kustomization",
        "-n",
        "flux-system",
        name,
        "-o",
        "jsonpath={.status.lastHandledReconcileAt}",
      );
      if (handled === requestedAt) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await kubectl(
      fleet,
      "--context",
      spoke,
      "patch",
      "kustomization",
      "-n",
      "flux-system",
      name,
      "--type",
      "merge",
      "-p",
      '{"spec":{"suspend":true}}',
    );
    expect(
      await kubectl(fleet, "--context", spoke, "get", "kustomization", "-n", "flux-system", name, "-o", "jsonpath={.spec.suspend}"),
    ).toBe("true");
  });

  it("reaches a spoke with the kubeconfig from its connection secret on the hub", async () => {
    const model = sim.model as SimFleet;
    const spoke = model.spokes.find(
      (candidate) =>
        connectionSecretOf(candidate) &&
        candidate.name !== model.facts.expiredToken?.cluster &&
        candidate.name !== model.facts.unreachable?.cluster,
    )!.name;
    const kubeconfig = await spokeKubeconfig(spoke);
    expect(readFileSync(kubeconfig, "utf8")).toContain("k8s-aws-v1.");
    const output = await kubectl(kubeconfig, "get", "kustomizations", "-A", "-o", "name");
    expect(output).toContain("kustomization.kustomize.toolkit.fluxcd.io/");
  });

  it("refuses an expired EKS token with 401", async () => {
    const expired = (sim.model as SimFleet).facts.expiredToken?.cluster;
    expect(expired).toBeDefined();
    const kubeconfig = await spokeKubeconfig(expired!);
    expect(await kubectlError(kubeconfig, "get", "kustomizations", "-A")).toMatch(/Unauthorized|provide credentials/);
  });
});
