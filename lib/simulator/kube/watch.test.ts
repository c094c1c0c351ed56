// Watch and connection fidelity against what a real kube-apiserver 1.26 does (bodies and behaviour
// recorded from one): HTTP/2 by ALPN, too-old answers from the watch cache and from etcd, bookmarks,
// timeouts, and the faults that make a client fall back to polling.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http2 from "node:http2";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../index";
import { createTestFleet, readFixture } from "./testing";

const KS_PATH = "/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations";
const EVENTS_PATH = "/api/v1/events";

let sim: RunningSimulator;
let quiet: RunningSimulator;
const dirs: string[] = [];

async function start(bookmarkIntervalMs: number) {
  const outDir = mkdtempSync(join(tmpdir(), "sim-watch-"));
  dirs.push(outDir);
  return startSimulator({
    outDir,
    model: createTestFleet({ spokes: 2, extraKustomizations: 3 }),
    aws: false,
    speed: 0,
    bookmarkIntervalMs,
  });
}

beforeAll(async () => {
  sim = await start(200);
  // Bookmarks rarely, so the one before a watch's deadline stands out.
  quiet = await start(60_000);
});

afterEach(async () => {
  for (const cluster of sim.clusters) await sim.setFault(cluster.name, {});
});

afterAll(async () => {
  await sim?.stop();
  await quiet?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const info = (fleet: RunningSimulator, cluster: string) => fleet.clusters.find((candidate) => candidate.name === cluster)!;

interface Timed {
  status: number;
  lines: { at: number; text: string; json: { type: string; object: Record<string, unknown> } }[];
  endedAfterMs: number;
  how: "end" | "error";
  error?: string;
}

/** A request over HTTP/1.1; watch lines with the time they arrived. Resolves when the server ends or cuts it. */
function get(cluster: string, path: string, fleet = sim): Promise<Timed> {
  const endpoint = info(fleet, cluster);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      new URL(path, endpoint.endpoint),
      { ca: Buffer.from(endpoint.caData, "base64"), headers: { Authorization: `Bearer ${fleet.tokens.admin}` }, agent: false },
      (response) => {
        const result: Timed = { status: response.statusCode ?? 0, lines: [], endedAfterMs: 0, how: "end" };
        let buffer = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          buffer += chunk;
          let at = buffer.indexOf("\n");
          while (at >= 0) {
            const line = buffer.slice(0, at);
            buffer = buffer.slice(at + 1);
            if (line.trim()) result.lines.push({ at: Date.now() - started, text: line.trim(), json: JSON.parse(line) });
            at = buffer.indexOf("\n");
          }
        });
        const finish = (how: "end" | "error", error?: Error) => {
          result.endedAfterMs = Date.now() - started;
          result.how = how;
          result.error = error?.message;
          if (buffer.trim() && response.statusCode !== 200) result.lines.push({ at: 0, text: buffer.trim(), json: JSON.parse(buffer) });
          resolve(result);
        };
        response.on("end", () => finish("end"));
        response.on("error", (error) => finish("error", error));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

const store = (cluster: string, fleet = sim) => fleet.runtime.handle(cluster).store;
const ksType = (cluster: string) => store(cluster).registry.lookup("kustomize.toolkit.fluxcd.io", "v1", "kustomizations")!;
const touch = (cluster: string, name: string, note: string, fleet = sim) =>
  store(cluster, fleet).write(ksType(cluster), "flux-system", name, undefined, (object) => ({
    ...object,
    metadata: { ...object.metadata, annotations: { note } },
  })).version.rv;

describe("HTTP/2 like kube-apiserver", () => {
  it("negotiates h2 by ALPN with kube-apiserver's SETTINGS and still speaks HTTP/1.1", async () => {
    const endpoint = info(sim, "spoke-1");
    const session = http2.connect(endpoint.endpoint, { ca: Buffer.from(endpoint.caData, "base64") });
    const settings = await new Promise<http2.Settings>((resolve) => session.once("remoteSettings", resolve));
    expect(settings).toMatchObject({ maxConcurrentStreams: 100, initialWindowSize: 262_144, maxFrameSize: 262_144 });
    const status = await new Promise<number>((resolve, reject) => {
      const stream = session.request({ ":path": "/version" });
      stream.on("response", (headers) => resolve(Number(headers[":status"])));
      stream.on("error", reject);
      stream.resume();
    });
    expect(status).toBe(200);
    session.close();
    expect((await get("spoke-1", "/version")).status).toBe(200);
  });

  it("offers only HTTP/1.1 behind the http1only fault", async () => {
    await sim.setFault("spoke-1", { http1Only: true });
    const endpoint = info(sim, "spoke-1");
    const url = new URL(endpoint.endpoint);
    const alpn = await new Promise<string | false | null>((resolve, reject) => {
      const socket = tls.connect({
        host: url.hostname,
        port: Number(url.port),
        ca: Buffer.from(endpoint.caData, "base64"),
        ALPNProtocols: ["h2", "http/1.1"],
      });
      socket.once("secureConnect", () => {
        resolve(socket.alpnProtocol);
        socket.destroy();
      });
      socket.once("error", reject);
    });
    expect(alpn).toBe("http/1.1");
  });

  it("serves kubectl over h2, lists and watches alike", async () => {
    const before = sim.runtime.handle("hub").server.connections.h2;
    const run = promisify(execFile);
    const kubectl = (...args: string[]) =>
      run("kubectl", ["--kubeconfig", sim.hubKubeconfigPath, "--cache-dir", join(dirs[0], "kube-cache"), ...args], { timeout: 20_000 });
    const listed = await kubectl("get", "secrets", "-n", "crossplane-system", "-o", "name");
    expect(listed.stdout).toContain("secret/spoke-1-conn");
    const watched = await kubectl("get", "clusters.eks.aws.crossplane.io", "--watch", "--request-timeout=2s", "-o", "name").catch(
      (error: { stdout: string }) => error,
    );
    expect(watched.stdout).toContain("cluster.eks.aws.crossplane.io/spoke-1");
    expect(sim.runtime.handle("hub").server.connections.h2).toBeGreaterThan(before);
  });
});

describe("too old resourceVersions", () => {
  it("answers from the watch cache: 200, one ERROR line with the oldest resourceVersion it holds, end of stream", async () => {
    const old = store("spoke-1").resourceVersion;
    touch("spoke-1", "apps", "before-restart");
    sim.restartApiServer("spoke-1");
    const validFrom = store("spoke-1").resourceVersion;
    const answer = await get("spoke-1", `${KS_PATH}?watch=1&resourceVersion=${old}`);
    expect(answer.status).toBe(200);
    expect(answer.how).toBe("end");
    expect(answer.lines.map((line) => line.json)).toEqual([
      {
        type: "ERROR",
        object: {
          kind: "Status",
          apiVersion: "v1",
          metadata: {},
          status: "Failure",
          message: `too old resource version: ${old} (${validFrom})`,
          reason: "Expired",
          code: 410,
        },
      },
    ]);
    expect(Object.keys(answer.lines[0].json.object)).toEqual(
      Object.keys(JSON.parse(readFixture("21b-watch-too-old-resourceversion").body).object),
    );
    // From the restart on, watches resume again.
    const rv = touch("spoke-1", "apps", "after-restart");
    const resumed = await get("spoke-1", `${KS_PATH}?watch=1&resourceVersion=${validFrom}&timeoutSeconds=1`);
    expect(
      resumed.lines.map((line) => [line.json.type, (line.json.object.metadata as { resourceVersion: string }).resourceVersion]),
    ).toEqual([["MODIFIED", String(rv)]]);
  });

  it("answers Events from etcd: too old once compaction passed the resourceVersion, with etcd's message", async () => {
    const before = store("spoke-2").resourceVersion;
    const replayed = await get("spoke-2", `${EVENTS_PATH}?watch=1&resourceVersion=${before - 1}&timeoutSeconds=1`);
    expect(replayed.lines.every((line) => line.json.type !== "ERROR")).toBe(true);
    touch("spoke-2", "apps", "compaction");
    store("spoke-2").compact();
    const answer = await get("spoke-2", `${EVENTS_PATH}?watch=1&resourceVersion=${before}`);
    expect(answer.status).toBe(200);
    expect(answer.lines.map((line) => JSON.stringify(line.json))).toEqual([
      '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"The resourceVersion for the provided watch is too old.","reason":"Expired","code":410}}',
    ]);
  });

  it("still replays a resourceVersion etcd compacted but the watch cache holds", async () => {
    const from = store("spoke-2").resourceVersion;
    const rv = touch("spoke-2", "infrastructure", "compacted-but-cached");
    store("spoke-2").compact();
    const answer = await get("spoke-2", `${KS_PATH}?watch=1&resourceVersion=${from}&timeoutSeconds=1`);
    expect(answer.lines.map((line) => line.json.type)).toEqual(["MODIFIED"]);
    expect((answer.lines[0].json.object.metadata as { resourceVersion: string }).resourceVersion).toBe(String(rv));
  });
  it("keeps etcd's revision moving with background writes, so compaction overtakes a quiet Event watch", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "sim-leases-"));
    dirs.push(outDir);
    const busy = await startSimulator({
      outDir,
      model: createTestFleet({ spokes: 1 }),
      aws: false,
      speed: 0,
      backgroundWriteIntervalMs: 20,
      compactionIntervalMs: 200,
    });
    try {
      await busy.warmedUp;
      const from = store("spoke-1", busy).resourceVersion;
      const replayed = await get("spoke-1", `${EVENTS_PATH}?watch=1&resourceVersion=${from}&timeoutSeconds=1`, busy);
      expect(replayed.lines).toEqual([]); // nothing changed, nothing too old yet
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(store("spoke-1", busy).resourceVersion).toBeGreaterThan(from + 10);
      const answer = await get("spoke-1", `${EVENTS_PATH}?watch=1&resourceVersion=${from}`, busy);
      expect(answer.lines.map((line) => line.json.object.message)).toEqual(["The resourceVersion for the provided watch is too old."]);
      // The cached kinds do not care: nothing of theirs changed, the watch cache still serves `from`.
      const cached = await get("spoke-1", `${KS_PATH}?watch=1&resourceVersion=${from}&timeoutSeconds=1`, busy);
      expect(cached.lines).toEqual([]);
    } finally {
      await busy.stop();
    }
  });
});

