import { describe, expect, it } from "vitest";
import { ConfigError } from "../env";
import { assertSafeAuthConfig, isLoopbackHost } from "./startup-guard";

const oidc = {
  AUTH_MODE: "oidc" as const,
  HOSTNAME: "0.0.0.0",
  OIDC_ISSUER: "https://idp",
  OIDC_CLIENT_ID: "c",
  SESSION_SECRET: "x".repeat(32),
  PUBLIC_URL: "https://cn",
};

describe("startup guard", () => {
  it("allows sign-in off only on loopback addresses", () => {
    for (const h of ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"]) {
      expect(isLoopbackHost(h)).toBe(true);
      expect(() => assertSafeAuthConfig({ ...oidc, AUTH_MODE: "none", HOSTNAME: h })).not.toThrow();
    }
    for (const h of ["0.0.0.0", "::", "crows-nest-web-5d8f7", "10.0.0.4", "localhost.example.com"]) {
      expect(isLoopbackHost(h)).toBe(false);
      expect(() => assertSafeAuthConfig({ ...oidc, AUTH_MODE: "none", HOSTNAME: h })).toThrow(
        /AUTH_MODE=none is allowed only when the server listens on localhost/,
      );
    }
  });
  it("names every missing OIDC setting", () => {
    expect(() => assertSafeAuthConfig(oidc)).not.toThrow();
    const err = (() => {
      try {
        assertSafeAuthConfig({ ...oidc, OIDC_ISSUER: undefined, SESSION_SECRET: undefined });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain("OIDC_ISSUER, SESSION_SECRET");
  });
});
