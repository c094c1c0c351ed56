// One simulated cluster's Kubernetes API server over HTTPS: discovery, list/get/watch, patch/update/
// create/delete, the status subresource, bearer-token auth and fault injection. Status bodies and list
// shapes follow recorded kube-apiserver responses. Like kube-apiserver it offers HTTP/2 and HTTP/1.1 by
// ALPN (h2 with kube-apiserver's SETTINGS: 100 concurrent streams, 256 KiB windows and frames).
import { createHash, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:https";
import { createSecureServer, type Http2SecureServer } from "node:http2";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import type { KubeObject, SimCluster, TokenCheck } from "../contract";
import { issueServerCertificate, type ClusterCa } from "../tls";
import { decideFault, type FaultSpec, hashSeed, seededRandom } from "./faults";
import { applyJsonPatch, applyMergePatch } from "./patch";
import { groupVersionOf, type ResourceType } from "./registry";
import { parseFieldSelector, parseLabelSelector } from "./selectors";
import {
  badRequest,
  forbidden,
  internalError,
  KubeError,
  methodNotAllowed,
  notFound,
  pathNotFound,
  statusBody,
  tooManyRequests,
  unauthorized,
  unsupportedMediaType,
} from "./status";
import { type ClusterStore, type ListResult, type ObjectVersion } from "./store";
import { type IncludeObject, tableJson, wantsTable } from "./table";
import { type ApiRequest, type ApiResponse, cutAfter, resetExchange, writeBody } from "./exchange";
import { serveWatch } from "./watch";

/**
 * How long an idle keep-alive connection stays open: kube-apiserver's secure serving sets its http.Server's
 * IdleTimeout to 90 s (to match Go's http.DefaultTransport). At 30 s here, a collector's once-a-minute read of
 * the hub (discovery's /apis) found its connection closed every time and paid a TLS handshake per cycle that
 * a real hub does not ask for.
 */
const IDLE_CONNECTION_TIMEOUT_MS = 90_000;

export interface Identity {
  user: string;
  readOnly: boolean;
}

export interface ApiServerOptions {
  cluster: SimCluster;
  store: ClusterStore;
  /** The cluster's CA; the server certificate is issued from it on the first connection. */
  ca: ClusterCa;
  /** Static bearer tokens every cluster accepts. */
  tokens: { admin: string; readOnly: string };
  /** Checks `k8s-aws-v1.` tokens on clusters with `auth: "eks"`. */
  verifyEksToken?: (token: string, clusterName: string) => TokenCheck;
  /** Simulated now (epoch ms), for ages in tables and token lifetimes. */
  now: () => number;
  seed: number;
  /** Real milliseconds between watch bookmarks. */
  bookmarkIntervalMs?: number;
  /** Called before any API request is served (the runtime loads the cluster lazily). */
  beforeRequest?: () => void;
  /** Called after a successful client write (the simulated controllers react to it). */
  onWrite?: (type: ResourceType, before: ObjectVersion | undefined, after: ObjectVersion) => void;
}

const MAX_BODY_BYTES = 3 * 1024 * 1024;
const READ_VERBS = new Set(["get", "list", "watch"]);
const MERGE_PATCH = "application/merge-patch+json";
const JSON_PATCH = "application/json-patch+json";
const STRATEGIC_PATCH = "application/strategic-merge-patch+json";
const APPLY_PATCH = "application/apply-patch+yaml";

interface ResourceRequest {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
  watchPath: boolean;
}

export class KubeApiServer {
  /** Accepts TCP connections; TLS is set up lazily (parsing a key costs milliseconds, times a thousand clusters). */
  private readonly listener: NetServer;
  private httpsServer?: Http2SecureServer;
  /** Only for the `http1only` fault: a proxy in front that does not speak HTTP/2. */
  private http1Server?: Server;
  port = 0;
  private faults: FaultSpec = {};
  /** /version moves when the model upgrades the control plane. */
  gitVersion: string;
  private random: () => number;
  private sockets = new Set<Socket>();
  private listening = false;
  private reachable = true;
  /** TLS connections accepted, by the protocol ALPN settled on. */
  private readonly protocols = { h2: 0, "http/1.1": 0 };
  private flowSchemaUid = randomUUID();
  private priorityLevelUid = randomUUID();

  constructor(private readonly options: ApiServerOptions) {
    this.gitVersion = options.cluster.gitVersion;
    this.random = seededRandom(hashSeed(options.cluster.name, options.seed));
    this.listener = createNetServer((socket: Socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
      socket.on("error", () => undefined);
      (this.faults.http1Only ? this.https1() : this.https()).emit("connection", socket);
    });
  }

  private certificate() {
    return issueServerCertificate(this.options.cluster.name, this.options.ca);
  }

  private readonly onRequest = (request: ApiRequest, response: ApiResponse) => {
    this.handle(request, response).catch((error) => this.fail(response, error));
  };

  private https(): Http2SecureServer {
    if (!this.httpsServer) {
      const { certPem, keyPem } = this.certificate();
      this.httpsServer = createSecureServer(
        {
          key: keyPem,
          cert: certPem,
          allowHTTP1: true,
          settings: { maxConcurrentStreams: 100, initialWindowSize: 262_144, maxFrameSize: 262_144 },
        },
        this.onRequest,
      );
      // Clients that give up mid-handshake must not crash the process.
      this.httpsServer.on("tlsClientError", () => undefined);
      this.httpsServer.on("sessionError", () => undefined);
      this.httpsServer.on("secureConnection", (socket: TLSSocket) => this.countProtocol(socket));
      (this.httpsServer as unknown as { keepAliveTimeout: number }).keepAliveTimeout = IDLE_CONNECTION_TIMEOUT_MS;
    }
    return this.httpsServer;
  }

  private https1(): Server {
    if (!this.http1Server) {
      const { certPem, keyPem } = this.certificate();
      this.http1Server = createServer({ key: keyPem, cert: certPem, ALPNProtocols: ["http/1.1"] }, this.onRequest);
      this.http1Server.on("tlsClientError", () => undefined);
      this.http1Server.on("secureConnection", (socket: TLSSocket) => this.countProtocol(socket));
      this.http1Server.keepAliveTimeout = IDLE_CONNECTION_TIMEOUT_MS;
    }
    return this.http1Server;
  }

  private countProtocol(socket: TLSSocket) {
    this.protocols[socket.alpnProtocol === "h2" ? "h2" : "http/1.1"]++;
  }

  /** Connections: accepted so far by protocol, and open now. */
  get connections() {
    return { ...this.protocols, open: this.sockets.size };
  }

  /** Closes every connection (watches end without a clean terminator), as a restarting API server does. */
  dropConnections() {
    for (const socket of this.sockets) socket.destroy();
  }

  get name() {
    return this.options.cluster.name;
  }

  get endpoint() {
    return `https://127.0.0.1:${this.port}`;
  }

  get isReachable() {
    return this.reachable;
  }

  get faultSpec(): FaultSpec {
    return { ...this.faults };
  }

  setFaults(spec: FaultSpec) {
    this.faults = { ...spec };
  }

  async listen(port = 0): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.listener.once("error", onError);
      this.listener.listen(port, "127.0.0.1", () => {
        this.listener.off("error", onError);
        resolve();
      });
    });
    this.listening = true;
    this.port = (this.listener.address() as { port: number }).port;
    return this.port;
  }

  /** Unreachable = connection refused: stop listening and drop open connections (watches included). */
  async setReachable(reachable: boolean) {
    if (reachable === this.reachable) return;
    this.reachable = reachable;
    if (!reachable) {
      if (this.listening) {
        this.listening = false;
        this.listener.close();
      }
      for (const socket of this.sockets) socket.destroy();
    } else if (!this.listening) {
      await this.listen(this.port).catch(() => {
        // The port was taken meanwhile; stay down and let the next tick try again.
        this.reachable = false;
      });
    }
  }

  async close() {
    for (const socket of this.sockets) socket.destroy();
    if (this.listening) {
      this.listening = false;
      await new Promise<void>((resolve) => this.listener.close(() => resolve()));
    }
  }

  // --- responses -----------------------------------------------------------------------------------

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      "Audit-Id": randomUUID(),
      "Cache-Control": "no-cache, private",
      "Content-Type": "application/json",
      "X-Kubernetes-Pf-Flowschema-Uid": this.flowSchemaUid,
      "X-Kubernetes-Pf-Prioritylevel-Uid": this.priorityLevelUid,
      ...extra,
    };
  }

  private send(response: ApiResponse, code: number, body: string, extra: Record<string, string> = {}) {
    const bytes = Buffer.from(body, "utf8");
    if ((response as ApiResponse & { truncate?: boolean }).truncate) {
      // Like a large list streamed in chunks whose connection drops half-way: the client sees a premature close.
      response.writeHead(code, this.headers(extra));
      writeBody(response, bytes.subarray(0, Math.floor(bytes.length / 2)), () => resetExchange(response));
      return;
    }
    response.writeHead(code, { ...this.headers(extra), "Content-Length": String(bytes.length) });
    response.end(bytes);
  }

  private fail(response: ApiResponse, error: unknown) {
    if (response.headersSent) {
      resetExchange(response);
      return;
    }
    const kubeError = error instanceof KubeError ? error : internalError((error as Error)?.message ?? String(error));
    const extra: Record<string, string> = {};
    if (kubeError.code === 429 || (kubeError.code === 504 && kubeError.details?.retryAfterSeconds)) {
      extra["Retry-After"] = String(kubeError.details?.retryAfterSeconds ?? 1);
    }
    if (kubeError.code === 403) extra["X-Content-Type-Options"] = "nosniff";
    this.send(response, kubeError.code, statusBody(kubeError), extra);
  }

  // --- request handling ------------------------------------------------------------------------------

  private async handle(request: ApiRequest, response: ApiResponse) {
    const url = new URL(request.url ?? "/", "https://127.0.0.1");
    const faults = this.faults;
    if (faults.cutAfterSeconds !== undefined) cutAfter(response, faults.cutAfterSeconds);
    if (faults.latencyMs) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
    switch (decideFault(faults, this.random)) {
      case "reset":
        resetExchange(response);
        return;
      case "error":
        throw internalError("etcdserver: request timed out");
      case "throttle":
        throw tooManyRequests(faults.retryAfterSeconds ?? 1);
      case "truncate":
        (response as ApiResponse & { truncate?: boolean }).truncate = true;
        break;
      case "none":
        break;
    }

    const path = url.pathname.replace(/\/+$/, "") || "/";
    const identity = this.authenticate(request.headers.authorization);
    if (identity === "invalid" || (identity === "anonymous" && !isPublicPath(path))) {
      throw unauthorized();
    }

    if (path === "/version") return this.send(response, 200, this.versionJson());
    if (path === "/healthz" || path === "/livez" || path === "/readyz") {
      const body = url.searchParams.has("verbose") ? `[+]ping ok\n[+]etcd ok\n${path.slice(1)} check passed\n` : "ok";
      response.writeHead(200, { ...this.headers({ "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" }) });
      return response.end(body);
    }
    if (identity === "anonymous") throw unauthorized();
    this.options.beforeRequest?.();
    if (path === "/api") return this.send(response, 200, this.apiVersionsJson());
    if (path === "/apis") return this.send(response, 200, this.apiGroupListJson());

    const segments = path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] === "apis" && segments.length === 2) return this.send(response, 200, this.apiGroupJson(segments[1]));
    if ((segments[0] === "api" && segments.length === 2) || (segments[0] === "apis" && segments.length === 3)) {
      const [group, version] = segments[0] === "api" ? ["", segments[1]] : [segments[1], segments[2]];
      return this.send(response, 200, this.resourceListJson(group, version));
    }
    const resource = this.parseResourcePath(segments);
    if (!resource) throw pathNotFound();
    return this.handleResource(request, response, url, resource, identity);
  }

  private authenticate(header: string | undefined): Identity | "anonymous" | "invalid" {
    if (!header) return "anonymous";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) return "invalid";
    const token = match[1];
    if (token === this.options.tokens.admin) return { user: "sim-admin", readOnly: false };
    if (token === this.options.tokens.readOnly) return { user: "sim-viewer", readOnly: true };
    const { cluster } = this.options;
    const serviceAccount = cluster.serviceAccountTokens?.[token];
    if (serviceAccount) return { user: serviceAccount, readOnly: false };
    if (cluster.auth === "eks" && token.startsWith("k8s-aws-v1.") && this.options.verifyEksToken) {
      const check = this.options.verifyEksToken(token, cluster.eks?.name ?? cluster.name);
      if (check.ok) return { user: check.user, readOnly: check.readOnly };
    }
    return "invalid";
  }

  private parseResourcePath(segments: string[]): ResourceRequest | undefined {
    let rest: string[];
    let group: string;
    let version: string;
    if (segments[0] === "api") [group, version, rest] = ["", segments[1], segments.slice(2)];
    else if (segments[0] === "apis") [group, version, rest] = [segments[1], segments[2], segments.slice(3)];
    else return undefined;
    const watchPath = rest[0] === "watch";
    if (watchPath) rest = rest.slice(1);
    const registry = this.options.store.registry;

    if (rest[0] === "namespaces" && rest.length >= 3) {
      const type = registry.lookup(group, version, rest[2]);
      if (type?.namespaced) {
        if (rest.length > 5) return undefined;
        return { type, namespace: rest[1], name: rest[3], subresource: rest[4], watchPath };
      }
    }
    const type = registry.lookup(group, version, rest[0]);
    if (!type || rest.length > 3) return undefined;
    return { type, name: rest[1], subresource: rest[2], watchPath };
  }

  private async handleResource(request: ApiRequest, response: ApiResponse, url: URL, target: ResourceRequest, identity: Identity) {
    const { type, namespace, name, subresource } = target;
    // No status subresource (Argo CD's Application): the apiserver answers as if the object did not exist.
    if (subresource === "status" && !type.hasStatus && name) throw notFound(type, name);
    if (subresource !== undefined && !(subresource === "status" && type.hasStatus)) throw pathNotFound();
    const params = url.searchParams;
    const isWatch = target.watchPath || params.get("watch") === "1" || params.get("watch") === "true";
    const method = request.method ?? "GET";
    const verb = verbFor(method, Boolean(name), isWatch);
    if (!verb) throw methodNotAllowed();
    if (identity.readOnly && !READ_VERBS.has(verb)) {
      throw forbidden(type, identity.user, verb, type.namespaced ? namespace : undefined, name, subresource);
    }
    const store = this.options.store;

    if (verb === "watch") {
      if (this.faults.noWatch === "405") throw methodNotAllowed();
      // RBAC that grants get and list but not watch.
      if (this.faults.noWatch === "403") throw forbidden(type, identity.user, "watch", type.namespaced ? namespace : undefined);
      if (this.faults.noWatch === "empty") {
        // A server (or proxy) that answers a watch like a list and ends it at once.
        response.writeHead(200, this.headers());
        return response.end();
      }
      const fieldSelector = withName(params.get("fieldSelector"), name);
      return serveWatch(request, response, {
        store,
        type,
        namespace,
        params,
        labelSelector: parseLabelSelector(params.get("labelSelector")),
        fieldSelector: parseFieldSelector(fieldSelector, type.fieldSelectors ?? [], type.group !== ""),
        headers: this.headers(),
        bookmarkIntervalMs: this.options.bookmarkIntervalMs ?? 60_000,
      });
    }
    if (verb === "list") {
      const limit = params.get("limit");
      const parsedLimit = limit === null || limit === "" ? undefined : Number(limit);
      if (parsedLimit !== undefined && (!Number.isInteger(parsedLimit) || parsedLimit < 0)) {
        throw badRequest(`invalid limit: ${limit}`);
      }
      const result = store.list(type, {
        namespace,
        labelSelector: parseLabelSelector(params.get("labelSelector")),
        fieldSelector: parseFieldSelector(params.get("fieldSelector"), type.fieldSelectors ?? [], type.group !== ""),
        limit: parsedLimit,
        continueToken: params.get("continue") || undefined,
        resourceVersion: params.get("resourceVersion") ?? undefined,
        resourceVersionMatch: params.get("resourceVersionMatch") ?? undefined,
      });
      if (wantsTable(request.headers.accept)) {
        const includeObject = (params.get("includeObject") ?? "Metadata") as IncludeObject;
        return this.send(response, 200, tableJson(type, result.items, tableMeta(result), includeObject, this.options.now()));
      }
      return this.send(response, 200, listJson(type, result));
    }
    if (verb === "get") {
      const version = store.get(type, namespace, name!);
      if (wantsTable(request.headers.accept)) {
        const includeObject = (params.get("includeObject") ?? "Metadata") as IncludeObject;
        return this.send(
          response,
          200,
          tableJson(type, [version], { resourceVersion: String(version.rv) }, includeObject, this.options.now()),
        );
      }
      return this.send(response, 200, version.json);
    }

    const body = await readBody(request);
    const contentType = (request.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    const statusOnly = subresource === "status" ? "status" : undefined;

    if (verb === "patch") {
      const patch = parseJson(body);
      const accepted = type.group === "" ? [JSON_PATCH, MERGE_PATCH, STRATEGIC_PATCH, APPLY_PATCH] : [JSON_PATCH, MERGE_PATCH, APPLY_PATCH];
      let mutate: (current: KubeObject) => KubeObject;
      if (contentType === MERGE_PATCH) mutate = (current) => applyMergePatch(current, patch) as KubeObject;
      else if (contentType === JSON_PATCH) mutate = (current) => applyJsonPatch(current, patch) as KubeObject;
      else if (contentType === STRATEGIC_PATCH && (type.group === "" || isMetadataOnly(patch))) {
        // Strategic merge equals merge patch for maps of strings, which is all kubectl annotate/label send.
        mutate = (current) => applyMergePatch(current, patch) as KubeObject;
      } else throw unsupportedMediaType(contentType, accepted);
      return this.writeAndRespond(response, type, 200, () => store.write(type, namespace, name!, statusOnly, mutate));
    }
    if (verb === "update") {
      const object = parseJson(body) as KubeObject;
      if (!object || typeof object !== "object") throw badRequest("the body of the request is not a JSON object");
      return this.writeAndRespond(response, type, 200, () =>
        store.write(type, namespace, name!, statusOnly, () => object, { requireResourceVersion: type.group !== "" }),
      );
    }
    if (verb === "create") {
      if (type.namespaced && !namespace) throw methodNotAllowed();
      const object = parseJson(body) as KubeObject;
      if (!object || typeof object !== "object" || !object.metadata) throw badRequest("the body of the request is not a Kubernetes object");
      object.apiVersion ??= groupVersionOf(type);
      object.kind ??= type.kind;
      const version = store.create(type, namespace, object, this.options.now());
      this.options.onWrite?.(type, undefined, version);
      return this.send(response, 201, version.json);
    }
    if (verb === "delete") {
      const version = store.delete(type, namespace, name!);
      return this.send(response, 200, version.json);
    }
    throw methodNotAllowed();
  }

  private writeAndRespond(
    response: ApiResponse,
    type: ResourceType,
    code: number,
    write: () => { version: ObjectVersion; changed: boolean; before?: ObjectVersion },
  ) {
    const result = write();
    if (result.changed) this.options.onWrite?.(type, result.before, result.version);
    this.send(response, code, result.version.json);
  }

  // --- discovery -----------------------------------------------------------------------------------

  private versionJson(): string {
    const gitVersion = this.gitVersion;
    const match = /^v(\d+)\.(\d+)/.exec(gitVersion);
    return JSON.stringify({
      major: match?.[1] ?? "1",
      minor: `${match?.[2] ?? "33"}${gitVersion.includes("-eks-") ? "+" : ""}`,
      gitVersion,
      gitCommit: "0000000000000000000000000000000000000000",
      gitTreeState: "clean",
      buildDate: "2026-01-01T00:00:00Z",
      goVersion: "go1.24.6",
      compiler: "gc",
      platform: "linux/amd64",
    });
  }

  private apiVersionsJson(): string {
    return JSON.stringify({
      kind: "APIVersions",
      versions: ["v1"],
      serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: `127.0.0.1:${this.port}` }],
    });
  }

  private apiGroupJson(name: string): string {
    const group = this.options.store.registry.groups().find((candidate) => candidate.name === name);
    if (!group) throw pathNotFound();
    return JSON.stringify(apiGroup(group));
  }

  private apiGroupListJson(): string {
    return JSON.stringify({ kind: "APIGroupList", apiVersion: "v1", groups: this.options.store.registry.groups().map(apiGroup) });
  }

  private resourceListJson(group: string, version: string): string {
    const types = this.options.store.registry.types().filter((type) => type.group === group && type.version === version);
    if (types.length === 0) throw pathNotFound();
    const resources = types.flatMap((type) => {
      const main: Record<string, unknown> = {
        name: type.plural,
        singularName: type.singular,
        namespaced: type.namespaced,
        kind: type.kind,
        verbs: ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"],
      };
      if (type.shortNames) main.shortNames = type.shortNames;
      if (type.categories) main.categories = type.categories;
      main.storageVersionHash = createHash("sha256")
        .update(`${type.group}/${type.version}/${type.kind}`)
        .digest()
        .subarray(0, 8)
        .toString("base64");
      const status = {
        name: `${type.plural}/status`,
        singularName: "",
        namespaced: type.namespaced,
        kind: type.kind,
        verbs: ["get", "patch", "update"],
      };
      return type.hasStatus ? [main, status] : [main];
    });
    return JSON.stringify({ kind: "APIResourceList", apiVersion: "v1", groupVersion: group ? `${group}/${version}` : version, resources });
  }
}

