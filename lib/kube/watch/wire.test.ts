// Watch lines and list pages as a real kube-apiserver 1.26 writes them (bodies recorded from one).
import { describe, expect, it, vi } from "vitest";
import { decodeListPage, decodeWatchLine, isTooOldStatus, LineSplitter } from "./wire";
import { laterRv } from "./resource-watch";

const TOO_OLD_FROM_CACHE =
  '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 5 (294)","reason":"Expired","code":410}}';
const TOO_OLD_FROM_ETCD =
  '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"The resourceVersion for the provided watch is too old.","reason":"Expired","code":410}}';
const BOOKMARK =
  '{"type":"BOOKMARK","object":{"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"resourceVersion":"307"}}}';

describe("decodeWatchLine", () => {
  it("reads both too-old messages as an expiry", () => {
    expect(decodeWatchLine(TOO_OLD_FROM_CACHE)).toEqual({ kind: "expired", message: "too old resource version: 5 (294)" });
    expect(decodeWatchLine(TOO_OLD_FROM_ETCD)).toEqual({
      kind: "expired",
      message: "The resourceVersion for the provided watch is too old.",
    });
  });

  it("reads a bookmark's resourceVersion and other ERROR events as errors", () => {
    expect(decodeWatchLine(BOOKMARK)).toEqual({ kind: "bookmark", resourceVersion: "307" });
    const internal =
      '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcdserver: request timed out","reason":"InternalError","code":500}}';
    expect(decodeWatchLine(internal)).toEqual({ kind: "error", code: 500, message: "etcdserver: request timed out" });
  });

  it("keys changes by namespace/name, strips managedFields, and refuses what is not a watch event", () => {
    const line = JSON.stringify({
      type: "MODIFIED",
      object: {
        kind: "Node",
        metadata: { name: "ip-10-0-1-23", resourceVersion: "12", uid: "u1", managedFields: [{ manager: "kubelet" }] },
      },
    });
    const decoded = decodeWatchLine(line);
    expect(decoded).toMatchObject({ kind: "change", type: "MODIFIED", key: "ip-10-0-1-23", resourceVersion: "12", uid: "u1" });
    expect(decoded.kind === "change" && decoded.object.metadata).toEqual({ name: "ip-10-0-1-23", resourceVersion: "12", uid: "u1" });
    const namespaced = decodeWatchLine(
      '{"type":"ADDED","object":{"metadata":{"namespace":"flux-system","name":"apps","resourceVersion":"3"}}}',
    );
    expect(namespaced).toMatchObject({ key: "flux-system/apps" });
    expect(decodeWatchLine('{"type":"ADDED","object":{"metadata":{"name":"x"}}}')).toMatchObject({ kind: "invalid" });
    expect(decodeWatchLine('{"type":"SOMETHING","object":{}}')).toMatchObject({ kind: "invalid" });
    expect(decodeWatchLine('{"type":"ADDED","object":[]}')).toMatchObject({ kind: "invalid" });
    expect(decodeWatchLine('["ADDED"]')).toMatchObject({ kind: "invalid" });
    expect(decodeWatchLine('{"type":"ADDED","obj')).toMatchObject({ kind: "invalid" });
  });

  it("reads bookmarks of every shape: initial-events, a built-in kind's typed one, another key order", () => {
    const initialEventsEnd =
      '{"type":"BOOKMARK","object":{"apiVersion":"helm.toolkit.fluxcd.io/v2","kind":"HelmRelease","metadata":' +
      '{"annotations":{"k8s.io/initial-events-end":"true"},"resourceVersion":"4521"}}}';
    expect(decodeWatchLine(initialEventsEnd)).toEqual({ kind: "bookmark", resourceVersion: "4521" });
    // A built-in kind's typed bookmark, another key order, a resourceVersion that is no etcd revision.
    const node =
      '{"type":"BOOKMARK","object":{"kind":"Node","apiVersion":"v1","metadata":{"resourceVersion":"88","creationTimestamp":null},' +
      '"spec":{},"status":{"daemonEndpoints":{"kubeletEndpoint":{"Port":0}}}}}';
    expect(decodeWatchLine(node)).toEqual({ kind: "bookmark", resourceVersion: "88" });
    expect(decodeWatchLine('{"object":{"metadata":{"resourceVersion":"307"}},"type":"BOOKMARK"}')).toEqual({
      kind: "bookmark",
      resourceVersion: "307",
    });
    expect(decodeWatchLine(BOOKMARK.replace('"307"', '"a\\"b"'))).toEqual({ kind: "bookmark", resourceVersion: 'a"b' });
    // Refused: a line cut short by one brace, a bookmark without a resourceVersion.
    expect(decodeWatchLine(BOOKMARK.slice(0, -1))).toMatchObject({ kind: "invalid" });
    expect(decodeWatchLine(BOOKMARK.replace('{"resourceVersion":"307"}', "{}"))).toMatchObject({ kind: "invalid" });
    expect(decodeWatchLine(BOOKMARK.slice(1))).toMatchObject({ kind: "invalid" });
    expect(decodeWatchLine(BOOKMARK + "}")).toMatchObject({ kind: "invalid" });
  });

  it("reads a custom resource's bookmark without parsing it, exactly as parsing would", () => {
    const parse = vi.spyOn(JSON, "parse");
    try {
      expect(decodeWatchLine(BOOKMARK)).toEqual({ kind: "bookmark", resourceVersion: "307" });
      expect(parse).not.toHaveBeenCalled();
      // Near misses are parsed: a nested resourceVersion, a second key in metadata, a version that is no number.
      const nested = BOOKMARK.replace('"metadata":{"resourceVersion":"307"}', '"metadata":{},"spec":{"resourceVersion":"307"}');
      expect(decodeWatchLine(nested)).toMatchObject({ kind: "invalid" });
      const withName = BOOKMARK.replace('{"resourceVersion":"307"}', '{"name":"x","resourceVersion":"307"}');
      expect(decodeWatchLine(withName)).toEqual({ kind: "bookmark", resourceVersion: "307" });
      expect(decodeWatchLine(BOOKMARK.replace('"307"', '"30a7"'))).toEqual({ kind: "bookmark", resourceVersion: "30a7" });
      expect(parse).toHaveBeenCalledTimes(3);
    } finally {
      parse.mockRestore();
    }
  });

  it("takes an HTTP 410 body for an expiry too (older servers, some proxies)", () => {
    expect(isTooOldStatus({ kind: "Status", code: 410, reason: "Gone" })).toBe(true);
    expect(isTooOldStatus({ kind: "Status", code: 500, reason: "InternalError" })).toBe(false);
  });
});

