import { X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, get } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createClusterCa, createClusterTls, issueServerCertificate, loadOrCreateClusterCas } from "./tls";

describe("cluster TLS", () => {
  it("issues a server certificate for 127.0.0.1 and localhost signed by the cluster's own CA", () => {
    const tls = createClusterTls("spoke-1");
    const ca = new X509Certificate(tls.caPem);
    const server = new X509Certificate(tls.certPem);
    expect(ca.ca).toBe(true);
    expect(ca.subject).toBe("CN=spoke-1-ca");
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.subjectAltName).toBe("IP Address:127.0.0.1, DNS:localhost");
    expect(server.checkIssued(new X509Certificate(createClusterTls("spoke-2").caPem))).toBe(false);
  });

  it("issues server certificates later from a stored CA", () => {
    const ca = createClusterCa("spoke-3");
    const server = new X509Certificate(issueServerCertificate("spoke-3", ca).certPem);
    expect(server.checkIssued(new X509Certificate(ca.caPem))).toBe(true);
    expect(server.verify(new X509Certificate(ca.caPem).publicKey)).toBe(true);
  });

  it("always encodes valid DER (serials with leading zero bytes included)", () => {
    for (let i = 0; i < 300; i++) expect(() => new X509Certificate(createClusterTls(`c${i}`).certPem)).not.toThrow();
  });

  it("serves HTTPS that a client trusting only that CA accepts", async () => {
    const tls = createClusterTls("hub");
    const server = createServer({ key: tls.keyPem, cert: tls.certPem }, (_request, response) => response.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const body = await new Promise<string>((resolve, reject) => {
      get({ host: "127.0.0.1", port, ca: tls.caPem }, (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve(text));
      }).on("error", reject);
    });
    server.close();
    expect(body).toBe("ok");
  });

  it("keeps CAs in the out dir so a restart reuses them", () => {
    const dir = mkdtempSync(join(tmpdir(), "sim-tls-"));
    try {
      const first = loadOrCreateClusterCas(dir, ["hub", "spoke-1"]);
      const second = loadOrCreateClusterCas(dir, ["hub", "spoke-1", "spoke-2"]);
      expect(second.get("hub")).toEqual(first.get("hub"));
      expect(second.get("spoke-2")?.caPem).toContain("BEGIN CERTIFICATE");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
