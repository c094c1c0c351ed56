// EKS bearer tokens, as `aws eks get-token` and aws-iam-authenticator make them: "k8s-aws-v1." + unpadded
// base64url of a presigned STS GetCallerIdentity URL that signs the header `x-k8s-aws-id: <cluster>`.
// A token is accepted for 15 minutes after it was signed; we reuse one until a minute before its
// 14-minute expiry (what the CLI reports).
import { Sha256 } from "@aws-crypto/sha256-js";
import { HttpRequest } from "@smithy/protocol-http";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentialIdentity } from "@smithy/types";

export const TOKEN_PREFIX = "k8s-aws-v1.";
const CLUSTER_ID_HEADER = "x-k8s-aws-id";
export const TOKEN_LIFETIME_MS = 14 * 60_000;
const REFRESH_BEFORE_MS = 60_000;

export interface EksToken {
  token: string;
  /** When the token stops being usable (signing time + 14 minutes). */
  expiresAt: Date;
}

/** `https://sts.<region>.amazonaws.com` unless an endpoint is configured (the fleet simulator). */
export function stsEndpointFor(region: string, override?: string): URL {
  return new URL(override ?? `https://sts.${region}.amazonaws.com`);
}

export async function mintEksToken(input: {
  clusterName: string;
  region: string;
  credentials: AwsCredentialIdentity;
  stsEndpoint?: string;
  now?: Date;
}): Promise<EksToken> {
  const endpoint = stsEndpointFor(input.region, input.stsEndpoint);
  const signer = new SignatureV4({ credentials: input.credentials, region: input.region, service: "sts", sha256: Sha256 });
  const request = new HttpRequest({
    method: "GET",
    protocol: "https:",
    hostname: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : undefined,
    path: "/",
    query: { Action: "GetCallerIdentity", Version: "2011-06-15" },
    headers: { host: endpoint.host, [CLUSTER_ID_HEADER]: input.clusterName },
  });
  const now = input.now ?? new Date();
  const signed = await signer.presign(request, { expiresIn: 60, signingDate: now });
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(signed.query ?? {})) {
    if (typeof v === "string") query.append(k, v);
    else if (Array.isArray(v)) for (const item of v) query.append(k, item);
  }
  const url = `https://${endpoint.host}/?${query.toString()}`;
  return { token: TOKEN_PREFIX + Buffer.from(url, "utf8").toString("base64url"), expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS) };
}

/** Caches a token per cluster + identity until a minute before it expires. */
export class EksTokenCache {
  private readonly tokens = new Map<string, EksToken>();

  async get(key: string, mint: () => Promise<EksToken>, now = Date.now()): Promise<EksToken> {
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAt.getTime() - REFRESH_BEFORE_MS > now) return cached;
    const fresh = await mint();
    this.tokens.set(key, fresh);
    return fresh;
  }

  clear(): void {
    this.tokens.clear();
  }
}