describe("LineSplitter", () => {
  const bytes = (text: string) => Buffer.from(text, "utf8");

  it("joins lines split across chunks and knows when a stream stopped inside one", () => {
    const lines: string[] = [];
    const splitter = new LineSplitter();
    splitter.push(bytes('{"a":1}\n{"b"'), (line) => lines.push(line));
    expect(splitter.pending).toBeGreaterThan(0);
    splitter.push(bytes(':2}\n\n{"c":3}\n'), (line) => lines.push(line));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(splitter.pending).toBe(0);
    splitter.push(bytes("  \r"), (line) => lines.push(line));
    expect(splitter.pending).toBe(0); // white space only: nothing was cut short
  });

  it("decodes a character whose bytes arrive in two chunks, and a line over three", () => {
    const line = '{"message":"Größe überschritten — 容量"}';
    const whole = bytes(`${line}\n${line}\n`);
    // Cut inside "ö" (two bytes) and inside "容" (three bytes).
    const cuts = [whole.indexOf(bytes("ö")) + 1, whole.indexOf(bytes("容")) + 2, whole.length - 5];
    const lines: string[] = [];
    const splitter = new LineSplitter();
    let from = 0;
    for (const cut of [...cuts, whole.length]) {
      splitter.push(whole.subarray(from, cut), (l) => lines.push(l));
      from = cut;
    }
    expect(lines).toEqual([line, line]);
    expect(splitter.pending).toBe(0);
  });
});

describe("decodeListPage", () => {
  it("gives core list items the apiVersion and kind the wire leaves out", () => {
    const page = decodeListPage({
      kind: "NodeList",
      apiVersion: "v1",
      metadata: { resourceVersion: "331", continue: "abc" },
      items: [{ metadata: { name: "n1", managedFields: [] } }],
    });
    expect(page).toEqual({
      resourceVersion: "331",
      continueToken: "abc",
      items: [{ apiVersion: "v1", kind: "Node", metadata: { name: "n1" } }],
    });
    expect(() => decodeListPage({ items: "nope" })).toThrow(/not a Kubernetes list/);
  });

  it("refuses what is not a list page, and takes an empty list with items null", () => {
    for (const body of [null, [], "text", { items: [1] }, { metadata: "x", items: [] }, { metadata: { resourceVersion: 5 }, items: [] }])
      expect(() => decodeListPage(body), JSON.stringify(body)).toThrow(/not a Kubernetes list/);
    expect(decodeListPage({ kind: "SecretList", metadata: { resourceVersion: "9" }, items: null })).toEqual({
      resourceVersion: "9",
      continueToken: null,
      items: [],
    });
  });
});

describe("laterRv", () => {
  it("keeps the later of two etcd revisions, and takes an opaque one as given", () => {
    expect(laterRv("331", "307")).toBe("331");
    expect(laterRv("99", "100")).toBe("100");
    expect(laterRv(null, "5")).toBe("5");
    expect(laterRv("abc", "def")).toBe("def");
  });
});
