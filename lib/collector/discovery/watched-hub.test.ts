// The hub's discovery lists kept by watching, against the fleet simulator over real HTTPS: each path is
// listed once and then read from the watch's copy; a change moves the generation and shows at once; a
// discovery computed from an unchanged hub is reused whole, and one from a changed hub is not.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CoreV1Api, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../simulator/index";
import { createTestFleet } from "../../simulator/kube/testing";
import { createClusterClient } from "../../kube/client";
import { fromParts } from "../../kube/kubeconfig";
import { ClusterTransport, transportOptions, watchSettings } from "../../kube/watch/engine";
import { logger } from "../../logger";
import type { EksApi } from "../../aws/eks";
import { eksClusterInfo } from "../../aws/eks.testing";
import { discoverFleet, type DiscoveryInput, type DiscoveryResult } from "./index";
import { listingHub } from "./hub-reader";
import { watchResourceOf, WatchedHub } from "./watched-hub";

const SECRETS = "/api/v1/namespaces/crossplane-system/secrets";
const CROSSPLANE = { group: "eks.aws.crossplane.io", version: "v1beta1", plural: "clusters" };

let sim: RunningSimulator;
let outDir: string;
const hubs: WatchedHub[] = [];

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "watched-hub-"));
  sim = await startSimulator({ outDir, model: createTestFleet({ spokes: 2 }), aws: false, speed: 0, bookmarkIntervalMs: 150 });
});

afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await sim.setFault("hub", {});
});