describe("bookmarks", () => {
  it("carry apiVersion, kind and the resource's last change, only when asked for", async () => {
    const rv = touch("spoke-1", "apps", "bookmarked");
    // Another resource changes after it: the bookmark stays at this resource's last change.
    store("spoke-1").write(store("spoke-1").registry.lookup("", "v1", "namespaces")!, undefined, "flux-system", undefined, (object) => ({
      ...object,
      metadata: { ...object.metadata, labels: { ...object.metadata.labels, bump: "1" } },
    }));
    expect(store("spoke-1").resourceVersion).toBeGreaterThan(rv);
    const from = store("spoke-1").resourceVersion;
    const answer = await get("spoke-1", `${KS_PATH}?watch=1&allowWatchBookmarks=true&resourceVersion=${from}&timeoutSeconds=1`);
    const bookmarks = answer.lines.filter((line) => line.json.type === "BOOKMARK");
    expect(bookmarks.length).toBeGreaterThan(0);
    // Byte for byte as kube-apiserver 1.26 wrote one (recorded): an unstructured object, keys sorted.
    expect(bookmarks[0].text).toBe(
      `{"type":"BOOKMARK","object":{"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"resourceVersion":"${rv}"}}}`,
    );
    const without = await get("spoke-1", `${KS_PATH}?watch=1&resourceVersion=${from}&timeoutSeconds=1`);
    expect(without.lines).toEqual([]);
  });

  it("never come on Event watches, nor for a resource unchanged since the API server started", async () => {
    const from = store("spoke-2").resourceVersion;
    const events = await get("spoke-2", `${EVENTS_PATH}?watch=1&allowWatchBookmarks=true&resourceVersion=${from}&timeoutSeconds=1`);
    expect(events.lines).toEqual([]);
    sim.restartApiServer("spoke-2");
    const quietKs = await get("spoke-2", `${KS_PATH}?watch=1&allowWatchBookmarks=true&resourceVersion=${from}&timeoutSeconds=1`);
    expect(quietKs.lines).toEqual([]);
  });

  it("come once 2 s before the deadline, and timeoutSeconds ends the stream cleanly", async () => {
    touch("spoke-1", "apps", "deadline", quiet);
    const from = store("spoke-1", quiet).resourceVersion;
    const answer = await get("spoke-1", `${KS_PATH}?watch=1&allowWatchBookmarks=true&resourceVersion=${from}&timeoutSeconds=3`, quiet);
    expect(answer.how).toBe("end");
    expect(answer.endedAfterMs).toBeGreaterThanOrEqual(2_900);
    expect(answer.lines.map((line) => line.json.type)).toEqual(["BOOKMARK"]);
    expect(answer.lines[0].at).toBeGreaterThanOrEqual(900);
    expect(answer.lines[0].at).toBeLessThan(2_500);
  });
});

