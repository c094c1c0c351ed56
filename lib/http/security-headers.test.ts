import { expect, it } from "vitest";
import { securityHeaders } from "./security-headers";

it("allows scripts only with the nonce, forbids framing, and adds HSTS only over TLS", () => {
  const plain = securityHeaders({ nonce: "abc", https: false, dev: false });
  const csp = plain["Content-Security-Policy"];
  expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
  expect(csp).not.toContain("unsafe-eval");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(plain["Referrer-Policy"]).toBe("same-origin");
  expect(plain["X-Content-Type-Options"]).toBe("nosniff");
  expect(plain["Strict-Transport-Security"]).toBeUndefined();
  const tls = securityHeaders({ nonce: "abc", https: true, dev: false });
  expect(tls["Strict-Transport-Security"]).toMatch(/^max-age=\d{8}/);
  expect(tls["Content-Security-Policy"]).toContain("upgrade-insecure-requests");
  expect(securityHeaders({ nonce: "n", https: false, dev: true })["Content-Security-Policy"]).toContain("'unsafe-eval'");
});
