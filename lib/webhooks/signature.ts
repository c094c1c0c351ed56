// generic-hmac: notification-controller signs the exact JSON body with HMAC-SHA256 keyed by the Provider
// secret's `token` and sends `X-Signature: sha256=<lowercase hex>`.
import { createHmac, timingSafeEqual } from "node:crypto";

export function sign(body: Uint8Array | string, key: string): string {
  return `sha256=${createHmac("sha256", key).update(body).digest("hex")}`;
}

/** Constant-time check of an `X-Signature` header against the body. */
export function verifySignature(body: Uint8Array, header: string | null, key: string): boolean {
  if (!header) return false;
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!m) return false;
  const expected = createHmac("sha256", key).update(body).digest();
  const given = Buffer.from(m[1], "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The key for a cluster: its own from WEBHOOK_HMAC_SECRETS ("cluster=key,..."), else the default
 * WEBHOOK_HMAC_SECRET, else none.
 */
export function keyForCluster(cluster: string, perCluster: string[], fallback: string | undefined): string | null {
  for (const entry of perCluster) {
    const i = entry.indexOf("=");
    if (i > 0 && entry.slice(0, i).trim() === cluster) return entry.slice(i + 1).trim() || null;
  }
  return fallback || null;
}
