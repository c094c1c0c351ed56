// An HTTPS client for one cluster's API server. Authentication and TLS material come from a client-node
// KubeConfig (static tokens, client certificates, exec plugins, in-cluster service accounts); requests go
// through one keep-alive agent per cluster, with a deadline per request and retries with backoff + jitter.
import http from "node:http";
import https from "node:https";
import { KubeConfig } from "@kubernetes/client-node";
import { connectionSettings, serverOf, type TlsMaterial, tlsFingerprint } from "./connection";
import { backoffMs, brokenBodyError, classifyNetworkError, ClusterRequestError, jsonOrError } from "./errors";

export interface ClientOptions {
  /** Deadline of one HTTP request (connect to last byte). */
  timeoutMs: number;
  /** Attempts for retryable failures (timeouts, resets, 429, 5xx). */
  attempts?: number;
  /** Called once per HTTP request sent (metrics). */
  onRequest?: (outcome: { ok: boolean; status?: number; kind?: string; ms: number }) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What reading a cluster needs: GETs only (a watch session reads its facts over its watch connection). */
export interface KubeReader {
  readonly server: string;
  /** GET a JSON document; `query` values are URL-encoded. */
  getJson<T = unknown>(path: string, query?: Record<string, string | number | undefined>): Promise<T>;
  /** Requests sent through this client so far (retries included). */
  readonly requests: number;
}

export interface KubeClusterClient extends KubeReader {
  /** JSON merge patch (what `flux reconcile|suspend|resume` send). */
  mergePatch<T = unknown>(path: string, body: unknown): Promise<T>;
}

/**
 * Runs `once` until it succeeds, retrying retryable failures (timeouts, resets, 429, 5xx) with backoff and
 * jitter, at most `attempts` times in all. Only idempotent requests are retried after a network failure.
 */
export async function withRetries<T>(attempts: number, idempotent: boolean, once: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await once();
    } catch (err) {
      const e = err instanceof ClusterRequestError ? err : classifyNetworkError(err);
      const retry = e.retryable && attempt + 1 < attempts && (idempotent || e.status === 429);
      if (!retry) throw e;
      await sleep(backoffMs(attempt, e.retryAfterSeconds));
    }
  }
}

interface Prepared {
  url: URL;
  agent: http.Agent;
  headers: Record<string, string>;
}

// Agents live across cycles so connections are reused; keyed by cluster + TLS material so a rotated CA
// or client certificate gets a fresh agent.
const agents = new Map<string, { fingerprint: string; agent: http.Agent }>();

function agentFor(clusterKey: string, isHttps: boolean, tls: TlsMaterial): http.Agent {
  const fingerprint = tlsFingerprint(isHttps, tls);
  const existing = agents.get(clusterKey);
  if (existing?.fingerprint === fingerprint) return existing.agent;
  existing?.agent.destroy();
  // Two connections per cluster: a poll's requests queue briefly, and a fleet of a thousand clusters keeps
  // at most two thousand idle TLS connections open between cycles.
  const common = { keepAlive: true, maxSockets: 2, maxFreeSockets: 2, scheduling: "lifo" as const };
  const agent = isHttps ? new https.Agent({ ...common, ...tls }) : new http.Agent(common);
  agents.set(clusterKey, { fingerprint, agent });
  return agent;
}

/** Closes the keep-alive connections of clusters no longer polled (or all, at shutdown). */
export function releaseAgents(keep?: Set<string>): void {
  for (const [key, { agent }] of agents) {
    if (keep?.has(key)) continue;
    agent.destroy();
    agents.delete(key);
  }
}

/** A client for the current context of `kc`. `clusterKey` identifies the agent to reuse across cycles. */
export function createClusterClient(clusterKey: string, kc: KubeConfig, options: ClientOptions): KubeClusterClient {
  const server = serverOf(kc);
  let prepared: Promise<Prepared> | undefined;
  let requests = 0;
  const attempts = options.attempts ?? 3;

  const prepare = (): Promise<Prepared> =>
    (prepared ??= connectionSettings(kc).then(
      ({ url, headers, tls }) => ({ url, headers, agent: agentFor(clusterKey, url.protocol === "https:", tls) }),
      (err: unknown) => {
        prepared = undefined;
        throw err;
      },
    ));

  async function once(method: string, path: string, body: string | undefined, contentType: string | undefined): Promise<unknown> {
    const p = await prepare();
    const started = Date.now();
    requests++;
    return new Promise((resolve, reject) => {
      const transport = p.url.protocol === "https:" ? https : http;
      const headers = { ...p.headers };
      if (body !== undefined) {
        headers["Content-Type"] = contentType ?? "application/json";
        headers["Content-Length"] = String(Buffer.byteLength(body));
      }
      const basePath = p.url.pathname === "/" ? "" : p.url.pathname;
      const req = transport.request(
        { protocol: p.url.protocol, hostname: p.url.hostname, port: p.url.port, path: basePath + path, method, agent: p.agent, headers },
        (res) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          let ended = false;
          res.on("data", (c: Buffer) => {
            chunks.push(c);
            bytes += c.length;
          });
          // Headers came, the body did not finish: a truncated response, not a refused or reset request.
          res.on("error", (err) => fail(brokenBodyError(err, bytes)));
          res.on("aborted", () => fail(brokenBodyError(undefined, bytes)));
          res.on("close", () => {
            if (!ended && !res.complete) fail(brokenBodyError(undefined, bytes));
          });
          res.on("end", () => {
            ended = true;
            clearTimeout(timer);
            const status = res.statusCode ?? 0;
            const result = jsonOrError(status, Buffer.concat(chunks).toString("utf8"), res.headers["retry-after"]);
            if (!result.ok) {
              fail(result.error);
              return;
            }
            options.onRequest?.({ ok: true, status, ms: Date.now() - started });
            resolve(result.value);
          });
        },
      );
      let failed = false;
      const fail = (err: ClusterRequestError) => {
        if (failed) return;
        failed = true;
        clearTimeout(timer);
        options.onRequest?.({ ok: false, status: err.status, kind: err.kind, ms: Date.now() - started });
        reject(err);
      };
      const timer = setTimeout(() => {
        req.destroy(Object.assign(new Error("request timed out"), { code: "ETIMEDOUT" }));
      }, options.timeoutMs);
      req.on("error", (err) => fail(classifyNetworkError(err)));
      req.end(body);
    });
  }

  const request = (method: string, path: string, body?: string, contentType?: string) =>
    withRetries(attempts, method === "GET", () => once(method, path, body, contentType));

  return {
    server,
    get requests() {
      return requests;
    },
    async getJson<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T> {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== "") params.set(k, String(v));
      const qs = params.toString();
      return (await request("GET", qs ? `${path}?${qs}` : path)) as T;
    },
    async mergePatch<T>(path: string, body: unknown): Promise<T> {
      return (await request("PATCH", path, JSON.stringify(body), "application/merge-patch+json")) as T;
    },
  };
}
