import { describe, expect, it } from "vitest";
import { type AttemptOutcome, watchVerdict } from "./verdict";

const cut = (ageMs: number): AttemptOutcome => ({ kind: "broken", ageMs, message: "the response broke off after 900 bytes (closed)" });

describe("watchVerdict", () => {
  it("gives up at once on a server that refuses watch with 405 or 501", () => {
    expect(watchVerdict([{ kind: "rejected", status: 405, message: "HTTP 405 MethodNotAllowed" }])).toMatchObject({
      reason: "watch-unsupported",
    });
    expect(watchVerdict([{ kind: "rejected", status: 503, message: "HTTP 503" }])).toBeNull();
    expect(watchVerdict([{ kind: "rejected", status: 403, message: "HTTP 403 Forbidden: …cannot watch resource…" }])).toMatchObject({
      reason: "watch-forbidden",
    });
  });

  it("recognises a server that ends every watch at once, but only after three in a row", () => {
    const atOnce: AttemptOutcome = { kind: "ended-early", ageMs: 12, delivered: 0 };
    expect(watchVerdict([atOnce, atOnce])).toBeNull();
    expect(watchVerdict([atOnce, atOnce, atOnce])).toMatchObject({ reason: "watch-unsupported" });
    expect(watchVerdict([atOnce, { kind: "ended-early", ageMs: 12, delivered: 1 }, atOnce])).toBeNull();
  });

  it("recognises a proxy cutting requests at a fixed age, not a flaky network", () => {
    expect(watchVerdict([cut(60_100), { kind: "ended-early", ageMs: 59_800, delivered: 4 }, cut(60_300)])).toEqual({
      reason: "cut-long-requests",
      detail: "something between us and the server cuts long requests after about 60 s",
    });
    expect(watchVerdict([cut(5_000), cut(61_000), cut(200_000)])).toBeNull();
  });

  it("recognises watches that never start, and watches that expire right after their list", () => {
    const noHeaders: AttemptOutcome = { kind: "no-headers", timeoutMs: 15_000 };
    expect(watchVerdict([noHeaders, noHeaders, noHeaders])?.detail).toBe(
      "watch responses never start within 15 s (a proxy buffering responses?)",
    );
    const expired: AttemptOutcome = { kind: "expired-at-once", message: "too old resource version: 5 (294)" };
    expect(watchVerdict([expired, expired, expired])).toMatchObject({ reason: "expire-loop" });
  });

  it("gives up on five failures of any kind in a row", () => {
    const mixed: AttemptOutcome[] = [
      { kind: "error-event", message: "etcdserver: request timed out" },
      cut(3_000),
      { kind: "idle", silentMs: 180_000 },
      { kind: "rejected", status: 500, message: "HTTP 500 InternalError" },
    ];
    expect(watchVerdict(mixed)).toBeNull();
    expect(watchVerdict([...mixed, cut(90_000)])).toEqual({
      reason: "keeps-failing",
      detail: "5 watch attempts in a row failed; last: the response broke off after 900 bytes (closed) after 90 s",
    });
  });
});
