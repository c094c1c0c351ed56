// Drives the whole stack as an admin (pages, JSON routes, an operator action, webhooks, metrics) and checks
// that no credential shows up in any HTTP response body or in any log line of the web app and of a
// collector replica: simulator bearer tokens, kubeconfig material, EKS tokens, AWS keys, the values of
// every Secret in every simulated cluster, and Crow's Nest's own secrets.
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { parse as parseYaml } from "yaml";
import { createClusterClient } from "../lib/kube/client";
import { SESSION_SECRET, startOidcWeb, type OidcWeb } from "./auth-stack";
import { TEST_CLIENT } from "./oidc-provider";

test.describe.configure({ mode: "serial" });
test.setTimeout(300_000);

const simDir = () => {
  const dir = process.env.E2E_SIM_DIR;
  if (!dir) throw new Error("E2E_SIM_DIR is not set: run through `npm run test:e2e`");
  return dir;
};

/** Secret values to look for, each with where it came from (for a readable failure). */
async function collectNeedles(): Promise<Map<string, string>> {
  const needles = new Map<string, string>();
  const add = (value: unknown, origin: string) => {
    if (typeof value === "string" && value.trim().length >= 12) needles.set(value.trim(), origin);
  };
  const dir = simDir();
  const tokens = JSON.parse(readFileSync(path.join(dir, "tokens.json"), "utf8")) as Record<string, string>;
  for (const [k, v] of Object.entries(tokens)) add(v, `simulator token ${k}`);
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".kubeconfig"))) {
    const kc = parseYaml(readFileSync(path.join(dir, file), "utf8")) as { users?: { name: string; user: Record<string, string> }[] };
    for (const u of kc.users ?? []) {
      for (const key of ["token", "client-key-data", "client-certificate-data", "password"])
        add(u.user?.[key], `${file} user ${u.name} ${key}`);
    }
  }
  try {
    for (const line of readFileSync(path.join(dir, "aws.env"), "utf8").split("\n")) {
      const [key, ...rest] = line.split("=");
      if (/SECRET|TOKEN|ACCESS_KEY/.test(key)) add(rest.join("="), `aws.env ${key}`);
    }
  } catch {
    // the simulator runs without its AWS side
  }
  // Every Secret in every simulated cluster, read as the simulator's admin.
  const kc = new KubeConfig();
  kc.loadFromFile(path.join(dir, "fleet.kubeconfig"));
  for (const context of kc.getContexts()) {
    kc.setCurrentContext(context.name);
    const client = createClusterClient(`leak-${context.name}`, kc, { timeoutMs: 5000, attempts: 1 });
    const list = await client
      .getJson<{
        items: { metadata: { namespace: string; name: string; labels?: Record<string, string> }; data?: Record<string, string> }[];
      }>("/api/v1/secrets")
      .catch(() => ({ items: [] }));
    for (const secret of list.items) {
      for (const [key, b64] of Object.entries(secret.data ?? {})) {
        // API server endpoints and CA certificates are public by nature; pages may show an endpoint.
        if (/endpoint/i.test(key) || ["clusterCA", "ca.crt", "namespace"].includes(key)) continue;
        // An Argo CD cluster secret's `name` is the cluster's name and `server` its API endpoint; its `config` holds the credentials.
        if (secret.metadata.labels?.["argocd.argoproj.io/secret-type"] === "cluster" && ["name", "server"].includes(key)) continue;
        const value = Buffer.from(b64, "base64").toString("utf8");
        const origin = `secret ${context.name}/${secret.metadata.namespace}/${secret.metadata.name}:${key}`;
        add(value, origin);
        for (const line of value.split("\n")) {
          const token = /^\s*(token|client-key-data|password):\s*(\S+)/.exec(line)?.[2];
          add(token, `${origin} (${line.trim().split(":")[0]})`);
        }
      }
    }
  }
  add(SESSION_SECRET, "SESSION_SECRET");
  add(TEST_CLIENT.secret, "OIDC_CLIENT_SECRET");
  add(process.env.E2E_WEBHOOK_SECRET, "WEBHOOK_HMAC_SECRET");
  return needles;
}

