// One cluster's connection for lists and watches. kube-apiserver speaks HTTP/2 (ALPN `h2`, 100 concurrent
// streams per connection), so every list and watch of a cluster rides one TLS connection as its own
// stream; a server (or a proxy in front of it) that does not negotiate h2 gets HTTP/1.1 keep-alive
// instead, where each open watch holds a socket of its own. Credentials and TLS material come from the
// cluster's KubeConfig through `connectionSettings`, re-read for each request (tokens rotate).
//
// Dead connections: on h2 a PING goes out after `pingIntervalMs` without a frame (default 90 s) and the
// connection is dropped when no answer comes within `pingTimeoutMs` (15 s). client-go pings after 30 s
// (ReadIdleTimeout); here a watching connection hears a bookmark from each of its watches about every
// minute, which already shows it alive, so the PING is kept for connections that are silent for longer
// (a watch without bookmarks, a server that sends none, a dead peer). At 30 s, the once-a-minute burst of a
// cluster's bookmarks left every connection silent for half a minute: a PING a minute on each, 1,000 a
// minute at 1,000 clusters, a third of the watch engine's idle CPU. On HTTP/1.1 the engine's idle check
// (bookmark silence) does that job.
import http2 from "node:http2";
import https from "node:https";
import http from "node:http";
import { isIP } from "node:net";
import tls from "node:tls";
import type { Readable } from "node:stream";
import type { KubeConfig } from "@kubernetes/client-node";
import { connectionSettings, type ConnectionSettings, tlsFingerprint } from "../connection";
import { type KubeReader, withRetries } from "../client";
import { brokenBodyError, classifyNetworkError, ClusterRequestError, jsonOrError } from "../errors";
import { sweeperEvery } from "./sweeper";

export type Protocol = "h2" | "http/1.1";

/** How long one reading of a kubeconfig's credentials serves further requests (tokens live for minutes at least). */
const SETTINGS_REUSE_MS = 5_000;

/** TLS fingerprints per credentials read, so that a reused reading is not hashed again for each request. */
const fingerprints = new WeakMap<ConnectionSettings, Map<boolean, string>>();
function fingerprintOf(isHttps: boolean, settings: ConnectionSettings): string {
  let byScheme = fingerprints.get(settings);
  if (!byScheme) fingerprints.set(settings, (byScheme = new Map<boolean, string>()));
  let fingerprint = byScheme.get(isHttps);
  if (fingerprint === undefined) byScheme.set(isHttps, (fingerprint = tlsFingerprint(isHttps, settings.tls)));
  return fingerprint;
}

export interface TransportOptions {
  /** Deadline of a list request (connect to last byte) and of a watch's response headers. */
  requestTimeoutMs: number;
  /** "auto": h2 when the server negotiates it, else HTTP/1.1. "http1": never try h2. */
  protocol?: "auto" | "http1";
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
  /** Told of every request until it is answered (a watch until its headers): the collector naps only when none is in flight. */
  activity?: RequestActivity;
}

/** Requests in flight, as a nap would delay them (lib/collector/idle-reads.ts). */
export interface RequestActivity {
  /** A request was sent; call the returned function once it is answered or failed (a second call is harmless). */
  begin(): () => void;
}

export interface TransportStats {
  /** What the last connection negotiated (null before the first one). */
  protocol: Protocol | null;
  /** HTTP requests sent: list pages and watch starts. */
  requests: number;
  /** Connections established so far (one per h2 connection or HTTP/1.1 socket; failed attempts not counted). */
  connections: number;
  /** TCP sockets open now. */
  openSockets: number;
  /** Requests in flight now (open watches included). */
  openStreams: number;
  bytesReceived: number;
}

/**
 * GETs over a cluster's watch connection, retried like the cluster client's: a watch session reads /version,
 * discovery and Events on the socket its watches use, not on a second TLS connection of its own.
 */
export function transportReader(
  transport: ClusterTransport,
  server: string,
  options: { attempts?: number; onRequest?: () => void } = {},
): KubeReader {
  let requests = 0;
  return {
    server,
    get requests() {
      return requests;
    },
    async getJson<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T> {
      return (await withRetries(options.attempts ?? 3, true, () => {
        requests++;
        options.onRequest?.();
        return transport.getJson(path, query);
      })) as T;
    },
  };
}

/** An open watch response: its bytes are handed to `onBytes` as they arrive. */
export interface WatchStream {
  /** Resolves "server" when the server ends the stream cleanly, "client" after close(); rejects when it breaks. */
  readonly done: Promise<"server" | "client">;
  close(): void;
}

interface Opened {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Readable;
  abort(): void;
}

const DEFAULT_PING_INTERVAL_MS = 90_000;
const DEFAULT_PING_TIMEOUT_MS = 15_000;

