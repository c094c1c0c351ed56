import { describe, expect, it } from "vitest";
import { csrfToken, csrfTokenMatches, sameOrigin } from "./csrf";
import { openSession, seal, sealSession, unseal, type Session } from "./session";

const secret = "a-session-secret-that-is-long-enough-1234";
const session: Session = {
  sid: "sid-123456789",
  sub: "https://idp#u1",
  name: "U One",
  role: "operator",
  expiresAt: Math.floor(Date.now() / 1000) + 600,
};

describe("session cookie", () => {
  it("round-trips and hides its content", async () => {
    const token = await sealSession(session, secret);
    expect(token).not.toContain("U One");
    expect(Buffer.from(token.split(".")[3] ?? "", "base64url").toString()).not.toContain("operator");
    expect(await openSession(token, secret)).toEqual(session);
  });
  it("rejects another secret, a tampered token and an expired one", async () => {
    const token = await sealSession(session, secret);
    expect(await openSession(token, `${secret}x`)).toBeNull();
    const parts = token.split(".");
    parts[3] = `${parts[3].slice(0, -2)}${parts[3].endsWith("AA") ? "BB" : "AA"}`;
    expect(await openSession(parts.join("."), secret)).toBeNull();
    expect(await openSession(token, secret, new Date((session.expiresAt + 120) * 1000))).toBeNull();
    expect(await openSession(undefined, secret)).toBeNull();
  });
  it("keeps purposes apart: an OIDC transaction is no session", async () => {
    const tx = await seal({ ...session }, secret, "oidc-transaction", session.expiresAt);
    expect(await openSession(tx, secret)).toBeNull();
    expect(await unseal(tx, secret, "oidc-transaction")).toMatchObject({ sid: session.sid });
  });
});

describe("CSRF", () => {
  it("binds the token to the session id", () => {
    const token = csrfToken("sid-a", secret);
    expect(csrfTokenMatches("sid-a", secret, token)).toBe(true);
    expect(csrfTokenMatches("sid-b", secret, token)).toBe(false);
    expect(csrfTokenMatches("sid-a", secret, undefined)).toBe(false);
    expect(csrfTokenMatches("sid-a", secret, `${token}x`)).toBe(false);
  });
  it("accepts only our own origin", () => {
    const direct = { trustProxy: 0 };
    const h = (o: Record<string, string>) => new Headers(o);
    expect(sameOrigin(h({ origin: "http://localhost:3000", host: "localhost:3000" }), "http://localhost:3000/api/actions", direct)).toBe(
      true,
    );
    expect(sameOrigin(h({ origin: "https://evil.example", host: "localhost:3000" }), "http://localhost:3000/api/actions", direct)).toBe(
      false,
    );
    expect(sameOrigin(h({ host: "localhost:3000" }), "http://localhost:3000/api/actions", direct)).toBe(false);
    expect(
      sameOrigin(h({ origin: "https://cn.example.com", host: "10.0.0.5:3000" }), "http://10.0.0.5:3000/x", {
        ...direct,
        publicOrigin: "https://cn.example.com",
      }),
    ).toBe(true);
  });
});
