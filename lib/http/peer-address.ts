// Next.js gives proxy.ts and route handlers headers but no socket, and it fills X-Forwarded-For from the
// socket only when the client sent none, so a client can choose the address it is known by. Node's HTTP
// server publishes every request on a diagnostics channel before any listener (Next.js included) sees it:
// there the socket address is stamped into PEER_HEADER, and, unless a proxy is trusted, the forwarding
// headers a client may have sent are dropped, so Next.js and our code see only what the socket says.
// Installed once per process from instrumentation.ts (the same process serves every request).
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { FORWARDING_HEADERS, PEER_HEADER } from "./forwarded";

const INSTALLED = Symbol.for("crows-nest.peer-address");
type Marked = typeof globalThis & { [INSTALLED]?: boolean };

export function installPeerAddress(trustProxy: number): void {
  const g = globalThis as Marked;
  if (g[INSTALLED]) return;
  g[INSTALLED] = true;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_HEADER] = socket.remoteAddress ?? "";
    if (trustProxy === 0) for (const name of FORWARDING_HEADERS) delete request.headers[name];
  });
}

/** False when the stamp is not installed: PEER_HEADER could then be the client's own. */
export function peerAddressInstalled(): boolean {
  return (globalThis as Marked)[INSTALLED] === true;
}
