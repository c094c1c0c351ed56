import { describe, expect, it } from "vitest";
import { contentVersion, holdsVersion, versionedJson } from "./content-version";

const detail = (over: Record<string, unknown> = {}) => ({
  generatedAt: "2026-11-21T10:00:00.000Z",
  object: { health: "failing", failingForSeconds: 120, conditions: [{ type: "Ready", status: "False", message: "boom" }] },
  timeline: [{ at: "2026-11-21T09:58:00.000Z", health: "failing" }],
  ...over,
});

describe("contentVersion", () => {
  it("is the same for two reads that differ only in the time of the answer and durations from now", () => {
    const a = detail();
    const b = { ...detail({ generatedAt: "2026-11-21T10:00:15.000Z" }), object: { ...a.object, failingForSeconds: 135 } };
    expect(contentVersion(b)).toBe(contentVersion(a));
  });

  it("changes when a condition, the health or the timeline changes", () => {
    const base = contentVersion(detail());
    const ready = detail();
    ready.object.conditions[0].status = "True";
    expect(contentVersion(ready)).not.toBe(base);
    expect(contentVersion(detail({ timeline: [...detail().timeline, { at: "2026-11-21T10:00:00.000Z", health: "ready" }] }))).not.toBe(
      base,
    );
    const healthy = detail();
    healthy.object.health = "ready";
    expect(contentVersion(healthy)).not.toBe(base);
  });

  it("is a weak ETag", () => {
    expect(contentVersion(detail())).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
  });
});

describe("holdsVersion and versionedJson", () => {
  const request = (etag?: string) => new Request("http://localhost/api/x", { headers: etag ? { "if-none-match": etag } : {} });

  it("answers 304 without a body when the caller holds the version, strong or weak", async () => {
    const version = contentVersion(detail());
    for (const held of [version, version.replace(/^W\//, ""), `"other", ${version}`]) {
      const res = versionedJson(request(held), detail());
      expect(res.status).toBe(304);
      expect(await res.text()).toBe("");
      expect(res.headers.get("etag")).toBe(version);
    }
  });

  it("answers the JSON with its ETag otherwise", async () => {
    const res = versionedJson(request('W/"stale"'), detail());
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(contentVersion(detail()));
    expect((await res.json()).object.health).toBe("failing");
    expect(holdsVersion(request(), contentVersion(detail()))).toBe(false);
  });
});
