// Errors from talking to a cluster, classified into the kinds a person acts on differently.
// Messages never carry a credential: they are built from status codes, error codes and Status messages.
import { oneLine } from "../errors";

export const ERROR_KINDS = ["auth", "tls", "timeout", "dns", "refused", "http", "other"] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export class ClusterRequestError extends Error {
  override name = "ClusterRequestError";
  constructor(
    message: string,
    readonly kind: ErrorKind,
    readonly status?: number,
    /** Kubernetes Status reason, e.g. Expired, Forbidden. */
    readonly reason?: string,
    /** Seconds the server asked us to wait (Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** Worth retrying within the same poll: timeouts, resets, 429 and 5xx. */
  get retryable(): boolean {
    if (this.status !== undefined) return this.status === 429 || this.status >= 500;
    return this.kind === "timeout" || this.kind === "other";
  }
}

const TLS_CODES = new Set([
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "EPROTO",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_HANDSHAKE_TIMEOUT",
]);

/** Classifies a network-level error (no HTTP response) by its Node error code. */
export function classifyNetworkError(err: unknown): ClusterRequestError {
  if (err instanceof ClusterRequestError) return err;
  const code = (err as { code?: string } | null)?.code ?? "";
  const text = err instanceof Error ? err.message : String(err);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new ClusterRequestError(`DNS lookup failed (${code})`, "dns");
  if (code === "ECONNREFUSED") return new ClusterRequestError("connection refused", "refused");
  if (
    code === "ETIMEDOUT" ||
    code === "ESOCKETTIMEDOUT" ||
    code === "ABORT_ERR" ||
    code === "UND_ERR_CONNECT_TIMEOUT" ||
    /timed? ?out/i.test(text)
  ) {
    return new ClusterRequestError("request timed out", "timeout");
  }
  if (TLS_CODES.has(code) || /certificate|ssl|tls/i.test(text)) {
    return new ClusterRequestError(`TLS error: ${code || firstLine(text)}`, "tls");
  }
  if (code === "ECONNRESET" || code === "EPIPE") return new ClusterRequestError(`connection reset (${code})`, "other");
  return new ClusterRequestError(firstLine(text) || "request failed", "other");
}

/** Classifies an HTTP error response from its status and (Kubernetes Status) body. */
export function classifyHttpError(status: number, body: unknown, retryAfterHeader?: string | null): ClusterRequestError {
  const s = (body && typeof body === "object" ? body : {}) as {
    message?: unknown;
    reason?: unknown;
    details?: { retryAfterSeconds?: unknown };
  };
  const message = typeof s.message === "string" && s.message ? s.message : `HTTP ${status}`;
  const reason = typeof s.reason === "string" ? s.reason : undefined;
  const retryAfter =
    parseRetryAfter(retryAfterHeader) ?? (typeof s.details?.retryAfterSeconds === "number" ? s.details.retryAfterSeconds : undefined);
  const kind: ErrorKind = status === 401 || status === 403 ? "auth" : status === 504 || status === 408 ? "timeout" : "http";
  return new ClusterRequestError(`HTTP ${status}${reason ? ` ${reason}` : ""}: ${firstLine(message)}`, kind, status, reason, retryAfter);
}

/** A response read to its end: its JSON when 2xx, else what went wrong (the server's Status, or a body that is not JSON). */
export function jsonOrError(
  status: number,
  text: string,
  retryAfterHeader?: string | null,
): { ok: true; value: unknown } | { ok: false; error: ClusterRequestError } {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (status < 200 || status >= 300) return { ok: false, error: classifyHttpError(status, parsed, retryAfterHeader) };
  if (parsed === undefined && text) {
    return {
      ok: false,
      error: new ClusterRequestError(`invalid JSON in a ${status} response (${text.length} bytes, truncated?)`, "other"),
    };
  }
  return { ok: true, value: parsed };
}

/** Retry-After in seconds (delta-seconds or HTTP date), or undefined. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

const firstLine = (text: string): string => oneLine(text, "").slice(0, 500);

/** Exponential backoff with full jitter, honouring a server's Retry-After (capped). */
export function backoffMs(
  attempt: number,
  retryAfterSeconds: number | undefined,
  random = Math.random,
  baseMs = 200,
  capMs = 5000,
): number {
  if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, 10_000);
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