function apiGroup(group: { name: string; versions: string[] }) {
  const versions = group.versions.map((version) => ({ groupVersion: `${group.name}/${version}`, version }));
  return { kind: "APIGroup", apiVersion: "v1", name: group.name, versions, preferredVersion: versions[0] };
}

function isPublicPath(path: string) {
  return path === "/version" || path === "/healthz" || path === "/livez" || path === "/readyz";
}

function verbFor(method: string, named: boolean, watch: boolean): string | undefined {
  switch (method) {
    case "GET":
      return watch ? "watch" : named ? "get" : "list";
    case "PATCH":
      return named ? "patch" : undefined;
    case "PUT":
      return named ? "update" : undefined;
    case "POST":
      return named ? undefined : "create";
    case "DELETE":
      return named ? "delete" : undefined;
    default:
      return undefined;
  }
}

function withName(fieldSelector: string | null, name: string | undefined): string | null {
  if (!name) return fieldSelector;
  return fieldSelector ? `${fieldSelector},metadata.name=${name}` : `metadata.name=${name}`;
}

function isMetadataOnly(patch: unknown): boolean {
  return (
    Boolean(patch) && typeof patch === "object" && !Array.isArray(patch) && Object.keys(patch as object).every((key) => key === "metadata")
  );
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (error) {
    throw badRequest(`error decoding patch: ${(error as Error).message}`);
  }
}