/** Shapes of credentials that must never appear, whatever their value. */
const PATTERNS: [RegExp, string][] = [
  [/k8s-aws-v1\.[A-Za-z0-9_-]{20,}/, "EKS bearer token"],
  [/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/, "AWS access key id"],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, "private key"],
  [/client-key-data|certificate-authority-data:\s*\S{40}/, "kubeconfig material"],
  [/"?Authorization"?\s*[:=]\s*"?Bearer\s+\S{12,}/i, "bearer header"],
  [/X-Amz-Signature=[0-9a-f]{64}/, "presigned AWS URL"],
];

function startCollector(databaseUrl: string): { proc: ChildProcess; logs: string[] } {
  const dir = simDir();
  const awsEnv: Record<string, string> = {};
  try {
    for (const line of readFileSync(path.join(dir, "aws.env"), "utf8").split("\n")) {
      const eq = line.indexOf("=");
      if (eq > 0) awsEnv[line.slice(0, eq)] = line.slice(eq + 1);
    }
  } catch {
    // no AWS side
  }
  const logs: string[] = [];
  const proc = spawn(process.execPath, ["--import", "tsx", "lib/collector/main.ts"], {
    env: {
      ...process.env,
      ...awsEnv,
      DATABASE_URL: databaseUrl,
      KUBECONFIG: path.join(dir, "hub.kubeconfig"),
      HUB_NAME: "hub",
      EKS_REGIONS: awsEnv.AWS_REGION ?? "",
      COLLECTOR_INTERVAL_SECONDS: "2",
      COLLECTOR_METRICS_PORT: "0",
      COLLECTOR_REPLICA_ID: "leak-test",
      LOG_LEVEL: "debug",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collect = (chunk: Buffer) =>
    logs.push(
      ...chunk
        .toString()
        .split("\n")
        .filter((l) => l.trim()),
    );
  proc.stdout?.on("data", collect);
  proc.stderr?.on("data", collect);
  return { proc, logs };
}

async function stopProcess(proc: ChildProcess) {
  if (proc.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.on("exit", resolve));
  proc.kill("SIGTERM");
  await exited;
}

let web: OidcWeb;
let collector: { proc: ChildProcess; logs: string[] };

test.beforeAll(async () => {
  web = await startOidcWeb({ LOG_LEVEL: "debug", METRICS_PUBLIC: "true" });
  collector = startCollector(process.env.E2E_DATABASE_URL!);
});
test.afterAll(async () => {
  if (collector) await stopProcess(collector.proc);
  await web?.stop();
});

async function signInAsAdmin(page: Page) {
  await page.goto(`${web.baseUrl}/`);
  await page.getByRole("link", { name: /Sign in with/ }).click();
  await page.locator('input[name="login"]').fill("admin");
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.waitForURL(`${web.baseUrl}/`);
}

test("no credential in any response body, page or log line", async ({ page }) => {
  const needles = await collectNeedles();
  const bodies: { url: string; text: string }[] = [];
  page.on("response", async (res) => {
    const type = res.headers()["content-type"] ?? "";
    if (!/json|html|text|javascript|x-component/.test(type)) return;
    const text = await res.text().catch(() => "");
    bodies.push({ url: res.url(), text });
  });

  await signInAsAdmin(page);
  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  const clusters = (await db.query<{ name: string }>("SELECT name FROM cluster ORDER BY name")).rows.map((r) => r.name);
  const objects = (
    await db.query<{ cluster: string; kind: string; namespace: string; name: string; suspended: boolean }>(
      `SELECT DISTINCT ON (c.name, fo.kind) c.name AS cluster, lower(fo.kind) AS kind, fo.namespace, fo.name, fo.suspended
         FROM flux_object fo JOIN cluster c ON c.id = fo."clusterId" ORDER BY c.name, fo.kind, fo.health DESC`,
    )
  ).rows;
  await db.end();
  expect(clusters.length).toBeGreaterThan(2);

  const pages = [
    "/",
    "/failures",
    "/clusters",
    "/addons",
    "/upgrades",
    "/audit",
    ...clusters.map((c) => `/clusters/${encodeURIComponent(c)}`),
  ];
  pages.push(
    ...objects
      .slice(0, 40)
      .map((o) => `/clusters/${encodeURIComponent(o.cluster)}/${o.kind}/${encodeURIComponent(o.namespace)}/${encodeURIComponent(o.name)}`),
  );
  for (const p of pages) {
    await page.goto(`${web.baseUrl}${p}`);
    bodies.push({ url: `${p} (rendered)`, text: await page.content() });
  }

  // An operator action end to end (the admin may act), then the page again with its audit trail.
  const actionable = objects.find((o) => o.kind === "kustomization" && !o.suspended);
  if (actionable) {
    await page.goto(
      `${web.baseUrl}/clusters/${encodeURIComponent(actionable.cluster)}/kustomization/${encodeURIComponent(actionable.namespace)}/${encodeURIComponent(actionable.name)}`,
    );
    await page.getByRole("button", { name: "Reconcile now" }).click();
    await page.getByRole("button", { name: "Yes, reconcile now" }).click();
    await expect(page.getByTestId("action-result")).toBeVisible({ timeout: 20_000 });
    bodies.push({ url: "object page after action", text: await page.content() });
  }

  const api = [
    "/api/fleet",
    "/api/failures",
    "/api/freshness",
    "/api/health",
    "/metrics",
    ...clusters.map((c) => `/api/clusters/${encodeURIComponent(c)}`),
  ];
  api.push(
    ...objects
      .slice(0, 40)
      .map(
        (o) => `/api/objects/${encodeURIComponent(o.cluster)}/${o.kind}/${encodeURIComponent(o.namespace)}/${encodeURIComponent(o.name)}`,
      ),
  );
  for (const p of api) {
    const res = await page.request.get(`${web.baseUrl}${p}`);
    bodies.push({ url: p, text: await res.text() });
  }
  // Webhooks, signed and forged, and error paths (bad JSON, unknown object).
  const event = JSON.stringify({
    involvedObject: { kind: "Kustomization", namespace: "flux-system", name: "flux-system" },
    severity: "info",
    reason: "ReconciliationSucceeded",
    message: "ok",
    reportingController: "kustomize-controller",
    timestamp: new Date().toISOString(),
  });
  const sign = (b: string) =>
    `sha256=${createHmac("sha256", process.env.E2E_WEBHOOK_SECRET ?? "")
      .update(b)
      .digest("hex")}`;
  for (const [b, sig] of [
    [event, sign(event)],
    [event, "sha256=00"],
    ["{not json", sign("{not json")],
  ] as const) {
    const res = await page.request.post(`${web.baseUrl}/api/webhooks/flux/${encodeURIComponent(clusters[0])}`, {
      headers: { "content-type": "application/json", "x-signature": sig },
      data: b,
    });
    bodies.push({ url: `webhook ${sig.slice(0, 12)}`, text: await res.text() });
  }
  const bad = await page.request.post(`${web.baseUrl}/api/actions`, {
    headers: { origin: web.baseUrl },
    data: { action: "reconcile", cluster: "nope", kind: "kustomization", namespace: "a", name: "b", csrfToken: "x" },
  });
  bodies.push({ url: "/api/actions forged", text: await bad.text() });

  // Let the collector replica run a few more cycles, then stop both so every log line is flushed.
  await page.waitForTimeout(6000);
  await stopProcess(collector.proc);
  await web.stop();

  const logs = [
    ...web.logs.map((l) => ({ where: "web log", text: l })),
    ...collector.logs.map((l) => ({ where: "collector log", text: l })),
  ];
  const haystacks = [...bodies.map((b) => ({ where: `response ${b.url}`, text: b.text })), ...logs];

  // The check must be able to fail: it has secrets to look for, and a lot to look in.
  expect(needles.size).toBeGreaterThan(10);
  expect(bodies.length).toBeGreaterThan(pages.length);
  expect(collector.logs.length).toBeGreaterThan(3);
  expect(web.logs.length).toBeGreaterThan(0);

  console.log(
    `secret-leak: ${needles.size} secret values and ${PATTERNS.length} credential shapes searched in ${bodies.length} response bodies and ${logs.length} log lines`,
  );
  const leaks: string[] = [];
  for (const { where, text } of haystacks) {
    for (const [needle, origin] of needles) if (text.includes(needle)) leaks.push(`${origin} in ${where}`);
    for (const [pattern, what] of PATTERNS)
      if (pattern.test(text)) leaks.push(`${what} in ${where}: …${text.match(pattern)?.[0].slice(0, 24)}…`);
  }
  expect(leaks, leaks.slice(0, 20).join("\n")).toEqual([]);
});
