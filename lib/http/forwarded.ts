// Who is asking, and at which origin, without trusting what a client can write. X-Forwarded-* headers are
// believed only when TRUST_PROXY says how many proxies in front of us add them; otherwise the socket
// address (stamped by ./peer-address.ts, since Next.js hands route code no socket) and the Host header.

/** Set on every request by ./peer-address.ts from the TCP socket, overwriting anything a client sent. */
export const PEER_HEADER = "x-crows-nest-peer";

/** Forwarding headers a client could send itself; dropped unless a proxy we trust sets them. */
export const FORWARDING_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
];

/** `::ffff:10.0.0.1` (IPv4 on a dual-stack socket) → `10.0.0.1`. */
function plainAddress(address: string): string {
  const a = address.trim();
  return a.toLowerCase().startsWith("::ffff:") && a.includes(".") ? a.slice(7) : a;
}

function list(value: string | null): string[] {
  return (value ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * The client's address for rate limits. `trustProxy` = 0: the socket address. N > 0: like Express's
 * "trust proxy" hop count, the address N hops back from us: the socket is the nearest proxy, then
 * X-Forwarded-For read from the right (each proxy appends what it saw, so a client can only prepend).
 * "unknown" (one shared bucket) when the socket address was not stamped: never a client-chosen key.
 */
export function clientAddress(headers: Headers, trustProxy: number): string {
  const peer = headers.get(PEER_HEADER);
  if (!peer) return "unknown";
  const hops = [plainAddress(peer), ...list(headers.get("x-forwarded-for")).reverse().map(plainAddress)];
  return hops[Math.min(trustProxy, hops.length - 1)];
}

/**
 * The origin the browser used for this request: Host and the request's scheme, or, behind a trusted
 * proxy, the X-Forwarded-Host / -Proto it set (the value its nearest hop wrote, the last in the list).
 */
export function requestOrigin(headers: Headers, requestUrl: string, trustProxy: number): string | null {
  const forwardedHost = trustProxy > 0 ? list(headers.get("x-forwarded-host")).at(-1) : undefined;
  const host = forwardedHost ?? headers.get("host");
  if (!host) return null;
  const forwardedProto = trustProxy > 0 ? list(headers.get("x-forwarded-proto")).at(-1) : undefined;
  const proto = forwardedProto ?? new URL(requestUrl).protocol.replace(":", "");
  if (!/^https?$/.test(proto)) return null;
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return null;
  }
}
