// Checks the SigV4 signature of an incoming AWS API request (Authorization header or presigned query)
// against the identities the simulator knows, the way AWS front ends do, and names the error AWS returns.
import type { IncomingHttpHeaders } from "node:http";
import { identities, type SimIdentity } from "./identities";
import { ALGORITHM, canonicalRequest, parseAmzDate, sha256Hex, signatureFor } from "./sigv4";

/** AWS accepts request dates within 15 minutes of its clock (RequestTimeTooSkewed / signature expired). */
const MAX_SKEW_MS = 15 * 60_000;

export type AuthResult =
  { ok: true; identity: SimIdentity; region: string; service: string } | { ok: false; status: number; code: string; message: string };

export interface SignedRequest {
  method: string;
  /** raw path + query as received (req.url) */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Splits a raw query string into decoded key → value(s), keeping "+" literal as SigV4 does. */
export function parseRawQuery(raw: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (!raw) return query;
  for (const part of raw.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const key = decodeURIComponent(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? "" : decodeURIComponent(part.slice(eq + 1));
    const existing = query[key];
    if (existing === undefined) query[key] = value;
    else query[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(",") : v;
}

function deny(status: number, code: string, message: string): AuthResult {
  return { ok: false, status, code, message };
}

/**
 * Verifies a request signed for `expectedService`. `nowMs` are the instants the request date may be judged
 * against (wall-clock time of the signer, and simulated time when they differ).
 */
export function authenticate(request: SignedRequest, expectedService: string, nowMs: number[]): AuthResult {
  const [path, rawQuery = ""] = request.url.split("?", 2);
  const query = parseRawQuery(rawQuery);
  const authorization = headerValue(request.headers, "authorization");
  let credential: string;
  let signedHeaders: string[];
  let signature: string;
  let longDate: string | undefined;
  let securityToken: string | undefined;
  let presigned = false;

  if (authorization) {
    const m = /^AWS4-HMAC-SHA256 Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]+)$/.exec(authorization.trim());
    if (!m)
      return deny(
        400,
        "IncompleteSignatureException",
        `Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' parameters.`,
      );
    [, credential, , signature] = m;
    signedHeaders = m[2].split(";");
    longDate = headerValue(request.headers, "x-amz-date");
    securityToken = headerValue(request.headers, "x-amz-security-token");
  } else if (query["X-Amz-Algorithm"] === ALGORITHM) {
    presigned = true;
    credential = String(query["X-Amz-Credential"] ?? "");
    signedHeaders = String(query["X-Amz-SignedHeaders"] ?? "").split(";");
    signature = String(query["X-Amz-Signature"] ?? "");
    longDate = String(query["X-Amz-Date"] ?? "");
    securityToken = query["X-Amz-Security-Token"] as string | undefined;
  } else {
    return deny(403, "MissingAuthenticationTokenException", "Missing Authentication Token");
  }

  const scope = credential.split("/");
  if (scope.length !== 5 || scope[4] !== "aws4_request")
    return deny(400, "IncompleteSignatureException", "Credential should be scoped correctly.");
  const [accessKeyId, shortDate, region, service] = scope;
  if (service !== expectedService) {
    return deny(403, "InvalidSignatureException", `Credential should be scoped to correct service: '${expectedService}'.`);
  }
  const signedAt = longDate ? parseAmzDate(longDate) : undefined;
  if (signedAt === undefined || longDate!.slice(0, 8) !== shortDate) {
    return deny(403, "IncompleteSignatureException", "Date must be in ISO-8601 'basic format'. Got nothing");
  }
  if (presigned) {
    const expires = Number(query["X-Amz-Expires"]);
    if (!nowMs.some((now) => now <= signedAt + expires * 1000 && signedAt <= now + MAX_SKEW_MS)) {
      return deny(403, "AccessDeniedException", "Signature expired");
    }
  } else if (!nowMs.some((now) => Math.abs(now - signedAt) <= MAX_SKEW_MS)) {
    return deny(403, "InvalidSignatureException", `Signature expired: ${longDate} is now earlier than the allowed window.`);
  }

  const identity = identities.resolve(accessKeyId, securityToken);
  if (!identity) return deny(403, "UnrecognizedClientException", "The security token included in the request is invalid.");
  if (identity.sessionToken !== undefined && securityToken !== identity.sessionToken) {
    return deny(403, "UnrecognizedClientException", "The security token included in the request is invalid.");
  }
  if (identity.expiresAtMs !== undefined && !nowMs.some((now) => now < identity.expiresAtMs!)) {
    return deny(403, "ExpiredTokenException", "The security token included in the request is expired");
  }

  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = headerValue(request.headers, name);
    if (value === undefined) return deny(403, "InvalidSignatureException", `Signed header ${name} is missing.`);
    headers[name] = value;
  }
  const payloadHash = presigned
    ? "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    : (headerValue(request.headers, "x-amz-content-sha256") ?? sha256Hex(request.body));
  const canonical = canonicalRequest({ method: request.method, path, query, headers, payloadHash });
  const expected = signatureFor(identity.secretAccessKey, longDate!, region, service, canonical);
  if (expected !== signature) {
    return deny(
      403,
      "InvalidSignatureException",
      "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.",
    );
  }
  return { ok: true, identity, region, service };
}
