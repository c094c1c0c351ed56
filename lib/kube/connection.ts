// How to reach one cluster's API server, read from a client-node KubeConfig: the URL, the headers that
// authenticate (bearer token, basic auth, exec plugins, in-cluster service accounts) and the TLS material
// (CA, client certificate and key, server name). The polling client and the watch transport both use it,
// so there is one place where credentials are turned into a request.
import { createHash } from "node:crypto";
import type https from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import { ClusterRequestError } from "./errors";
import { oneLine } from "../errors";

export interface TlsMaterial {
  ca?: https.AgentOptions["ca"];
  cert?: https.AgentOptions["cert"];
  key?: https.AgentOptions["key"];
  servername?: string;
  rejectUnauthorized?: boolean;
}

export interface ConnectionSettings {
  /** The server URL of the current context, without a trailing slash. */
  url: URL;
  /** Accept, User-Agent and whatever authenticates (Authorization). Never logged. */
  headers: Record<string, string>;
  tls: TlsMaterial;
}

/** The server URL of the current context, or a clear error. */
export function serverOf(kc: KubeConfig): string {
  const cluster = kc.getCurrentCluster();
  if (!cluster?.server) throw new ClusterRequestError("kubeconfig has no server for its current context", "other");
  return cluster.server.replace(/\/+$/, "");
}

/**
 * Headers and TLS material for the current context. Exec plugins and token files are evaluated here, so a
 * caller that keeps a connection open for hours calls this again for each new request.
 */
export async function connectionSettings(kc: KubeConfig, userAgent = "crows-nest-collector"): Promise<ConnectionSettings> {
  const url = new URL(serverOf(kc));
  const opts: https.RequestOptions & { headers: Record<string, string> } = { headers: {} };
  try {
    await kc.applyToHTTPSOptions(opts);
  } catch (err) {
    throw new ClusterRequestError(`credentials unavailable: ${oneLine(err)}`, "auth");
  }
  const headers: Record<string, string> = { Accept: "application/json", "User-Agent": userAgent };
  for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k] = String(v);
  if (opts.auth) headers.Authorization = `Basic ${Buffer.from(opts.auth).toString("base64")}`;
  return {
    url,
    headers,
    tls: { ca: opts.ca, cert: opts.cert, key: opts.key, servername: opts.servername, rejectUnauthorized: opts.rejectUnauthorized },
  };
}

/** Changes when the CA, the client certificate or the server name changes: time for a new connection. */
export function tlsFingerprint(isHttps: boolean, tls: TlsMaterial): string {
  return createHash("sha1")
    .update(String(isHttps))
    .update(String(tls.ca ?? ""))
    .update(String(tls.cert ?? ""))
    .update(String(tls.key ?? ""))
    .update(String(tls.rejectUnauthorized))
    .update(String(tls.servername ?? ""))
    .digest("hex");
}