export class ClusterTransport {
  private session?: http2.ClientHttp2Session;
  private sessionFingerprint = "";
  private connecting?: Promise<http2.ClientHttp2Session | null>;
  private agent?: https.Agent | http.Agent;
  private agentFingerprint = "";
  private negotiated: Protocol | null = null;
  private lastFrameAt = 0;
  /** Ends this connection's silence checks (the process's shared sweeper runs them). */
  private stopPings?: () => void;
  private pinging = false;
  private closed = false;
  private readonly inFlight = new Set<() => void>();
  private counters = { requests: 0, connections: 0, bytesReceived: 0 };
  /** Credentials read for the last request, reused for a burst of them (see SETTINGS_REUSE_MS). */
  private lastSettings?: { at: number; kubeConfig: KubeConfig; settings: Promise<ConnectionSettings> };

  constructor(
    private kubeConfig: KubeConfig,
    private readonly options: TransportOptions,
  ) {}

  /** A rotated kubeconfig (new token or certificate): new requests use it, a new CA opens a new connection. */
  setKubeConfig(kc: KubeConfig): void {
    this.kubeConfig = kc;
    this.lastSettings = undefined;
  }

  /**
   * The kubeconfig's headers and TLS material, read again after SETTINGS_REUSE_MS: reading them builds an
   * agent and runs exec plugins or token files, and a facts read sends several GETs at once.
   */
  private connection(): Promise<ConnectionSettings> {
    const now = Date.now();
    const last = this.lastSettings;
    if (last && last.kubeConfig === this.kubeConfig && now - last.at < SETTINGS_REUSE_MS) return last.settings;
    const settings = connectionSettings(this.kubeConfig);
    const entry = { at: now, kubeConfig: this.kubeConfig, settings };
    this.lastSettings = entry;
    // A failure is not reused: the next request reads the kubeconfig again.
    settings.catch(() => {
      if (this.lastSettings === entry) this.lastSettings = undefined;
    });
    return settings;
  }

  stats(): TransportStats {
    let openSockets = this.session && !this.session.destroyed ? 1 : 0;
    if (this.agent) {
      for (const list of [...Object.values(this.agent.sockets), ...Object.values(this.agent.freeSockets)]) openSockets += list?.length ?? 0;
    }
    return { protocol: this.negotiated, ...this.counters, openSockets, openStreams: this.inFlight.size };
  }

  /** GET a JSON document with the request deadline. Errors are ClusterRequestErrors named for what happened. */
  async getJson(path: string, query: Record<string, string | number | undefined> = {}): Promise<unknown> {
    const answered = this.options.activity?.begin();
    try {
      return await this.readJson(path, query);
    } finally {
      answered?.();
    }
  }

