import { describe, expect, it } from "vitest";
import { readFixture } from "./fixtures";
import { backoffMs, classifyHttpError, classifyNetworkError, jsonOrError, parseRetryAfter } from "./errors";

describe("error classification", () => {
  it("classifies HTTP statuses from recorded API server answers", () => {
    const expired = readFixture("08-list-continue-expired.http");
    const e410 = classifyHttpError(expired.status, expired.body);
    expect(e410).toMatchObject({ kind: "http", status: 410, reason: "Expired" });
    expect(e410.message).toContain("continue parameter is too old");
    const forbidden = readFixture("16-viewer-list-403.http");
    expect(classifyHttpError(forbidden.status, forbidden.body)).toMatchObject({ kind: "auth", status: 403, reason: "Forbidden" });
    expect(classifyHttpError(401, undefined)).toMatchObject({ kind: "auth", status: 401 });
    expect(classifyHttpError(503, {}).retryable).toBe(true);
    expect(classifyHttpError(429, {}, "3")).toMatchObject({ retryAfterSeconds: 3, retryable: true });
    expect(classifyHttpError(404, {}).retryable).toBe(false);
  });

  it("reads a whole response as its JSON or the error it means", () => {
    expect(jsonOrError(200, '{"kind":"List"}')).toEqual({ ok: true, value: { kind: "List" } });
    const truncated = jsonOrError(200, '{"kind":"Li');
    expect(!truncated.ok && truncated.error.message).toBe("invalid JSON in a 200 response (11 bytes, truncated?)");
    const expired = readFixture("08-list-continue-expired.http");
    const gone = jsonOrError(expired.status, JSON.stringify(expired.body), null);
    expect(!gone.ok && gone.error).toMatchObject({ status: 410, reason: "Expired" });
  });

  it("classifies network errors by code", () => {
    expect(classifyNetworkError(Object.assign(new Error("x"), { code: "ECONNREFUSED" })).kind).toBe("refused");
    expect(classifyNetworkError(Object.assign(new Error("x"), { code: "ENOTFOUND" })).kind).toBe("dns");
    expect(classifyNetworkError(Object.assign(new Error("x"), { code: "ETIMEDOUT" })).kind).toBe("timeout");
    expect(classifyNetworkError(Object.assign(new Error("self-signed certificate"), { code: "DEPTH_ZERO_SELF_SIGNED_CERT" })).kind).toBe(
      "tls",
    );
  });

  it("honours Retry-After and otherwise backs off exponentially with jitter", () => {
    expect(parseRetryAfter("2")).toBe(2);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 5_000)).toBe(5);
    expect(backoffMs(0, 2)).toBe(2000);
    expect(backoffMs(3, undefined, () => 0)).toBe(800);
    expect(backoffMs(3, undefined, () => 1)).toBe(1600);
    expect(backoffMs(20, undefined, () => 1)).toBe(5000);
  });
});
