// Synchronous AWS Signature Version 4 primitives (node:crypto).
//
// The fleet model must mint EKS tokens inside the synchronous `objectsAt()` and the simulated services verify
// signatures per request, so the algorithm is written out here once. A test proves the presigned URLs are
// byte-identical to what @smithy/signature-v4 (the signer the AWS SDK uses) produces for the same inputs.
import { createHash, createHmac } from "node:crypto";

export const ALGORITHM = "AWS4-HMAC-SHA256";
export const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters is percent-encoded. */
export function escapeUri(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** 20261121T201500Z */
export function amzDate(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
}

export function parseAmzDate(value: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return undefined;
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
}

export function signingKey(secretAccessKey: string, shortDate: string, region: string, service: string): Buffer {
  const kDate = createHmac("sha256", `AWS4${secretAccessKey}`).update(shortDate).digest();
  const kRegion = createHmac("sha256", kDate).update(region).digest();
  const kService = createHmac("sha256", kRegion).update(service).digest();
  return createHmac("sha256", kService).update("aws4_request").digest();
}

/** Canonical URI the way the SDK builds it for non-S3 services: normalised, then escaped once more. */
export function canonicalPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  const normalised = `${path.startsWith("/") ? "/" : ""}${segments.join("/")}${segments.length > 0 && path.endsWith("/") ? "/" : ""}`;
  return escapeUri(normalised).replace(/%2F/g, "/");
}

/** Canonical query from decoded key → value(s); X-Amz-Signature is never part of it. */
export function canonicalQuery(query: Record<string, string | string[]>): string {
  const entries: { key: string; serialized: string }[] = [];
  for (const key of Object.keys(query)) {
    if (key.toLowerCase() === "x-amz-signature") continue;
    const encodedKey = escapeUri(key);
    const value = query[key];
    const values = Array.isArray(value) ? value : [value];
    const serialized = values
      .map((v) => `${encodedKey}=${escapeUri(v)}`)
      .sort()
      .join("&");
    entries.push({ key: encodedKey, serialized });
  }
  return entries
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((e) => e.serialized)
    .join("&");
}

export function canonicalHeaderValue(value: string): string {
  return value
    .replace(/[\r\n]/g, " ")
    .replace(/[ \t]+/g, " ")
    .replace(/^ | $/g, "");
}

export interface CanonicalRequestInput {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** lower-case header name → value, only the signed ones */
  headers: Record<string, string>;
  payloadHash: string;
}

export function canonicalRequest(input: CanonicalRequestInput): string {
  const names = Object.keys(input.headers).sort();
  return [
    input.method,
    canonicalPath(input.path),
    canonicalQuery(input.query),
    names.map((n) => `${n}:${canonicalHeaderValue(input.headers[n])}`).join("\n") + "\n",
    names.join(";"),
    input.payloadHash,
  ].join("\n");
}

export function signatureFor(secretAccessKey: string, longDate: string, region: string, service: string, canonical: string): string {
  const shortDate = longDate.slice(0, 8);
  const scope = `${shortDate}/${region}/${service}/aws4_request`;
  const stringToSign = [ALGORITHM, longDate, scope, sha256Hex(canonical)].join("\n");
  return createHmac("sha256", signingKey(secretAccessKey, shortDate, region, service))
    .update(stringToSign)
    .digest("hex");
}

export interface PresignInput {
  credentials: SigningCredentials;
  region: string;
  service: string;
  method: string;
  /** e.g. "127.0.0.1:8443" or "sts.us-east-1.amazonaws.com" */
  host: string;
  path: string;
  query: Record<string, string>;
  /** extra signed headers (lower-case), besides host */
  headers?: Record<string, string>;
  signingDateMs: number;
  expiresInSeconds: number;
}

/** Query parameters (decoded) of a presigned request, X-Amz-Signature included. */
export function presignQuery(input: PresignInput): Record<string, string> {
  const longDate = amzDate(input.signingDateMs);
  const scope = `${longDate.slice(0, 8)}/${input.region}/${input.service}/aws4_request`;
  const headers: Record<string, string> = { host: input.host, ...(input.headers ?? {}) };
  const query: Record<string, string> = { ...input.query };
  if (input.credentials.sessionToken) query["X-Amz-Security-Token"] = input.credentials.sessionToken;
  query["X-Amz-Algorithm"] = ALGORITHM;
  query["X-Amz-Credential"] = `${input.credentials.accessKeyId}/${scope}`;
  query["X-Amz-Date"] = longDate;
  query["X-Amz-Expires"] = String(input.expiresInSeconds);
  query["X-Amz-SignedHeaders"] = Object.keys(headers).sort().join(";");
  const canonical = canonicalRequest({
    method: input.method,
    path: input.path,
    query,
    headers,
    payloadHash: EMPTY_SHA256,
  });
  query["X-Amz-Signature"] = signatureFor(input.credentials.secretAccessKey, longDate, input.region, input.service, canonical);
  return query;
}

/** Serialises query parameters with SigV4 escaping, keys sorted (stable, and what the SDK's formatter does). */
export function formatQuery(query: Record<string, string>): string {
  return Object.keys(query)
    .sort()
    .map((k) => `${escapeUri(k)}=${escapeUri(query[k])}`)
    .join("&");
}