  private async readJson(path: string, query: Record<string, string | number | undefined>): Promise<unknown> {
    const opened = await this.open(withQuery(path, query));
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      let ended = false;
      const timer = setTimeout(() => {
        fail(new ClusterRequestError(`no complete response within ${Math.round(this.options.requestTimeoutMs / 1000)} s`, "timeout"));
      }, this.options.requestTimeoutMs);
      const finish = this.track(() => fail(new ClusterRequestError("the connection was closed by the client", "other")));
      const fail = (err: ClusterRequestError) => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        finish();
        opened.abort();
        reject(err);
      };
      opened.body.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        this.counters.bytesReceived += chunk.length;
        this.lastFrameAt = Date.now();
        chunks.push(chunk);
      });
      opened.body.on("error", (err) => fail(brokenBodyError(err, bytes)));
      opened.body.on("close", () => fail(brokenBodyError(undefined, bytes)));
      opened.body.on("end", () => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        finish();
        const result = jsonOrError(opened.status, Buffer.concat(chunks).toString("utf8"), headerValue(opened.headers["retry-after"]));
        if (result.ok) resolve(result.value);
        else reject(result.error);
      });
    });
  }

  /**
   * Starts a watch. Resolves once the server answered 200 (its bytes then flow to `onBytes`); rejects with the
   * server's Status for any other answer, or when no headers arrive within the request deadline.
   */
  async openStream(
    path: string,
    query: Record<string, string | number | undefined>,
    onBytes: (chunk: Buffer) => void,
  ): Promise<WatchStream> {
    const answered = this.options.activity?.begin();
    const opened = await this.open(withQuery(path, query)).finally(() => answered?.());
    if (opened.status !== 200) {
      const body = await readSmallBody(opened.body);
      opened.abort();
      const result = jsonOrError(opened.status, body, headerValue(opened.headers["retry-after"]));
      // A 2xx other than 200 is no watch either.
      throw result.ok ? new ClusterRequestError(`HTTP ${opened.status} to a watch request`, "http", opened.status) : result.error;
    }
    let settle!: (how: "server" | "client" | ClusterRequestError) => void;
    const done = new Promise<"server" | "client">((resolve, reject) => {
      let bytes = 0;
      let over = false;
      const finish = this.track(() => settle("client"));
      settle = (how) => {
        if (over) return;
        over = true;
        finish();
        if (how === "client") opened.abort();
        if (how instanceof ClusterRequestError) reject(how);
        else resolve(how);
      };
      // Bytes, not text: the consumer splits lines and decodes only whole ones (see LineSplitter).
      opened.body.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        this.counters.bytesReceived += chunk.length;
        this.lastFrameAt = Date.now();
        if (!over) onBytes(chunk);
      });
      opened.body.on("end", () => settle("server"));
      opened.body.on("error", (err) => settle(brokenBodyError(err, bytes)));
      opened.body.on("close", () => settle(brokenBodyError(undefined, bytes)));
    });
    return { done, close: () => settle("client") };
  }

  /** Ends every request and closes every connection. */
  close(): void {
    this.closed = true;
    for (const abort of [...this.inFlight]) abort();
    this.stopPings?.();
    this.stopPings = undefined;
    // Destroyed on the next turn of the event loop, never now: close() is often called from a stream's
    // callback (a 405 answer that makes the engine fall back, a lease lost), which runs inside the HTTP/2
    // session's read of a buffer that may hold frames of its other streams; destroying the session there
    // aborts the process (a native assertion in Node's HTTP/2, seen as SIGABRT in the watch-mode test).
    const session = this.session;
    if (session) setImmediate(() => session.destroy());
    this.session = undefined;
    this.agent?.destroy();
    this.agent = undefined;
  }

  // --- connections ------------------------------------------------------------------------------------

  private track(abort: () => void): () => void {
    this.inFlight.add(abort);
    return () => this.inFlight.delete(abort);
  }

  private async open(pathAndQuery: string): Promise<Opened> {
    if (this.closed) throw new ClusterRequestError("the cluster's transport is closed", "other");
    const settings = await this.connection();
    const basePath = settings.url.pathname === "/" ? "" : settings.url.pathname.replace(/\/+$/, "");
    const fullPath = basePath + pathAndQuery;
    this.counters.requests++;
    const session = await this.h2Session(settings);
    if (this.closed) throw new ClusterRequestError("the cluster's transport is closed", "other");
    return session ? this.openH2(session, settings, fullPath) : this.openH1(settings, fullPath);
  }

  private deadline<T>(what: string, start: (onTimeout: (abort: () => void) => void) => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    return new Promise<T>((resolve, reject) => {
      start((abort) => {
        timer = setTimeout(() => {
          abort();
          reject(new ClusterRequestError(`${what} within ${Math.round(this.options.requestTimeoutMs / 1000)} s`, "timeout"));
        }, this.options.requestTimeoutMs);
      }).then(resolve, reject);
    }).finally(() => clearTimeout(timer));
  }

  private openH2(session: http2.ClientHttp2Session, settings: ConnectionSettings, path: string): Promise<Opened> {
    return this.deadline("no response headers", (armTimeout) => {
      return new Promise<Opened>((resolve, reject) => {
        const headers: http2.OutgoingHttpHeaders = { ":method": "GET", ":path": path };
        for (const [name, value] of Object.entries(settings.headers)) headers[name.toLowerCase()] = value;
        let stream: http2.ClientHttp2Stream;
        try {
          stream = session.request(headers, { endStream: true });
        } catch (err) {
          reject(classifyNetworkError(err));
          return;
        }
        armTimeout(() => stream.close(http2.constants.NGHTTP2_CANCEL));
        const onEarlyError = (err: Error) => reject(classifyNetworkError(err));
        const onEarlyClose = () =>
          reject(new ClusterRequestError(`the stream was reset before any response (code ${stream.rstCode ?? "?"})`, "other"));
        stream.once("error", onEarlyError);
        stream.once("close", onEarlyClose);
        stream.once("response", (responseHeaders) => {
          stream.off("error", onEarlyError);
          stream.off("close", onEarlyClose);
          resolve({
            status: Number(responseHeaders[":status"] ?? 0),
            headers: responseHeaders as http.IncomingHttpHeaders,
            body: stream,
            abort: () => {
              if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
            },
          });
        });
      });
    });
  }

  private openH1(settings: ConnectionSettings, path: string): Promise<Opened> {
    const agent = this.h1Agent(settings);
    return this.deadline("no response headers", (armTimeout) => {
      return new Promise<Opened>((resolve, reject) => {
        const isHttps = settings.url.protocol === "https:";
        const request = (isHttps ? https : http).request({
          protocol: settings.url.protocol,
          hostname: settings.url.hostname,
          port: settings.url.port,
          path,
          method: "GET",
          agent,
          headers: settings.headers,
        });
        armTimeout(() => request.destroy());
        request.on("socket", (socket) => {
          // A new socket connects (and is counted) once; a reused keep-alive socket is already connected.
          socket.once(isHttps ? "secureConnect" : "connect", () => {
            this.counters.connections++;
            this.negotiated ??= "http/1.1";
          });
        });
        request.on("error", (err) => reject(classifyNetworkError(err)));
        request.on("response", (response) => {
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: response, abort: () => request.destroy() });
        });
        request.end();
      });
    });
  }

  private h1Agent(settings: ConnectionSettings): https.Agent | http.Agent {
    const isHttps = settings.url.protocol === "https:";
    const fingerprint = fingerprintOf(isHttps, settings);
    if (this.agent && this.agentFingerprint === fingerprint) return this.agent;
    this.agent?.destroy();
    // Each open watch holds a socket; two more stay free for lists.
    const common = { keepAlive: true, maxFreeSockets: 2, scheduling: "lifo" as const };
    this.agent = isHttps ? new https.Agent({ ...common, ...settings.tls }) : new http.Agent(common);
    this.agentFingerprint = fingerprint;
    return this.agent;
  }

  /** The open h2 connection, a new one, or null when the server speaks HTTP/1.1 only. */
  private async h2Session(settings: ConnectionSettings): Promise<http2.ClientHttp2Session | null> {
    if (this.options.protocol === "http1" || settings.url.protocol !== "https:" || this.negotiated === "http/1.1") return null;
    const fingerprint = fingerprintOf(true, settings);
    const current = this.session;
    if (current && usable(current) && this.sessionFingerprint === fingerprint) return current;
    if (current && this.sessionFingerprint !== fingerprint) current.close(); // new CA or certificate: streams finish, new ones go elsewhere
    this.connecting ??= this.connectH2(settings, fingerprint).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private connectH2(settings: ConnectionSettings, fingerprint: string): Promise<http2.ClientHttp2Session | null> {
    const host = settings.url.hostname.replace(/^\[|\]$/g, "");
    const port = Number(settings.url.port || 443);
    const servername = settings.tls.servername ?? (isIP(host) ? undefined : host);
    return this.deadline("no TLS handshake", (armTimeout) => {
      return new Promise<http2.ClientHttp2Session | null>((resolve, reject) => {
        const socket = tls.connect({ ...settings.tls, host, port, servername, ALPNProtocols: ["h2", "http/1.1"] });
        armTimeout(() => socket.destroy());
        socket.once("error", (err) => reject(classifyNetworkError(err)));
        socket.once("secureConnect", () => {
          this.counters.connections++;
          if (socket.alpnProtocol !== "h2") {
            // HTTP/1.1 only (a proxy in front, or h2 switched off): remember it, use keep-alive sockets.
            this.negotiated = "http/1.1";
            socket.destroy();
            resolve(null);
            return;
          }
          this.negotiated = "h2";
          const session = http2.connect(settings.url.origin, { createConnection: () => socket, settings: { enablePush: false } });
          session.on("error", () => undefined); // streams report their own failure
          session.on("close", () => {
            if (this.session === session) this.session = undefined;
          });
          session.on("goaway", () => {
            if (this.session === session) this.session = undefined; // running streams finish, new ones get a new connection
          });
          session.on("ping", () => (this.lastFrameAt = Date.now()));
          this.session = session;
          this.sessionFingerprint = fingerprint;
          this.lastFrameAt = Date.now();
          this.startPings();
          resolve(session);
        });
      });
    });
  }

  /** Checked a few times per interval by the shared sweeper: a PING goes out at most one third of an interval late. */
  private startPings(): void {
    if (this.stopPings) return;
    const interval = this.options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
    const timeout = this.options.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS;
    this.stopPings = sweeperEvery(Math.min(10_000, interval / 3)).add((now) => {
      const session = this.session;
      if (!session || !usable(session) || this.pinging || now - this.lastFrameAt < interval) return;
      this.pinging = true;
      const silent = setTimeout(() => session.destroy(new Error(`no answer to a PING within ${timeout / 1000} s`)), timeout);
      const done = (err: Error | null) => {
        clearTimeout(silent);
        this.pinging = false;
        if (!err) this.lastFrameAt = Date.now();
      };
      if (!session.ping(done)) done(new Error("PING not sent"));
    });
  }
}

function usable(session: http2.ClientHttp2Session): boolean {
  return !session.closed && !session.destroyed;
}

function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function readSmallBody(body: Readable): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    body.setEncoding("utf8");
    body.on("data", (chunk: string) => {
      if (text.length < 64 * 1024) text += chunk;
    });
    body.on("end", () => resolve(text));
    body.on("error", () => resolve(text));
    body.on("close", () => resolve(text));
  });
}
