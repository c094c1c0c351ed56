import { describe, expect, it } from "vitest";
import { sameOrigin } from "./csrf";

const url = "http://127.0.0.1:3000/api/actions";
const h = (init: Record<string, string>) => new Headers(init);

describe("sameOrigin", () => {
  it("accepts our own origin: the Host the browser used, or PUBLIC_URL's", () => {
    expect(sameOrigin(h({ origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }), url, { trustProxy: 0 })).toBe(true);
    const viaIngress = h({ origin: "https://cn.example.com", host: "crows-nest-web:3000" });
    expect(sameOrigin(viaIngress, url, { trustProxy: 0, publicOrigin: "https://cn.example.com" })).toBe(true);
  });

  it("refuses a foreign, missing or opaque Origin", () => {
    for (const origin of ["https://evil.example", "null", ""]) {
      expect(sameOrigin(h({ origin, host: "127.0.0.1:3000" }), url, { trustProxy: 0 })).toBe(false);
    }
    expect(sameOrigin(h({ host: "127.0.0.1:3000" }), url, { trustProxy: 0 })).toBe(false);
  });

  it("trusts X-Forwarded-Host only when a proxy is configured", () => {
    const forged = h({
      origin: "https://evil.example",
      host: "127.0.0.1:3000",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
    });
    expect(sameOrigin(forged, url, { trustProxy: 0 })).toBe(false);
    expect(sameOrigin(forged, url, { trustProxy: 0, publicOrigin: "https://cn.example.com" })).toBe(false);
    expect(sameOrigin(forged, url, { trustProxy: 1 })).toBe(true);
  });
});