async function readBody(request: ApiRequest): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new KubeError(413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tableMeta(result: ListResult): Record<string, unknown> {
  const meta: Record<string, unknown> = { resourceVersion: String(result.resourceVersion) };
  if (result.continueToken) meta.continue = result.continueToken;
  if (result.remainingItemCount !== undefined) meta.remainingItemCount = result.remainingItemCount;
  return meta;
}

/** List bodies joined from pre-serialised items. Custom resources come back key-sorted (unstructured). */
export function listJson(type: ResourceType, result: ListResult): string {
  const items = result.items.map((item) => item.json).join(",");
  if (type.group !== "") {
    const meta: Record<string, unknown> = { continue: result.continueToken };
    if (result.remainingItemCount !== undefined) meta.remainingItemCount = result.remainingItemCount;
    meta.resourceVersion = String(result.resourceVersion);
    return `{"apiVersion":"${groupVersionOf(type)}","items":[${items}],"kind":"${type.kind}List","metadata":${JSON.stringify(meta)}}`;
  }
  const meta: Record<string, unknown> = { resourceVersion: String(result.resourceVersion) };
  if (result.continueToken) meta.continue = result.continueToken;
  if (result.remainingItemCount !== undefined) meta.remainingItemCount = result.remainingItemCount;
  return `{"kind":"${type.kind}List","apiVersion":"v1","metadata":${JSON.stringify(meta)},"items":[${items}]}`;
}