afterAll(async () => {
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

const hubConfig = () => {
  const info = sim.clusters.find((c) => c.name === "hub")!;
  return fromParts({ name: "hub", server: info.endpoint, caData: info.caData, token: sim.tokens.admin });
};

function watchedHub(): WatchedHub {
  const kc = hubConfig();
  const options = { requestTimeoutMs: 5_000, backoffBaseMs: 20, backoffCapMs: 200 };
  const hub = new WatchedHub(
    createClusterClient("hub", kc, { timeoutMs: 5_000 }),
    new ClusterTransport(kc, transportOptions(options)),
    watchSettings(options),
    logger,
  );
  hubs.push(hub);
  return hub;
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const names = (items: Array<Record<string, unknown>>) => items.map((item) => (item.metadata as { name: string }).name).sort();
const noEks: Pick<DiscoveryInput, "eks" | "list" | "describe"> = {
  eks: [],
  list: () => Promise.reject(new Error("no EKS here")),
  describe: () => Promise.reject(),
};

const discover = (hub: WatchedHub | ReturnType<typeof listingHub>, previous?: DiscoveryResult, eks = noEks) =>
  discoverFleet({ hub, hubName: "hub", secretLabel: "crows-nest.io/cluster-kubeconfig", ...eks, previous });

describe("watchResourceOf", () => {
  it("reads list paths, core and grouped, namespaced or not, and refuses anything else", () => {
    expect(watchResourceOf("/api/v1/secrets", "a=b")).toEqual({
      group: "",
      version: "v1",
      plural: "secrets",
      kind: "secrets",
      namespace: undefined,
      labelSelector: "a=b",
    });
    expect(watchResourceOf("/api/v1/namespaces/crossplane%2Dsystem/secrets")).toMatchObject({ group: "", namespace: "crossplane-system" });
    expect(watchResourceOf("/apis/eks.aws.crossplane.io/v1beta1/clusters")).toMatchObject({ ...CROSSPLANE, namespace: undefined });
    expect(watchResourceOf("/apis/x.io/v1/namespaces/team-a/things")).toMatchObject({
      group: "x.io",
      namespace: "team-a",
      plural: "things",
    });
    for (const path of [
      "/apis",
      "/api/v1",
      "/api/v1/namespaces/a/secrets/one",
      "/apis/x.io/v1",
      "apis/x.io/v1/things",
      "/api/v1/namespaces//secrets",
      "/api/v1/secrets?limit=1",
    ])
      expect(watchResourceOf(path), path).toBeNull();
  });
});

describe("WatchedHub", () => {
  it("lists a path once, then answers from the watch; a change moves the generation and shows at once", async () => {
    const hub = watchedHub();
    expect(names(await hub.list(SECRETS))).toEqual(["spoke-1-conn", "spoke-2-conn"]);
    await until(() => hub.requests === 2, "the list page and the watch request");
    const requests = hub.requests;
    const generation = hub.generation;

    expect(names(await hub.list(SECRETS))).toEqual(["spoke-1-conn", "spoke-2-conn"]);
    expect(hub.requests).toBe(requests);
    expect(hub.generation).toBe(generation);

    const core = hubConfig().makeApiClient(CoreV1Api);
    await core.createNamespacedSecret({
      namespace: "crossplane-system",
      body: { metadata: { name: "spoke-3-conn" }, data: { endpoint: Buffer.from("https://spoke-3.example:443").toString("base64") } },
    });
    await until(() => hub.generation > generation, "the addition");
    expect(names(await hub.list(SECRETS))).toEqual(["spoke-1-conn", "spoke-2-conn", "spoke-3-conn"]);
    const afterAdd = hub.generation;
    await core.deleteNamespacedSecret({ namespace: "crossplane-system", name: "spoke-3-conn" });
    await until(() => hub.generation > afterAdd, "the deletion");
    expect(names(await hub.list(SECRETS))).toEqual(["spoke-1-conn", "spoke-2-conn"]);
    expect(hub.requests).toBe(requests); // every answer came from the watch
    expect(hub.stats()).toMatchObject({ watched: 1, usable: 1, objects: 2 });
  });

  it("lists afresh what it cannot watch, failing as a LIST fails; the same failure again moves nothing", async () => {
    const hub = watchedHub();
    const generation = hub.generation;
    await expect(hub.list("/apis/nope.example.com/v1/things")).rejects.toMatchObject({ status: 404 });
    expect(hub.generation).toBeGreaterThan(generation);
    expect(hub.stats()).toMatchObject({ watched: 0, usable: 0, unwatched: 1 });
    const requests = hub.requests;
    const afterFailure = hub.generation;
    await expect(hub.list("/apis/nope.example.com/v1/things")).rejects.toMatchObject({ status: 404 });
    expect(hub.requests).toBe(requests + 1); // one fresh LIST, no second attempt to watch
    expect(hub.generation).toBe(afterFailure);
  });

  it("lists afresh, and stops trying to watch for a while, a path whose watch keeps failing (a server without watch)", async () => {
    await sim.setFault("hub", { noWatch: "405" });
    const hub = watchedHub();
    expect(names(await hub.list(SECRETS))).toEqual(["spoke-1-conn", "spoke-2-conn"]);
    await until(
      () => {
        void hub.list(SECRETS).catch(() => {});
        return hub.stats().unwatched === 1;
      },
      "the watch to give up",
      30_000,
    );
    expect(hub.stats()).toMatchObject({ watched: 0, usable: 0 });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the lists the wait above started have ended
    const requests = hub.requests;
    expect(names(await hub.list(SECRETS))).toEqual(["spoke-1-conn", "spoke-2-conn"]);
    expect(hub.requests).toBe(requests + 1); // one fresh LIST, no new watch
  });

  it("never answers from a copy it cannot keep current: a hub that stops answering fails the list", async () => {
    const hub = watchedHub();
    await hub.list(SECRETS);
    await until(() => hub.requests === 2, "the watch");
    await sim.setFault("hub", { unreachable: true });
    await until(() => hub.stats().usable === 0, "the watch to notice", 30_000);
    await expect(hub.list(SECRETS)).rejects.toThrow();
    await sim.setFault("hub", {});
    await until(() => hub.stats().usable === 1, "the watch to resume", 30_000);
    expect(names(await hub.list(SECRETS))).toEqual(["spoke-1-conn", "spoke-2-conn"]);
  });
});

describe("discovery over a watched hub", () => {
  it("is reused whole while nothing changes, and computed again after a change", async () => {
    const hub = watchedHub();
    const first = await discover(hub);
    // The first discovery started the watches and read their first lists: nothing changed since.
    const second = await discover(hub, first);
    const third = await discover(hub, second);
    expect(first.reused).toBe(false);
    expect(second.reused).toBe(true);
    expect(third.reused).toBe(true);
    expect(third.clusters).toBe(first.clusters);
    expect(third.clusters.map((c) => c.name).sort()).toEqual(["hub", "spoke-1", "spoke-2"]);

    const generation = hub.generation;
    const moved = "https://spoke-1.moved.example:443";
    await hubConfig()
      .makeApiClient(CoreV1Api)
      .patchNamespacedSecret(
        { namespace: "crossplane-system", name: "spoke-1-conn", body: { data: { endpoint: Buffer.from(moved).toString("base64") } } },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      );
    await until(() => hub.generation > generation, "the change");
    const fourth = await discover(hub, third);
    expect(fourth.reused).toBe(false);
    expect(fourth.clusters.find((c) => c.name === "spoke-1")?.endpoint).toBe(moved);
  });

  it("is computed again when a DescribeCluster answer is a new object, and reused while the answers are the same", async () => {
    const hub = watchedHub();
    // The reader's cache hands back the same object while EKS answers the same (EksReader.describe).
    let current = eksClusterInfo("eks-1", { version: "1.31" });
    const eks = {
      eks: [{ region: "eu-west-1" } as EksApi],
      list: async () => ["eks-1"],
      describe: async () => current,
    };
    const first = await discover(hub, undefined, eks);
    const second = await discover(hub, first, eks);
    expect(second.reused).toBe(true);
    current = eksClusterInfo("eks-1", { version: "1.32" });
    const third = await discover(hub, second, eks);
    expect(third.reused).toBe(false);
    expect(third.eksInfo.get("eks-1")?.version).toBe("1.32");
    expect((await discover(hub, third, eks)).reused).toBe(true);
  });

  it("is never reused when the hub's lists are read afresh (poll mode)", async () => {
    const kc = hubConfig();
    const hub = listingHub(createClusterClient("hub", kc, { timeoutMs: 5_000 }));
    const first = await discover(hub);
    const second = await discover(hub, first);
    expect(first.inputs).toBeNull();
    expect(second.reused).toBe(false);
  });
});
