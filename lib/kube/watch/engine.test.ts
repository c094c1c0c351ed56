// The watch engine against the fleet simulator over real HTTPS, on HTTP/2 and on HTTP/1.1.
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../simulator/index";
import { createTestFleet } from "../../simulator/kube/testing";
import { fromParts } from "../kubeconfig";
import { Activity } from "../../collector/idle-reads";
import { ClusterTransport } from "./transport";
import { createWatchEngine, type WatchEngine, type WatchEngineOptions, type WatchEvent, type WatchResource } from "./engine";
import { clusterWatchResources } from "./resources";

const KS = { group: "kustomize.toolkit.fluxcd.io", version: "v1", plural: "kustomizations" };
const KUSTOMIZATIONS: WatchResource = { ...KS, kind: "Kustomization" };
const EVENTS: WatchResource = {
  group: "",
  version: "v1",
  plural: "events",
  kind: "Event",
  fieldSelector: "involvedObject.kind=Kustomization",
};
const ALL_KINDS = clusterWatchResources();

let sim: RunningSimulator;
let outDir: string;
const engines: WatchEngine[] = [];

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "watch-engine-"));
  // Frozen simulated time: the fleet changes only when a test changes it.
  sim = await startSimulator({
    outDir,
    model: createTestFleet({ spokes: 3, extraKustomizations: 12 }),
    aws: false,
    speed: 0,
    bookmarkIntervalMs: 150,
  });
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
  for (const cluster of sim.clusters) await sim.setFault(cluster.name, {});
});