describe("faults that make a client poll", () => {
  it("cut: a request still open after N seconds is cut off, a short one is not", async () => {
    await sim.setFault("spoke-1", { cutAfterSeconds: 1 });
    const from = store("spoke-1").resourceVersion;
    const watch = await get("spoke-1", `${KS_PATH}?watch=1&resourceVersion=${from}&timeoutSeconds=30`);
    expect(watch.status).toBe(200);
    expect(watch.how).toBe("error");
    expect(watch.endedAfterMs).toBeGreaterThanOrEqual(900);
    expect(watch.endedAfterMs).toBeLessThan(5_000);
    expect((await get("spoke-1", KS_PATH)).status).toBe(200);
  });

  it("nowatch: 405 MethodNotAllowed, or 200 ended at once; lists still answer", async () => {
    await sim.setFault("spoke-2", { noWatch: "405" });
    const refused = await get("spoke-2", `${KS_PATH}?watch=1`);
    expect(refused.status).toBe(405);
    expect(refused.lines[0].json).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "the server does not allow this method on the requested resource",
      reason: "MethodNotAllowed",
      details: {},
      code: 405,
    });
    await sim.setFault("spoke-2", { noWatch: "empty" });
    const empty = await get("spoke-2", `${KS_PATH}?watch=1&timeoutSeconds=30`);
    expect([empty.status, empty.how, empty.lines.length]).toEqual([200, "end", 0]);
    expect(empty.endedAfterMs).toBeLessThan(1_000);
    expect((await get("spoke-2", KS_PATH)).status).toBe(200);
  });
});
