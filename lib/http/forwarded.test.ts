import { describe, expect, it } from "vitest";
import { clientAddress, PEER_HEADER, requestOrigin } from "./forwarded";

const h = (init: Record<string, string>) => new Headers(init);

describe("clientAddress", () => {
  it("without a trusted proxy, is the socket address whatever X-Forwarded-For says", () => {
    expect(clientAddress(h({ [PEER_HEADER]: "203.0.113.9", "x-forwarded-for": "198.51.100.1" }), 0)).toBe("203.0.113.9");
    expect(clientAddress(h({ [PEER_HEADER]: "203.0.113.9", "x-real-ip": "198.51.100.1" }), 0)).toBe("203.0.113.9");
    expect(clientAddress(h({ [PEER_HEADER]: "::ffff:127.0.0.1" }), 0)).toBe("127.0.0.1");
  });

  it("is one shared key when the socket address is unknown, never a header the client chose", () => {
    expect(clientAddress(h({ "x-forwarded-for": "198.51.100.1" }), 0)).toBe("unknown");
    expect(clientAddress(h({}), 0)).toBe("unknown");
  });

  it("with N trusted hops, is the address the N-th proxy from the server saw", () => {
    const chain = { [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.1" };
    expect(clientAddress(h(chain), 1)).toBe("10.0.0.1");
    expect(clientAddress(h(chain), 2)).toBe("203.0.113.9");
    expect(clientAddress(h(chain), 3)).toBe("6.6.6.6");
    // More hops trusted than the header has: the leftmost address, as far as anyone can tell.
    expect(clientAddress(h(chain), 9)).toBe("6.6.6.6");
    // The proxy added nothing: the socket itself.
    expect(clientAddress(h({ [PEER_HEADER]: "10.0.0.2" }), 1)).toBe("10.0.0.2");
  });

  it("a client cannot pick its bucket behind one trusted proxy by sending its own header", () => {
    // The ingress appends what it saw to whatever the client sent.
    const keys = ["1.1.1.1", "2.2.2.2", "3.3.3.3"].map((spoof) =>
      clientAddress(h({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": `${spoof}, 203.0.113.9` }), 1),
    );
    expect(new Set(keys)).toEqual(new Set(["203.0.113.9"]));
  });
});

describe("requestOrigin", () => {
  const url = "http://0.0.0.0:3000/api/actions";
  it("reads Host, and forwarded headers only from a trusted proxy", () => {
    const forged = h({ host: "crows-nest.internal:3000", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" });
    expect(requestOrigin(forged, url, 0)).toBe("http://crows-nest.internal:3000");
    expect(requestOrigin(forged, url, 1)).toBe("https://evil.example");
    expect(requestOrigin(h({ host: "crows-nest.internal" }), url, 1)).toBe("http://crows-nest.internal");
    expect(requestOrigin(h({}), url, 0)).toBeNull();
  });
});
