// The simulator's control API (plain HTTP on 127.0.0.1) for tests, the demo and benchmarks.
//   GET /healthz · GET /state · POST /advance {ms} · POST /speed {speed}
//   POST /faults {cluster, latencyMs?, errorRate?, throttleRate?, retryAfterSeconds?, resetRate?, truncateRate?, unreachable?}
//   DELETE /faults/{cluster} · POST /compact {cluster?} · POST /restart {cluster}
//   GET /churn?since=SEQ&limit=N · POST /churn {rate} · GET /reconciles · POST /reconciles {enabled}
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { ChurnChange, ChurnState } from "./churn";
import type { ReconcilesState } from "./reconciles";
import { faultSpecFromJson, type FaultSpec } from "./faults";

export interface ControlTarget {
  state(): unknown;
  advance(ms: number): Promise<void>;
  setSpeed(speed: number): void;
  setFault(cluster: string, spec: FaultSpec): Promise<void>;
  clearFault(cluster: string): Promise<void>;
  compact(cluster?: string): void;
  restart(cluster: string): void;
  churn(since: number, limit: number): ChurnState;
  setChurn(rate: number): void;
  /** The next churn change of one object, now (null: no such object, or its cluster is unreachable). */
  churnObject(cluster: string, kind: string, namespace: string, name: string): ChurnChange | null;
  /** The routine reconciles (and with them the kubelets' status reports): on or off, passes begun and finished, status writes and reports made. */
  reconciles(): ReconcilesState & { kubeletReports: number };
  setReconciles(on: boolean): void;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let body = "";
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 64 * 1024) throw new HttpError(413, "body too large");
  }
  if (!body) return {};
  try {
    const parsed: unknown = JSON.parse(body);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    return parsed as Record<string, unknown>;
  } catch {
    throw new HttpError(400, "body must be a JSON object");
  }
}

function reply(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
}

export async function startControlServer(target: ControlTarget, port = 0): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    handle(target, request, response).catch((error) => {
      const status = error instanceof HttpError ? error.status : 400;
      reply(response, status, { error: (error as Error).message });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server };
}

async function handle(target: ControlTarget, request: IncomingMessage, response: ServerResponse) {
  const { pathname, searchParams } = new URL(request.url ?? "/", "http://127.0.0.1");
  const method = request.method ?? "GET";
  if (method === "GET" && pathname === "/healthz") return reply(response, 200, { ok: true });
  if (method === "GET" && pathname === "/state") return reply(response, 200, target.state());
  if (method === "POST" && pathname === "/advance") {
    const { ms } = await readJson(request);
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) throw new HttpError(400, "ms must be a non-negative number");
    await target.advance(ms);
    return reply(response, 200, target.state());
  }
  if (method === "POST" && pathname === "/speed") {
    const { speed } = await readJson(request);
    if (typeof speed !== "number" || !Number.isFinite(speed) || speed < 0) throw new HttpError(400, "speed must be a non-negative number");
    target.setSpeed(speed);
    return reply(response, 200, { speed });
  }
  if (method === "POST" && pathname === "/faults") {
    const { cluster, ...rest } = await readJson(request);
    if (typeof cluster !== "string") throw new HttpError(400, "cluster must be a cluster name");
    const spec = faultSpecFromJson(rest);
    await target.setFault(cluster, spec).catch((error: Error) => {
      throw new HttpError(404, error.message);
    });
    return reply(response, 200, { cluster, faults: spec });
  }
  const faultPath = /^\/faults\/([^/]+)$/.exec(pathname);
  if (method === "DELETE" && faultPath) {
    const cluster = decodeURIComponent(faultPath[1]);
    await target.clearFault(cluster).catch((error: Error) => {
      throw new HttpError(404, error.message);
    });
    return reply(response, 200, { cluster, faults: {} });
  }
  if (method === "POST" && pathname === "/compact") {
    const { cluster } = await readJson(request);
    if (cluster !== undefined && typeof cluster !== "string") throw new HttpError(400, "cluster must be a cluster name");
    try {
      target.compact(cluster);
    } catch (error) {
      throw new HttpError(404, (error as Error).message);
    }
    return reply(response, 200, { compacted: cluster ?? "all" });
  }
  if (method === "POST" && pathname === "/restart") {
    const { cluster } = await readJson(request);
    if (typeof cluster !== "string") throw new HttpError(400, "cluster must be a cluster name");
    try {
      target.restart(cluster);
    } catch (error) {
      throw new HttpError(404, (error as Error).message);
    }
    return reply(response, 200, { restarted: cluster });
  }
  if (method === "GET" && pathname === "/churn") {
    const since = Number(searchParams.get("since") ?? 0);
    const limit = Number(searchParams.get("limit") ?? 10_000);
    if (!Number.isInteger(since) || since < 0 || !Number.isInteger(limit) || limit < 0) {
      throw new HttpError(400, "since and limit must be non-negative integers");
    }
    return reply(response, 200, target.churn(since, limit));
  }
  if (method === "POST" && pathname === "/churn") {
    const { rate } = await readJson(request);
    if (typeof rate !== "number" || !Number.isFinite(rate) || rate < 0) throw new HttpError(400, "rate must be a non-negative number");
    target.setChurn(rate);
    return reply(response, 200, { rate });
  }
  if (method === "POST" && pathname === "/churn/object") {
    const { cluster, kind, namespace, name } = await readJson(request);
    if (typeof cluster !== "string" || typeof kind !== "string" || typeof namespace !== "string" || typeof name !== "string") {
      throw new HttpError(400, "cluster, kind, namespace and name must be strings");
    }
    const change = target.churnObject(cluster, kind, namespace, name);
    if (!change) throw new HttpError(404, `no ${kind} ${namespace}/${name} to change in a reachable cluster ${cluster}`);
    return reply(response, 200, change);
  }
  if (method === "GET" && pathname === "/reconciles") return reply(response, 200, target.reconciles());
  if (method === "POST" && pathname === "/reconciles") {
    const { enabled } = await readJson(request);
    if (typeof enabled !== "boolean") throw new HttpError(400, "enabled must be true or false");
    target.setReconciles(enabled);
    return reply(response, 200, target.reconciles());
  }
  throw new HttpError(404, `no such endpoint: ${method} ${pathname}`);
}
