// Per-cluster certificate authorities for the simulator's API servers.
//
// Each simulated cluster gets its own EC P-256 CA and a server certificate for 127.0.0.1/localhost, the
// way every EKS cluster has its own CA. Only the CAs are kept (kubeconfigs pin them); server
// certificates are issued when a cluster takes its first connection. Certificates are assembled in DER by hand (a few ASN.1 shapes)
// and signed with node:crypto: this is synchronous and takes well under a millisecond per certificate, so
// a thousand clusters start in about a second without any dependency.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ClusterTls {
  caPem: string;
  caKeyPem: string;
  certPem: string;
  keyPem: string;
}

// --- minimal DER encoder -------------------------------------------------------------------------

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const octetString = (content: Buffer) => tlv(0x04, content);
const bitString = (content: Buffer, unusedBits = 0) => tlv(0x03, Buffer.from([unusedBits]), content);
const derTrue = () => tlv(0x01, Buffer.from([0xff]));

/** DER INTEGER: minimal (no leading zero bytes) and positive (a zero byte before a set high bit). */
function positiveInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const minimal = bytes.subarray(start);
  const content = minimal[0] & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal;
  return tlv(0x02, content);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  const bytes: number[] = [parts[0] * 40 + parts[1]];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let n = part >> 7; n > 0; n >>= 7) chunk.unshift((n & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const text = iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16) + iso.slice(17, 19) + "Z";
  return tlv(0x17, Buffer.from(text, "ascii"));
}

function commonName(cn: string): Buffer {
  return sequence(set(sequence(oid("2.5.4.3"), tlv(0x0c, Buffer.from(cn, "utf8")))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), derTrue(), octetString(value)) : sequence(oid(id), octetString(value));
}

const ECDSA_WITH_SHA256 = sequence(oid("1.2.840.10045.4.3.2"));

const keyId = (spki: Buffer) => createHash("sha1").update(spki).digest();

interface CertificateInput {
  subject: string;
  issuer: string;
  /** SubjectPublicKeyInfo, DER. */
  publicKey: Buffer;
  signingKey: KeyObject;
  extensions: Buffer[];
  notBefore: Date;
  notAfter: Date;
}

function certificate(input: CertificateInput): string {
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  const tbs = sequence(
    tlv(0xa0, positiveInteger(Buffer.from([2]))), // v3
    positiveInteger(serial),
    ECDSA_WITH_SHA256,
    commonName(input.issuer),
    sequence(utcTime(input.notBefore), utcTime(input.notAfter)),
    commonName(input.subject),
    input.publicKey,
    tlv(0xa3, sequence(...input.extensions)),
  );
  const signature = sign("sha256", tbs, input.signingKey);
  const der = sequence(tbs, ECDSA_WITH_SHA256, bitString(signature));
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

export interface ClusterCa {
  caPem: string;
  caKeyPem: string;
}

const YEAR = 365 * 24 * 60 * 60 * 1000;
const SERVER_NAME = "kube-apiserver";

function validity(now: Date) {
  return { notBefore: new Date(now.getTime() - 60 * 60 * 1000), notAfter: new Date(now.getTime() + 10 * YEAR) };
}

function createCa(clusterName: string, now: Date): ClusterCa & { key: KeyObject; spki: Buffer } {
  const ca = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const caName = `${clusterName}-ca`;
  const spki = ca.publicKey.export({ type: "spki", format: "der" });
  const caPem = certificate({
    subject: caName,
    issuer: caName,
    publicKey: spki,
    signingKey: ca.privateKey,
    ...validity(now),
    extensions: [
      extension("2.5.29.15", true, bitString(Buffer.from([0x86]), 1)), // digitalSignature, keyCertSign, cRLSign
      extension("2.5.29.19", true, sequence(derTrue())), // CA:TRUE
      extension("2.5.29.14", false, octetString(keyId(spki))),
    ],
  });
  return { caPem, caKeyPem: ca.privateKey.export({ type: "sec1", format: "pem" }).toString(), key: ca.privateKey, spki };
}

function issueServer(clusterName: string, caKey: KeyObject, caSpki: Buffer, now: Date): { certPem: string; keyPem: string } {
  const server = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const certPem = certificate({
    subject: SERVER_NAME,
    issuer: `${clusterName}-ca`,
    publicKey: server.publicKey.export({ type: "spki", format: "der" }),
    signingKey: caKey,
    ...validity(now),
    extensions: [
      extension("2.5.29.15", true, bitString(Buffer.from([0x80]), 7)), // digitalSignature
      extension("2.5.29.37", false, sequence(oid("1.3.6.1.5.5.7.3.1"))), // serverAuth
      extension("2.5.29.35", false, sequence(tlv(0x80, keyId(caSpki)))),
      extension("2.5.29.17", false, sequence(tlv(0x87, Buffer.from([127, 0, 0, 1])), tlv(0x82, Buffer.from("localhost", "ascii")))),
    ],
  });
  return { certPem, keyPem: server.privateKey.export({ type: "sec1", format: "pem" }).toString() };
}

/** A fresh CA for a cluster (only the CA is pinned by kubeconfigs; server certificates are issued on demand). */
export function createClusterCa(clusterName: string, now = new Date()): ClusterCa {
  const { caPem, caKeyPem } = createCa(clusterName, now);
  return { caPem, caKeyPem };
}

/** A server certificate valid for https://127.0.0.1 and https://localhost, signed by the cluster's CA. */
export function issueServerCertificate(clusterName: string, ca: ClusterCa, now = new Date()): { certPem: string; keyPem: string } {
  const key = createPrivateKey(ca.caKeyPem);
  return issueServer(clusterName, key, createPublicKey(key).export({ type: "spki", format: "der" }), now);
}

/** A fresh CA plus a server certificate valid for https://127.0.0.1 and https://localhost. */
export function createClusterTls(clusterName: string, now = new Date()): ClusterTls {
  const ca = createCa(clusterName, now);
  return { caPem: ca.caPem, caKeyPem: ca.caKeyPem, ...issueServer(clusterName, ca.key, ca.spki, now) };
}

/** Bumped whenever certificates from older files must not be reused. */
const TLS_FILE_FORMAT = 3;

interface TlsFile {
  format: number;
  clusters: Record<string, ClusterCa>;
}

/**
 * Loads the CAs kept in `outDir/tls.json` and creates the missing ones, so a restarted simulator keeps
 * every kubeconfig it wrote valid. The file holds private keys: mode 0600.
 */
export function loadOrCreateClusterCas(outDir: string, clusterNames: string[]): Map<string, ClusterCa> {
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, "tls.json");
  const file = existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Partial<TlsFile>) : undefined;
  // Parsing a thousand certificates to check them costs seconds: trust files this generator wrote.
  const stored: Record<string, ClusterCa> = file?.format === TLS_FILE_FORMAT && file.clusters ? file.clusters : {};
  const result = new Map<string, ClusterCa>();
  let created = 0;
  for (const name of clusterNames) {
    let tls: ClusterCa | undefined = stored[name];
    if (!tls) {
      tls = createClusterCa(name);
      stored[name] = tls;
      created++;
    }
    result.set(name, tls);
  }
  if (created > 0) {
    const updated: TlsFile = { format: TLS_FILE_FORMAT, clusters: stored };
    writeFileSync(path, JSON.stringify(updated), { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return result;
}