afterAll(async () => {
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

const clusterInfo = (cluster: string) => sim.clusters.find((candidate) => candidate.name === cluster)!;

const kubeConfigFor = (cluster: string) => {
  const info = clusterInfo(cluster);
  return fromParts({ name: cluster, server: info.endpoint, caData: info.caData, token: sim.tokens.admin });
};

const api = (cluster: string) => kubeConfigFor(cluster).makeApiClient(CustomObjectsApi);

interface Seen {
  events: WatchEvent[];
  fallbacks: Parameters<NonNullable<WatchEngineOptions["onFallback"]>>[0][];
}

function watch(
  cluster: string,
  resources: WatchResource[],
  options: Partial<WatchEngineOptions> = {},
): { engine: WatchEngine; seen: Seen } {
  const seen: Seen = { events: [], fallbacks: [] };
  const engine = createWatchEngine({
    cluster,
    kubeConfig: kubeConfigFor(cluster),
    resources,
    onEvent: (event) => seen.events.push(event),
    onFallback: (fallback) => seen.fallbacks.push(fallback),
    requestTimeoutMs: 5_000,
    minWatchTimeoutSeconds: 60,
    backoffBaseMs: 20,
    backoffCapMs: 200,
    ...options,
  });
  engines.push(engine);
  return { engine, seen };
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const nameOf = (event: WatchEvent) => ("object" in event ? (event.object.metadata as { name: string }).name : undefined);
type ChangeEvent = Extract<WatchEvent, { object: unknown }>;
const changes = (seen: Seen) => seen.events.filter((event): event is ChangeEvent => "object" in event);
const kustomizationType = (cluster: string) => sim.runtime.handle(cluster).store.registry.lookup(KS.group, KS.version, KS.plural)!;

function newKustomization(name: string) {
  return {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name, namespace: "flux-system" },
    spec: { interval: "10m0s", path: "./x", prune: true, sourceRef: { kind: "GitRepository", name: "flux-system" } },
  };
}

const annotate = (cluster: string, name: string, note: string, namespace = "flux-system") =>
  api(cluster).patchNamespacedCustomObject(
    { ...KS, namespace, name, body: { metadata: { annotations: { note } } } },
    setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
  );

describe.each([
  ["h2", "auto"],
  ["http/1.1", "http1"],
] as const)("the watch engine over %s", (protocol, option) => {
  it("lists once, then delivers additions, modifications and deletions as they happen", async () => {
    const { engine, seen } = watch("spoke-1", [KUSTOMIZATIONS], { protocol: option });
    await engine.start();
    const synced = seen.events.find((event) => event.type === "synced");
    expect(synced).toMatchObject({ type: "synced", resource: "kustomize.toolkit.fluxcd.io/v1/kustomizations", objects: 15 });
    expect(changes(seen)).toHaveLength(15);
    expect(changes(seen).every((event) => event.type === "added" && !("managedFields" in (event.object.metadata as object)))).toBe(true);
    expect(engine.health().protocol).toBe(protocol);

    const name = `added-${option}`;
    await api("spoke-1").createNamespacedCustomObject({ ...KS, namespace: "flux-system", body: newKustomization(name) });
    await until(() => changes(seen).some((event) => event.type === "added" && nameOf(event) === name), "the addition");
    await annotate("spoke-1", name, "changed");
    await until(() => changes(seen).some((event) => event.type === "modified" && nameOf(event) === name), "the modification");
    await api("spoke-1").deleteNamespacedCustomObject({ ...KS, namespace: "flux-system", name });
    await until(() => changes(seen).some((event) => event.type === "deleted" && nameOf(event) === name), "the deletion");

    expect(
      changes(seen)
        .slice(15)
        .map((event) => [event.type, nameOf(event)]),
    ).toEqual([
      ["added", name],
      ["modified", name],
      ["deleted", name],
    ]);
    expect(engine.health().resources[0]).toMatchObject({
      mode: "watching",
      connected: true,
      lists: 1,
      objects: 15,
      consecutiveFailures: 0,
    });
  });

  it("resumes after a dropped connection without missing or repeating a change", async () => {
    const { engine, seen } = watch("spoke-2", [KUSTOMIZATIONS], { protocol: option, backoffBaseMs: 300, backoffCapMs: 300 });
    await engine.start();
    await annotate("spoke-2", "apps", `before-${option}`);
    await until(() => changes(seen).some((event) => event.type === "modified"), "the first modification");

    sim.runtime.handle("spoke-2").server.dropConnections();
    // Written while the engine waits to reconnect: replayed from the last resourceVersion on resume.
    await annotate("spoke-2", "infrastructure", `while-away-${option}`);
    await annotate("spoke-2", "tenant-000", `while-away-${option}`, "tenants");
    await until(() => changes(seen).filter((event) => event.type === "modified").length >= 3, "the changes made while away");
    await annotate("spoke-2", "tenant-001", `after-${option}`, "tenants");
    await until(() => changes(seen).filter((event) => event.type === "modified").length >= 4, "the change after the resume");

    const modified = changes(seen).filter((event) => event.type === "modified");
    expect(modified.map(nameOf)).toEqual(["apps", "infrastructure", "tenant-000", "tenant-001"]);
    const versions = modified.map((event) => (event.object.metadata as { resourceVersion: string }).resourceVersion);
    expect(new Set(versions).size).toBe(versions.length);
    const health = engine.health().resources[0];
    expect(health.lists).toBe(1); // resumed, never relisted
    expect(health.watches).toBeGreaterThanOrEqual(2);
  });
});

describe("too old resourceVersions", () => {
  it("relists after the watch cache's 410 and reports what was deleted and changed meanwhile", async () => {
    const { engine, seen } = watch("spoke-3", [KUSTOMIZATIONS], { backoffBaseMs: 100, backoffCapMs: 100 });
    await engine.start();
    const before = changes(seen).length;

    await sim.setFault("spoke-3", { unreachable: true });
    const store = sim.runtime.handle("spoke-3").store;
    const type = kustomizationType("spoke-3");
    store.delete(type, "tenants", "tenant-003");
    store.write(type, "tenants", "tenant-004", undefined, (object) => ({
      ...object,
      metadata: { ...object.metadata, labels: { tier: "bronze" } },
    }));
    sim.restartApiServer("spoke-3"); // the watch cache starts over: the engine's resourceVersion is now too old
    await sim.setFault("spoke-3", {});

    await until(() => seen.events.some((event) => event.type === "relisted"), "the relist");
    const relisted = seen.events.find((event) => event.type === "relisted");
    expect(relisted).toMatchObject({ reason: "expired", added: 0, modified: 1, deleted: 1, objects: 14 });
    expect(
      changes(seen)
        .slice(before)
        .map((event) => [event.type, nameOf(event)]),
    ).toEqual([
      ["modified", "tenant-004"],
      ["deleted", "tenant-003"],
    ]);
    const deleted = changes(seen).at(-1)!;
    expect(deleted.object).toMatchObject({
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      metadata: { namespace: "tenants" },
    });

    // Watching goes on from the relist.
    await annotate("spoke-3", "apps", "after-relist");
    await until(() => changes(seen).some((event) => event.type === "modified" && nameOf(event) === "apps"), "a change after the relist");
    expect(engine.health().resources[0]).toMatchObject({ relists: { expired: 1, periodic: 0, gone: 0 }, consecutiveFailures: 0 });
  });

  it("relists Events after etcd's 410 (Events have no watch cache) and reconciles deletions", async () => {
    const { engine, seen } = watch("spoke-1", [EVENTS], { backoffBaseMs: 100, backoffCapMs: 100 });
    await engine.start();
    const listed = changes(seen).map(nameOf);
    expect(listed.length).toBeGreaterThan(0);

    await sim.setFault("spoke-1", { unreachable: true });
    const store = sim.runtime.handle("spoke-1").store;
    const eventType = store.registry.lookup("", "v1", "events")!;
    store.delete(eventType, "flux-system", listed[0]!);
    store.compact(); // etcd compaction past the engine's resourceVersion
    await sim.setFault("spoke-1", {});

    await until(() => seen.events.some((event) => event.type === "relisted"), "the relist");
    expect(seen.events.find((event) => event.type === "relisted")).toMatchObject({ reason: "expired", deleted: 1, added: 0, modified: 0 });
    expect(changes(seen).at(-1)).toMatchObject({ type: "deleted", object: { kind: "Event", metadata: { name: listed[0] } } });
  });
});

describe("bookmarks and relists", () => {
  it("moves the resume point forward with bookmarks for changes outside its selector", async () => {
    const { engine, seen } = watch("spoke-2", [{ ...KUSTOMIZATIONS, namespace: "tenants", labelSelector: "tier=gold" }]);
    await engine.start();
    const listedAt = Number(engine.health().resources[0].resourceVersion);
    // A change the watch does not match: no event, but the resource's last change moves on.
    const { version } = sim.runtime
      .handle("spoke-2")
      .store.write(kustomizationType("spoke-2"), "flux-system", "apps", undefined, (object) => ({
        ...object,
        metadata: { ...object.metadata, annotations: { note: "outside" } },
      }));
    await until(() => engine.health().resources[0].resourceVersion === String(version.rv), "a bookmark at the outside change");
    expect(version.rv).toBeGreaterThan(listedAt);
    expect(engine.health().resources[0].lastBookmarkAtMs).not.toBeNull();
    expect(changes(seen).filter((event) => event.type !== "added")).toEqual([]);
  });

  it("asks for no bookmarks when told not to", async () => {
    const { engine } = watch("spoke-3", [KUSTOMIZATIONS], { allowWatchBookmarks: false });
    await engine.start();
    await annotate("spoke-3", "infrastructure", "no-bookmarks");
    await new Promise((resolve) => setTimeout(resolve, 600)); // four bookmark intervals of the simulator
    expect(engine.health().resources[0]).toMatchObject({ lastBookmarkAtMs: null, connected: true });
  });

  it("relists periodically and reports nothing when nothing changed", async () => {
    const { engine, seen } = watch("spoke-1", [KUSTOMIZATIONS, EVENTS], { relistIntervalMs: 300 });
    await engine.start();
    const initial = changes(seen).length;
    await until(() => seen.events.filter((event) => event.type === "relisted").length >= 4, "four periodic relists");
    expect(changes(seen)).toHaveLength(initial);
    for (const event of seen.events.filter((candidate) => candidate.type === "relisted")) {
      expect(event).toMatchObject({ reason: "periodic", added: 0, modified: 0, deleted: 0 });
    }
  });
});

describe("a relist asked for", () => {
  it("lists every resource again at once and resolves when each has, finding what changed meanwhile", async () => {
    const { engine, seen } = watch("spoke-2", [KUSTOMIZATIONS, EVENTS]); // the periodic relist 15 min away
    await engine.start();
    const relisted = () => seen.events.filter((event) => event.type === "relisted");
    await engine.relist();
    const ids = engine.health().resources.map((r) => r.resource);
    expect(ids).toHaveLength(2);
    expect(
      relisted()
        .map((event) => event.resource)
        .sort(),
    ).toEqual(ids.sort());
    for (const event of relisted()) expect(event).toMatchObject({ reason: "periodic", added: 0, modified: 0, deleted: 0 });
    await engine.relist();
    expect(relisted()).toHaveLength(4);
    // A stop ends a relist still waiting: it resolves whether or not its lists ran.
    const pending = engine.relist();
    await engine.stop();
    await pending;
  });
});

describe("when watching keeps failing", () => {
  it("says a proxy cuts long requests, and stops watching", async () => {
    await sim.setFault("spoke-3", { cutAfterSeconds: 2 });
    const { engine, seen } = watch("spoke-3", ALL_KINDS);
    await engine.start();
    await until(() => seen.fallbacks.length > 0, "the fallback verdict");
    expect(seen.fallbacks[0]).toMatchObject({ reason: "cut-long-requests" });
    expect(seen.fallbacks[0].detail).toMatch(/cuts long requests after about 2 s/);
    const health = engine.health();
    expect(health).toMatchObject({ mode: "fallback", fallback: { reason: "cut-long-requests" }, openStreams: 0, openSockets: 0 });
    expect(health.resources.every((resource) => resource.mode === "fallback")).toBe(true);
  });

  it.each([
    ["405", "watch-unsupported", /does not support watch \(HTTP 405/],
    ["empty", "watch-unsupported", /ends every watch at once/],
    ["403", "watch-forbidden", /may list but not watch .*cannot watch resource "kustomizations"/],
  ] as const)("says when the server will not watch (%s)", async (mode, reason, detail) => {
    await sim.setFault("spoke-2", { noWatch: mode });
    const { engine, seen } = watch("spoke-2", [KUSTOMIZATIONS]);
    await engine.start();
    await until(() => seen.fallbacks.length > 0, "the fallback verdict");
    expect(seen.fallbacks[0]).toMatchObject({ reason });
    expect(seen.fallbacks[0].detail).toMatch(detail);
    expect(seen.events.find((event) => event.type === "synced")).toBeDefined(); // lists still work: poll them
    expect(engine.health().mode).toBe("fallback");
  });

  it("does not give up on an unreachable cluster: polling would not help either", async () => {
    await sim.setFault("spoke-1", { unreachable: true });
    const { engine, seen } = watch("spoke-1", [KUSTOMIZATIONS]);
    await engine.start(); // the first list failed
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(seen.fallbacks).toEqual([]);
    const health = engine.health().resources[0];
    expect(health).toMatchObject({ lists: 0, lastErrorKind: "refused" });
    expect(["backoff", "listing"]).toContain(health.mode); // retrying the list, never "fallback"
    expect(engine.listFailure(() => true)).toMatchObject({ resource: health.resource, kind: "refused" });
    expect(engine.listFailure(() => false)).toBeNull();
    await sim.setFault("spoke-1", {});
    await until(() => seen.events.some((event) => event.type === "synced"), "the list once the cluster is back");
    await until(() => engine.listFailure(() => true) === null, "readable again once it listed");
  });
});

describe("connections", () => {
  it("carries every watch of a cluster on one HTTP/2 connection, and closes it on stop()", async () => {
    const before = sim.runtime.handle("spoke-1").server.connections;
    const { engine } = watch("spoke-1", ALL_KINDS);
    await engine.start();
    await until(() => engine.health().resources.every((resource) => resource.connected), "every watch open");
    expect(engine.health()).toMatchObject({ protocol: "h2", connections: 1, openSockets: 1, openStreams: 8 });
    const server = sim.runtime.handle("spoke-1").server.connections;
    expect(server.h2 - before.h2).toBe(1);
    expect(server["http/1.1"] - before["http/1.1"]).toBe(0);

    await engine.stop();
    expect(engine.health()).toMatchObject({ mode: "stopped", openSockets: 0, openStreams: 0 });
    expect(engine.health().resources.every((resource) => resource.mode === "stopped" && !resource.connected)).toBe(true);
    await until(() => sim.runtime.handle("spoke-1").server.connections.open === before.open, "the server to see the connection closed");
  });

  it("tells its activity of every request until it is answered (a watch until its headers), failed ones too", async () => {
    const activity = new Activity();
    const transport = new ClusterTransport(kubeConfigFor("spoke-1"), { requestTimeoutMs: 15_000, activity });
    try {
      const list = transport.getJson("/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations", { limit: 1 });
      expect(activity.requestsInFlight).toBe(1);
      await list;
      expect(activity.requestsInFlight).toBe(0);
      await expect(transport.getJson("/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/x/kustomizations/missing")).rejects.toThrow();
      expect(activity.requestsInFlight).toBe(0);
      const opening = transport.openStream("/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations", { watch: 1 }, () => {});
      expect(activity.requestsInFlight).toBe(1);
      const stream = await opening;
      // An open watch is no request in flight: the collector naps while its watches are open.
      expect(activity.requestsInFlight).toBe(0);
      stream.close();
    } finally {
      transport.close();
    }
  });

  it("falls back to HTTP/1.1 keep-alive when the server does not offer h2: one socket per open watch", async () => {
    await sim.setFault("spoke-2", { http1Only: true });
    const { engine } = watch("spoke-2", ALL_KINDS);
    await engine.start();
    await until(() => engine.health().resources.every((resource) => resource.connected), "every watch open");
    const health = engine.health();
    expect(health.protocol).toBe("http/1.1");
    expect(health.openStreams).toBe(8);
    expect(health.openSockets).toBeGreaterThanOrEqual(8);
    await engine.stop();
    expect(engine.health()).toMatchObject({ openSockets: 0, openStreams: 0 });
  });
});

/**
 * A TCP relay in front of a cluster whose open connections can go dead at once: bytes stop flowing both
 * ways while the sockets stay open (a NAT or load balancer that forgot the flow). New connections work.
 */
async function deadableRelay(cluster: string): Promise<{ port: number; killOpen(): void; close(): Promise<void> }> {
  const target = new URL(clusterInfo(cluster).endpoint);
  const open = new Set<{ dead: boolean; sockets: net.Socket[] }>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    const flow = { dead: false, sockets: [client, upstream] };
    open.add(flow);
    client.on("data", (chunk) => flow.dead || upstream.write(chunk));
    upstream.on("data", (chunk) => flow.dead || client.write(chunk));
    const end = () => {
      open.delete(flow);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of flow.sockets) socket.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    killOpen: () => open.forEach((flow) => (flow.dead = true)),
    close: async () => {
      for (const flow of open) flow.sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("dead connections", () => {
  const relays: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.close()));
  });

  const watchThrough = async (cluster: string, options: Partial<WatchEngineOptions>) => {
    const relay = await deadableRelay(cluster);
    relays.push(relay);
    const kubeConfig = fromParts({
      name: cluster,
      server: `https://127.0.0.1:${relay.port}`,
      caData: clusterInfo(cluster).caData,
      token: sim.tokens.admin,
    });
    return { relay, ...watch(cluster, [KUSTOMIZATIONS], { kubeConfig, ...options }) };
  };

  it("finds a dead HTTP/2 connection by PING, and resumes on a new one without missing a change", async () => {
    // Bookmarks every 150 ms keep a live connection from ever being silent for the PING interval.
    const { relay, engine, seen } = await watchThrough("spoke-3", { pingIntervalMs: 600, pingTimeoutMs: 300 });
    await engine.start();
    await until(() => engine.health().resources[0].connected, "the watch open");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(engine.health()).toMatchObject({ protocol: "h2", connections: 1 }); // no PING went unanswered while it lived

    relay.killOpen();
    await annotate("spoke-3", "apps", "while-dead");
    await until(() => changes(seen).some((event) => event.type === "modified" && nameOf(event) === "apps"), "the change after the PING");
    expect(engine.health().connections).toBe(2);
    expect(engine.health().resources[0].lists).toBe(1); // resumed from its resourceVersion, not relisted
  });

  it("abandons a watch silent since its last bookmark (HTTP/1.1: no PING), and resumes", async () => {
    const { relay, engine, seen } = await watchThrough("spoke-3", { protocol: "http1", bookmarkSilenceMs: 1_000 });
    await engine.start();
    await until(() => engine.health().resources[0].lastBookmarkAtMs !== null, "a bookmark");
    const watchesBefore = engine.health().resources[0].watches;

    relay.killOpen();
    await annotate("spoke-3", "infrastructure", "while-silent");
    await until(
      () => changes(seen).some((event) => event.type === "modified" && nameOf(event) === "infrastructure"),
      "the change after the silence",
    );
    const health = engine.health().resources[0];
    expect(health.watches).toBeGreaterThan(watchesBefore); // resumed (a dead keep-alive socket may cost one more try)
    expect(health.lists).toBe(1);
  });
});
