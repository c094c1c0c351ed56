import { describe, expect, it } from "vitest";
import { accessFor, allowed, maxBodyBytes, rateLimitBucket } from "./access";

const open = { metricsPublic: true, publicFiles: new Set(["/favicon.svg", "/robots.txt"]) };

describe("accessFor", () => {
  it("leaves health, sign-in and the signed webhook public", () => {
    for (const p of ["/api/health", "/auth/signin", "/auth/login", "/auth/callback", "/api/webhooks/flux"])
      expect(accessFor(p, open)).toEqual({ kind: "public" });
  });
  it("needs a session for every page and API, and admin for the audit log", () => {
    expect(accessFor("/", open)).toEqual({ kind: "session", minimum: "viewer", api: false });
    expect(accessFor("/clusters/a/kustomization/ns/n", open)).toMatchObject({ minimum: "viewer", api: false });
    expect(accessFor("/api/freshness", open)).toMatchObject({ minimum: "viewer", api: true });
    expect(accessFor("/api/actions", open)).toMatchObject({ minimum: "viewer", api: true });
    expect(accessFor("/audit", open)).toMatchObject({ minimum: "admin" });
    expect(accessFor("/auditing", open)).toMatchObject({ minimum: "viewer" });
    expect(accessFor("/api/healthz", open)).toMatchObject({ kind: "session" });
  });
  it("leaves public files open by exact path only, never by what a path ends with", () => {
    expect(accessFor("/favicon.svg", open)).toEqual({ kind: "public" });
    expect(accessFor("/robots.txt", open)).toEqual({ kind: "public" });
    for (const p of [
      "/api/objects/prod/kustomization/apps/payments.txt",
      "/clusters/prod/kustomization/apps/payments.txt",
      "/clusters/prod/helmrelease/apps/logo.svg",
      "/clusters/favicon.svg",
      "/robots.txt/x",
      "/favicon.ico",
    ]) {
      expect(accessFor(p, open), p).toMatchObject({ kind: "session" });
    }
  });
  it("makes /metrics public only when configured", () => {
    expect(accessFor("/metrics", open)).toEqual({ kind: "public" });
    expect(accessFor("/metrics", { ...open, metricsPublic: false })).toMatchObject({ kind: "session" });
  });
  it("checks roles", () => {
    const audit = accessFor("/audit", open);
    expect(allowed(audit, "operator")).toBe(false);
    expect(allowed(audit, "admin")).toBe(true);
    expect(allowed(accessFor("/", open), undefined)).toBe(false);
  });
});

it("rate-limits sign-in and the webhook only, and caps bodies per path", () => {
  expect(rateLimitBucket("/auth/login")).toBe("sign-in");
  expect(rateLimitBucket("/auth/callback")).toBe("sign-in");
  expect(rateLimitBucket("/api/webhooks/flux")).toBe("webhook");
  expect(rateLimitBucket("/clusters")).toBeNull();
  expect(maxBodyBytes("/api/webhooks/flux", 65_536)).toBe(65_536);
  expect(maxBodyBytes("/api/actions", 65_536)).toBe(16_384);
});
