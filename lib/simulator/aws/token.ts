// EKS bearer tokens: "k8s-aws-v1." + unpadded base64url of a presigned STS GetCallerIdentity URL that signs
// the header `x-k8s-aws-id: <cluster name>` — what `aws eks get-token`, aws-iam-authenticator and Crossplane's
// provider-aws produce. Verification follows aws-iam-authenticator's checks, then recomputes the signature
// with the secret of the access key (the simulated STS knows every identity it issued).
import type { TokenCheck } from "../contract";
import { identities } from "./identities";
import { EMPTY_SHA256, canonicalRequest, formatQuery, parseAmzDate, presignQuery, signatureFor, type SigningCredentials } from "./sigv4";

export const TOKEN_PREFIX = "k8s-aws-v1.";
export const CLUSTER_ID_HEADER = "x-k8s-aws-id";
/** aws-iam-authenticator: tokens are accepted for 15 minutes after X-Amz-Date. */
export const PRESIGNED_URL_LIFETIME_MS = 15 * 60_000;
const MAX_TOKEN_LENGTH = 4096;
/** Clock skew tolerated for a date in the future. */
const FUTURE_SKEW_MS = 5 * 60_000;

const ALLOWED_PARAMS = new Set([
  "action",
  "version",
  "x-amz-algorithm",
  "x-amz-credential",
  "x-amz-date",
  "x-amz-expires",
  "x-amz-security-token",
  "x-amz-signature",
  "x-amz-signedheaders",
]);

export interface MintEksTokenInput {
  clusterName: string;
  credentials: SigningCredentials;
  /** Base URL of STS, e.g. https://127.0.0.1:41234 or https://sts.us-east-1.amazonaws.com */
  stsEndpoint: string;
  region: string;
  signingDateMs: number;
  /** X-Amz-Expires; 60 like aws-iam-authenticator unless told otherwise (upjet ClusterAuth uses up to 900). */
  expiresInSeconds?: number;
}

/** The presigned GetCallerIdentity URL behind a token. */
export function presignGetCallerIdentityUrl(input: MintEksTokenInput): string {
  const url = new URL(input.stsEndpoint);
  const query = presignQuery({
    credentials: input.credentials,
    region: input.region,
    service: "sts",
    method: "GET",
    host: url.host,
    path: "/",
    query: { Action: "GetCallerIdentity", Version: "2011-06-15" },
    headers: { [CLUSTER_ID_HEADER]: input.clusterName },
    signingDateMs: input.signingDateMs,
    expiresInSeconds: input.expiresInSeconds ?? 60,
  });
  return `https://${url.host}/?${formatQuery(query)}`;
}

export function mintEksToken(input: MintEksTokenInput): string {
  return TOKEN_PREFIX + Buffer.from(presignGetCallerIdentityUrl(input), "utf8").toString("base64url");
}

export interface VerifyOptions {
  /** Further instants at which the token may also be judged (e.g. wall-clock time while simulated time runs faster). */
  alsoAcceptAtMs?: number[];
}

function fail(reason: string): TokenCheck {
  return { ok: false, reason };
}

/**
 * Checks a bearer token for `clusterName` at `nowMs`. Accepts the token when it is valid at `nowMs` or at any
 * of `options.alsoAcceptAtMs`.
 */
export function verifyEksToken(token: string, clusterName: string, nowMs: number, options: VerifyOptions = {}): TokenCheck {
  if (token.length > MAX_TOKEN_LENGTH) return fail("token is too large");
  if (!token.startsWith(TOKEN_PREFIX)) return fail('token is missing expected "k8s-aws-v1." prefix');
  const encoded = token.slice(TOKEN_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return fail("illegal base64 data in token");
  let url: URL;
  try {
    url = new URL(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    return fail("malformed presigned URL");
  }
  if (url.protocol !== "https:") return fail(`unexpected scheme "${url.protocol.replace(":", "")}" in pre-signed URL`);
  if (url.pathname !== "/") return fail("unexpected path in pre-signed URL");

  const params: Record<string, string> = {};
  const lower: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    const k = key.toLowerCase();
    if (!ALLOWED_PARAMS.has(k)) return fail(`non-whitelisted query parameter "${key}"`);
    if (k in lower) return fail("query parameter with multiple values not supported");
    params[key] = value;
    lower[k] = value;
  }
  if (lower["action"] !== "GetCallerIdentity") return fail("unexpected action parameter in pre-signed URL");
  const signedHeaders = (lower["x-amz-signedheaders"] ?? "").split(";");
  if (!signedHeaders.includes(CLUSTER_ID_HEADER)) {
    return fail(`client did not sign the ${CLUSTER_ID_HEADER} header in the pre-signed URL`);
  }
  const expires = Number(lower["x-amz-expires"]);
  if (!Number.isInteger(expires) || expires < 0 || expires > 900) {
    return fail(`invalid X-Amz-Expires parameter in pre-signed URL: ${lower["x-amz-expires"]}`);
  }
  const signedAt = parseAmzDate(lower["x-amz-date"] ?? "");
  if (signedAt === undefined) return fail("error parsing X-Amz-Date parameter");
  const instants = [nowMs, ...(options.alsoAcceptAtMs ?? [])];
  const fresh = instants.some((now) => now <= signedAt + PRESIGNED_URL_LIFETIME_MS && signedAt <= now + FUTURE_SKEW_MS);
  if (!fresh) return fail("X-Amz-Date parameter is expired (15 minute expiration)");

  const credential = (lower["x-amz-credential"] ?? "").split("/");
  if (credential.length !== 5 || credential[3] !== "sts" || credential[4] !== "aws4_request") {
    return fail("malformed X-Amz-Credential");
  }
  const [accessKeyId, shortDate, region] = credential;
  if (shortDate !== lower["x-amz-date"]!.slice(0, 8)) return fail("credential scope date does not match X-Amz-Date");
  const identity = identities.resolve(accessKeyId, lower["x-amz-security-token"]);
  if (!identity) return fail("sts getCallerIdentity failed: InvalidClientTokenId");
  if (identity.sessionToken !== undefined && lower["x-amz-security-token"] !== identity.sessionToken) {
    return fail("sts getCallerIdentity failed: InvalidClientTokenId");
  }
  if (identity.expiresAtMs !== undefined && !instants.some((now) => now < identity.expiresAtMs!)) {
    return fail("sts getCallerIdentity failed: ExpiredToken");
  }

  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    if (name === "host") headers.host = url.host;
    else if (name === CLUSTER_ID_HEADER) headers[name] = clusterName;
    else return fail(`unexpected signed header "${name}"`);
  }
  const canonical = canonicalRequest({ method: "GET", path: "/", query: params, headers, payloadHash: EMPTY_SHA256 });
  const expected = signatureFor(identity.secretAccessKey, lower["x-amz-date"]!, region, "sts", canonical);
  if (expected !== lower["x-amz-signature"]) {
    return fail("sts getCallerIdentity failed: SignatureDoesNotMatch");
  }
  return { ok: true, user: identity.arn, readOnly: identity.readOnly };
}

/** Decodes the presigned URL inside a token (diagnostics and tests). */
export function decodeEksToken(token: string): URL | undefined {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  try {
    return new URL(Buffer.from(token.slice(TOKEN_PREFIX.length), "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}
