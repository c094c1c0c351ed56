// The only reader of process.env. Every setting is validated here once, with a one-line error that names
// the variable, so a typo fails at start-up instead of deep inside a poll or a page render.
import { z } from "zod";

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === "true" || v === "1" || v === "yes"));

const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number()
    .int()
    .min(min)
    .max(max)
    .optional()
    .transform((v) => v ?? fallback);

const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

  // --- database ---
  /** Any Postgres. When unset, the project starts an embedded PostgreSQL itself. */
  DATABASE_URL: z.string().url().optional(),
  /** Data folder of the embedded PostgreSQL (git-ignored), kept across restarts. */
  CROWS_NEST_DATA_DIR: z.string().default(".data"),
  /** Port of the embedded PostgreSQL. */
  EMBEDDED_PG_PORT: int(54329, 1, 65535),

  // --- web ---
  PORT: int(3000, 1, 65535),
  /** Bind address of the web server, as Next.js reads it. */
  HOSTNAME: z.string().default("localhost"),
  /** Public base URL (links in README snippets, OIDC redirect). */
  PUBLIC_URL: z.string().url().optional(),
  /**
   * Proxies in front of the web server that set X-Forwarded-For/-Host/-Proto (an ingress: 1). 0 trusts no
   * forwarded header: rate limits key on the socket address, CSRF compares Origin with Host and PUBLIC_URL.
   */
  TRUST_PROXY: int(0, 0, 10),

  // --- collector ---
  KUBECONFIG: z.string().optional(),
  /** Context of the hub in KUBECONFIG (default: current context). */
  HUB_CONTEXT: z.string().optional(),
  /** Name the hub cluster is shown under. */
  HUB_NAME: z.string().default("hub"),
  COLLECTOR_INTERVAL_SECONDS: int(60, 1),
  COLLECTOR_CONCURRENCY: int(16, 1, 1000),
  COLLECTOR_REQUEST_TIMEOUT_MS: int(15_000, 100),
  COLLECTOR_REPLICA_ID: z.string().optional(),
  COLLECTOR_METRICS_PORT: int(9464, 0, 65535),
  /** Secrets in the hub with this label set to "true" hold spoke kubeconfigs. */
  DISCOVERY_SECRET_LABEL: z.string().default("crows-nest.io/cluster-kubeconfig"),
  /**
   * Namespaces where labelled and Argo CD cluster Secrets are looked for (empty: every namespace). Set it
   * where RBAC lets the collector read Secrets only in some namespaces (the Helm chart sets it to those).
   */
  DISCOVERY_SECRET_NAMESPACES: list,
  /** AWS regions whose EKS clusters are listed (empty: EKS discovery off). */
  EKS_REGIONS: list,
  /** Role to assume per region or cluster, e.g. "eu-west-1=arn:aws:iam::1:role/x,prod-a=arn:...". */
  EKS_ASSUME_ROLES: list,
  /** Override of the EKS API endpoint (the fleet simulator; never needed on AWS). */
  CROWS_NEST_EKS_ENDPOINT: z.string().url().optional(),
  /** Override of the STS endpoint EKS tokens are presigned for (the fleet simulator; never needed on AWS). */
  CROWS_NEST_STS_ENDPOINT: z.string().url().optional(),
  /** How often each cluster's EKS facts (node groups, add-ons, insights) are re-read. */
  COLLECTOR_EKS_INTERVAL_SECONDS: int(300, 1),
  /** How often /version, nodes, the Flux version and cluster-info variables are re-read per cluster. */
  COLLECTOR_FACTS_INTERVAL_SECONDS: int(300, 1),
  /** watch: LIST + WATCH per cluster, polling where watching keeps failing; poll: poll every cluster each cycle. */
  COLLECTOR_MODE: z.enum(["watch", "poll"]).default("watch"),
  COLLECTOR_RELIST_INTERVAL_SECONDS: int(900, 10),
  /** Longest nap while nothing is in flight and nothing changed for a second (lib/collector/idle-reads.ts); 0: never nap. */
  COLLECTOR_IDLE_NAP_MS: int(250, 0, 1000),
  RETENTION_DAYS: int(400, 1),
  /** Read upstream chart versions through mirrors (air-gapped networks): "https://charts.jetstack.io=https://nexus.example/jetstack,...". */
  UPSTREAM_MIRRORS: list,

  // --- security ---
  /** oidc in production; none only when the server listens on localhost. */
  AUTH_MODE: z.enum(["oidc", "none"]).default("none"),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_GROUPS_CLAIM: z.string().default("groups"),
  ROLE_ADMIN_GROUPS: list,
  ROLE_OPERATOR_GROUPS: list,
  ROLE_VIEWER_GROUPS: list,
  SESSION_SECRET: z.string().min(32).optional(),
  /** Serve /metrics without a session. */
  METRICS_PUBLIC: bool(true),
  /** Reconcile / suspend / resume from the object page. */
  ACTIONS_ENABLED: bool(true),

  // --- webhooks ---
  /** HMAC key for Flux generic-hmac webhooks, used for every cluster without its own key. */
  WEBHOOK_HMAC_SECRET: z.string().optional(),
  /** Per-cluster keys: "cluster-a=key1,cluster-b=key2". */
  WEBHOOK_HMAC_SECRETS: list,
  /** Accept unsigned `generic` webhooks (off unless explicitly allowed). */
  WEBHOOK_ALLOW_GENERIC: bool(false),
  WEBHOOK_MAX_BODY_BYTES: int(65_536, 1024),

  // --- live pages ---
  /** Change streams (Server-Sent Events) one web replica keeps open at once; past it pages poll instead (0: off). */
  LIVE_STREAMS_MAX: int(500, 0, 100_000),
});

export type Env = z.infer<typeof schema>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

let cached: Env | undefined;

/** Parsed settings. Throws a ConfigError whose message is one line naming every bad variable. */
export function env(): Env {
  if (cached) return cached;
  // An empty value (`DATABASE_URL=` in a .env file) means "not set", not "invalid".
  const present = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  cached = parsed.data;
  return cached;
}

/** Tests change variables between cases; they call this to read them again. */
export function resetEnvCache(): void {
  cached = undefined;
}
