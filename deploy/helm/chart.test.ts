// Renders the chart with a real Helm binary and checks what a cluster would receive: probes, secrets only by
// reference, the IRSA annotation, and RBAC that reads secrets only where told and patches only with actions on.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { HelmRelease } from "@kubernetes-models/flux-cd/helm.toolkit.fluxcd.io/v2";
import { GitRepository } from "@kubernetes-models/flux-cd/source.toolkit.fluxcd.io/v1";
import { Alert, Provider } from "@kubernetes-models/flux-cd/notification.toolkit.fluxcd.io/v1beta3";
import { COLLECTOR_NODE_FLAGS } from "../../lib/collector/heap";
import { helmBinary } from "./helm-binary";

const CHART = path.resolve("deploy/helm/crows-nest");
const CI_VALUES = (name: string) => path.join(CHART, "ci", name);

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  [key: string]: unknown;
}
interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  command: string[];
  env: EnvVar[];
  livenessProbe?: { httpGet?: { path: string } };
  readinessProbe?: { httpGet?: { path: string } };
  startupProbe?: { httpGet?: { path: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}

let helm = "";
beforeAll(() => {
  helm = helmBinary();
}, 120_000);

function run(args: string[]): string {
  return execFileSync(helm, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function render(valuesFiles: string[], sets: string[] = []): Manifest[] {
  const args = ["template", "crows-nest", CHART, "--namespace", "crows-nest"];
  for (const f of valuesFiles) args.push("--values", f);
  for (const s of sets) args.push("--set", s);
  return parseYaml(run(args));
}

function renderError(sets: string[]): string {
  try {
    run(["template", "crows-nest", CHART, ...sets.flatMap((s) => ["--set", s])]);
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
  throw new Error("helm template succeeded where it should have refused");
}

function parseYaml(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}

const find = (ms: Manifest[], kind: string, name: string) => {
  const m = ms.find((x) => x.kind === kind && x.metadata.name === name);
  if (!m) throw new Error(`${kind}/${name} not rendered; have ${ms.map((x) => `${x.kind}/${x.metadata.name}`).join(", ")}`);
  return m;
};
const containerOf = (d: Manifest) =>
  (d as unknown as { spec: { template: { spec: { containers: Container[]; serviceAccountName: string } } } }).spec.template.spec;
const rulesOf = (m: Manifest) => (m as unknown as { rules: Rule[] }).rules;

describe("Helm chart", () => {
  it("passes helm lint with every CI values file", () => {
    for (const file of ["default-values.yaml", "read-only-values.yaml"]) {
      expect(run(["lint", CHART, "--strict", "--values", CI_VALUES(file)])).toContain("0 chart(s) failed");
    }
  });

  it("renders web and collector with health probes, resources and a hardened container", () => {
    const ms = render([CI_VALUES("default-values.yaml")]);
    const web = containerOf(find(ms, "Deployment", "crows-nest-web"));
    const collector = containerOf(find(ms, "Deployment", "crows-nest-collector"));
    const [webC] = web.containers;
    for (const probe of [webC.livenessProbe, webC.readinessProbe, webC.startupProbe]) expect(probe?.httpGet?.path).toBe("/api/health");
    expect(webC.command).toEqual(["node", "--import", "tsx", "scripts/web.ts"]);
    // The collector answers its probes on the metrics port (lib/collector/metrics.ts serves /healthz).
    const collectorC = collector.containers[0];
    for (const probe of [collectorC.livenessProbe, collectorC.readinessProbe])
      expect(probe?.httpGet).toMatchObject({ path: "/healthz", port: "metrics" });
    // The collector runs compiled (npm run build writes dist/collector.mjs): not through tsx, which holds
    // a compiled copy and source map of every module it loads. With the collector's Node.js flags.
    expect(collector.containers[0].command).toEqual(["node", ...COLLECTOR_NODE_FLAGS, "dist/collector.mjs"]);
    for (const c of [webC, collector.containers[0]]) {
      expect(c.resources?.requests?.memory).toBeTruthy();
      expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    }
    expect(find(ms, "Service", "crows-nest")).toBeTruthy();
    expect(find(ms, "PodDisruptionBudget", "crows-nest-web")).toMatchObject({ spec: { minAvailable: 1 } });
    expect(find(ms, "PodDisruptionBudget", "crows-nest-collector")).toBeTruthy();
    expect(find(ms, "Ingress", "crows-nest")).toMatchObject({ spec: { ingressClassName: "alb" } });
  });

  it("takes every credential from a Secret by reference and signs in with OIDC on 0.0.0.0", () => {
    const ms = render([CI_VALUES("default-values.yaml")]);
    const env = containerOf(find(ms, "Deployment", "crows-nest-web")).containers[0].env;
    const byName = new Map(env.map((e) => [e.name, e]));
    expect(byName.get("DATABASE_URL")?.valueFrom?.secretKeyRef).toEqual({ name: "crows-nest-database", key: "DATABASE_URL" });
    expect(byName.get("SESSION_SECRET")?.valueFrom?.secretKeyRef?.name).toBe("crows-nest-auth");
    expect(byName.get("OIDC_CLIENT_SECRET")?.valueFrom?.secretKeyRef?.name).toBe("crows-nest-auth");
    expect(byName.get("WEBHOOK_HMAC_SECRET")?.valueFrom?.secretKeyRef?.name).toBe("crows-nest-webhook");
    expect(byName.get("AUTH_MODE")?.value).toBe("oidc");
    expect(byName.get("HOSTNAME")?.value).toBe("0.0.0.0");
    expect(byName.get("ROLE_OPERATOR_GROUPS")?.value).toBe("platform-oncall");
    for (const d of ms.filter((m) => m.kind === "Deployment")) {
      for (const e of containerOf(d).containers[0].env) {
        // DISCOVERY_SECRET_* say where secrets are looked for; they hold none.
        if (/SECRET|PASSWORD|TOKEN|DATABASE_URL/.test(e.name) && !e.name.startsWith("DISCOVERY_SECRET_"))
          expect(e.value, e.name).toBeUndefined();
      }
    }
    expect(ms.filter((m) => m.kind === "Secret")).toEqual([]);
  });

  it("gives the collector the IRSA role and the web app no identity at all", () => {
    const ms = render([CI_VALUES("default-values.yaml")]);
    const sa = find(ms, "ServiceAccount", "crows-nest-collector");
    expect(sa.metadata.annotations?.["eks.amazonaws.com/role-arn"]).toBe("arn:aws:iam::111122223333:role/crows-nest-collector");
    expect(containerOf(find(ms, "Deployment", "crows-nest-collector")).serviceAccountName).toBe("crows-nest-collector");
    const web = find(ms, "ServiceAccount", "crows-nest-web");
    expect(web).toMatchObject({ automountServiceAccountToken: false });
    expect(web.metadata.annotations).toBeUndefined();
    const bound = ms
      .filter((m) => m.kind.endsWith("Binding"))
      .flatMap((b) => (b as unknown as { subjects: { name: string }[] }).subjects.map((s) => s.name));
    expect(new Set(bound)).toEqual(new Set(["crows-nest-collector"]));
  });

  it("reads secrets only in the connection-secret namespaces and patches Flux kinds only with actions on", () => {
    const ms = render([CI_VALUES("default-values.yaml")]);
    const clusterRules = ms.filter((m) => m.kind === "ClusterRole").flatMap(rulesOf);
    expect(clusterRules.some((r) => r.resources.includes("secrets") || (r.resources.includes("*") && r.apiGroups.includes("")))).toBe(
      false,
    );
    const secretRoles = ms.filter((m) => m.kind === "Role");
    expect(secretRoles.map((r) => r.metadata.namespace).sort()).toEqual(["crossplane-system", "flux-system"]);
    for (const r of secretRoles) expect(rulesOf(r)).toEqual([{ apiGroups: [""], resources: ["secrets"], verbs: ["get", "list", "watch"] }]);
    const read = rulesOf(find(ms, "ClusterRole", "crows-nest-read"));
    expect(read.flatMap((r) => r.verbs).every((v) => ["get", "list", "watch"].includes(v))).toBe(true);
    expect(read.some((r) => r.apiGroups.includes("eks.aws.upbound.io"))).toBe(true);
    const patch = rulesOf(find(ms, "ClusterRole", "crows-nest-actions"));
    expect(patch.flatMap((r) => r.apiGroups).every((g) => g.endsWith(".toolkit.fluxcd.io"))).toBe(true);
    expect(new Set(patch.flatMap((r) => r.verbs))).toEqual(new Set(["patch"]));

    const readOnly = render([CI_VALUES("read-only-values.yaml")]);
    const verbs = readOnly
      .filter((m) => m.kind === "ClusterRole" || m.kind === "Role")
      .flatMap(rulesOf)
      .flatMap((r) => r.verbs);
    expect(verbs.filter((v) => !["get", "list", "watch"].includes(v))).toEqual([]);
    expect(readOnly.filter((m) => m.kind === "Role").map((r) => r.metadata.namespace)).toEqual(["upbound-system"]);
    // Labelled and Argo CD cluster secrets are listed where the Roles let the collector read them, not cluster-wide (403).
    const collectorEnv = (m: Manifest[]) => containerOf(find(m, "Deployment", "crows-nest-collector")).containers[0].env;
    expect(collectorEnv(ms).find((e) => e.name === "DISCOVERY_SECRET_NAMESPACES")?.value).toBe("crossplane-system,flux-system");
    expect(collectorEnv(readOnly).find((e) => e.name === "DISCOVERY_SECRET_NAMESPACES")?.value).toBe("upbound-system");
    expect(rulesOf(find(readOnly, "ClusterRole", "crows-nest-read")).some((r) => r.apiGroups.includes("platform.example.org"))).toBe(true);
    expect(readOnly.some((m) => m.kind === "Ingress")).toBe(false);
    const env = containerOf(find(readOnly, "Deployment", "crows-nest-web")).containers[0].env;
    expect(env.find((e) => e.name === "ACTIONS_ENABLED")?.value).toBe("false");
    expect(env.find((e) => e.name === "METRICS_PUBLIC")?.value).toBe("false");
  });

  it("caps the V8 heap below each container's memory limit, and trusts one proxy hop only behind the ingress", () => {
    const heap = (ms: Manifest[], name: string) =>
      containerOf(find(ms, "Deployment", name))
        .containers[0].env.filter((e) => e.name === "NODE_OPTIONS")
        .map((e) => e.value);
    const ms = render([CI_VALUES("default-values.yaml")]);
    // 65 % of 768Mi: room for native memory, buffers and code under the limit.
    expect(heap(ms, "crows-nest-web")).toEqual(["--max-old-space-size=499"]);
    expect(heap(ms, "crows-nest-collector")).toEqual(["--max-old-space-size=499"]);
    const sized = render(
      [CI_VALUES("default-values.yaml")],
      [
        "web.resources.limits.memory=2Gi",
        "web.heapPercentOfLimit=70",
        "collector.resources.limits.memory=1.5G",
        "collector.heapPercentOfLimit=50",
      ],
    );
    expect(heap(sized, "crows-nest-web")).toEqual(["--max-old-space-size=1433"]);
    expect(heap(sized, "crows-nest-collector")).toEqual(["--max-old-space-size=715"]);
    expect(heap(render([CI_VALUES("default-values.yaml")], ["web.heapMaxMiB=300"]), "crows-nest-web")).toEqual([
      "--max-old-space-size=300",
    ]);
    // No limit, no cap from the chart: the image's default NODE_OPTIONS applies.
    expect(heap(render([CI_VALUES("default-values.yaml")], ["web.resources.limits=null"]), "crows-nest-web")).toEqual([]);
    expect(
      renderError([
        "publicUrl=https://x.example.com",
        "auth.oidc.issuer=https://i",
        "auth.oidc.clientId=c",
        "web.resources.limits.memory=lots",
      ]),
    ).toContain("cannot read the memory limit");
    const trust = (m: Manifest[]) =>
      containerOf(find(m, "Deployment", "crows-nest-web")).containers[0].env.find((e) => e.name === "TRUST_PROXY")?.value;
    expect(trust(ms)).toBe("1"); // the CI values enable the ingress
    expect(trust(render([CI_VALUES("read-only-values.yaml")]))).toBe("0");
    expect(trust(render([CI_VALUES("default-values.yaml")], ["web.trustProxy=2"]))).toBe("2");
  });

  it("sets a default heap cap in the image for a container run without the chart", () => {
    expect(readFileSync(path.resolve("Dockerfile"), "utf8")).toMatch(/NODE_OPTIONS=--max-old-space-size=\d+/);
  });

  it("refuses to render without sign-in or without the OIDC settings", () => {
    const base = ["publicUrl=https://x.example.com", "auth.oidc.issuer=https://idp.example.com", "auth.oidc.clientId=c"];
    expect(renderError([...base, "auth.mode=none"])).toContain("auth.mode must be oidc");
    expect(renderError(base.slice(1))).toContain("publicUrl is required");
    expect(renderError(base.slice(0, 2))).toContain("auth.oidc.issuer and auth.oidc.clientId are required");
  });
});

describe("spoke RBAC and the Flux example", () => {
  const load = (file: string) => parseYaml(readFileSync(path.resolve("deploy", file), "utf8"));

  it("gives spokes a read-only ClusterRole without secrets, bound to the access-entry group", () => {
    const ms = load("spoke/clusterrole.yaml");
    const rules = rulesOf(find(ms, "ClusterRole", "crows-nest-read"));
    expect(rules.flatMap((r) => r.verbs).every((v) => ["get", "list", "watch"].includes(v))).toBe(true);
    expect(rules.some((r) => r.resources.includes("secrets") || r.resources.includes("*"))).toBe(false);
    expect(find(ms, "ClusterRoleBinding", "crows-nest-read")).toMatchObject({ subjects: [{ kind: "Group", name: "crows-nest-readers" }] });
    const actions = rulesOf(find(load("spoke/actions.yaml"), "ClusterRole", "crows-nest-actions"));
    expect(new Set(actions.flatMap((r) => r.verbs))).toEqual(new Set(["patch"]));
  });

  it("deploys Crow's Nest with valid Flux objects whose values render the chart", () => {
    const ms = load("flux/crows-nest.yaml");
    const release = find(ms, "HelmRelease", "crows-nest");
    const models = { HelmRelease, GitRepository, Provider, Alert } as const;
    for (const m of ms.filter((x) => x.kind in models)) {
      const Model = models[m.kind as keyof typeof models];
      expect(() => new Model(m as never).validate(), `${m.kind}/${m.metadata.name}`).not.toThrow();
    }
    const spec = release.spec as { chart: { spec: { chart: string } }; values: unknown };
    expect(spec.chart.spec.chart).toBe("./deploy/helm/crows-nest");
    const dir = mkdtempSync(path.join(os.tmpdir(), "crows-nest-values-"));
    const valuesFile = path.join(dir, "values.json");
    writeFileSync(valuesFile, JSON.stringify(spec.values));
    try {
      const rendered = render([valuesFile]);
      expect(find(rendered, "Ingress", "crows-nest")).toBeTruthy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
