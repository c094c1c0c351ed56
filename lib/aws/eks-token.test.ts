import { describe, expect, it } from "vitest";
import { EksTokenCache, mintEksToken, TOKEN_PREFIX } from "./eks-token";

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

describe("mintEksToken", () => {
  it("presigns GetCallerIdentity with the cluster header signed, unpadded base64url, like aws eks get-token", async () => {
    const now = new Date("2026-11-21T20:00:00Z");
    const { token, expiresAt } = await mintEksToken({ clusterName: "prod-a", region: "eu-west-1", credentials, now });
    expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
    const encoded = token.slice(TOKEN_PREFIX.length);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    const url = new URL(Buffer.from(encoded, "base64url").toString("utf8"));
    expect(url.origin).toBe("https://sts.eu-west-1.amazonaws.com");
    expect(url.pathname).toBe("/");
    expect(url.searchParams.get("Action")).toBe("GetCallerIdentity");
    expect(url.searchParams.get("Version")).toBe("2011-06-15");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("60");
    expect(url.searchParams.get("X-Amz-Date")).toBe("20261121T200000Z");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("host;x-k8s-aws-id");
    expect(url.searchParams.get("X-Amz-Credential")).toBe("AKIDEXAMPLE/20261121/eu-west-1/sts/aws4_request");
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(expiresAt.toISOString()).toBe("2026-11-21T20:14:00.000Z");
    const other = await mintEksToken({ clusterName: "prod-b", region: "eu-west-1", credentials, now });
    expect(other.token).not.toBe(token);
  });

  it("uses a configured STS endpoint with its port in the signed host", async () => {
    const { token } = await mintEksToken({ clusterName: "c", region: "us-east-1", credentials, stsEndpoint: "https://127.0.0.1:4566" });
    const url = new URL(Buffer.from(token.slice(TOKEN_PREFIX.length), "base64url").toString("utf8"));
    expect(url.host).toBe("127.0.0.1:4566");
  });
});

describe("EksTokenCache", () => {
  it("reuses a token until a minute before it expires", async () => {
    const cache = new EksTokenCache();
    let minted = 0;
    const mint = async () => ({ token: `t${++minted}`, expiresAt: new Date(1_000_000 + 14 * 60_000) });
    expect((await cache.get("k", mint, 1_000_000)).token).toBe("t1");
    expect((await cache.get("k", mint, 1_000_000 + 12 * 60_000)).token).toBe("t1");
    expect((await cache.get("k", mint, 1_000_000 + 13 * 60_000 + 1)).token).toBe("t2");
  });
});
