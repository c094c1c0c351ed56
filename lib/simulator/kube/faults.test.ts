import { describe, expect, it } from "vitest";
import { decideFault, faultSpecFromJson, parseFaultArgument, parseFaultSpec, seededRandom } from "./faults";

describe("fault specs", () => {
  it("parses the CLI form, cluster name up to the first =", () => {
    expect(parseFaultArgument("prod-euw1-003=latency:250,5xx:0.1,429=0.05,retryAfter:2,reset:0.02,truncate:0.1")).toEqual({
      cluster: "prod-euw1-003",
      spec: { latencyMs: 250, errorRate: 0.1, throttleRate: 0.05, retryAfterSeconds: 2, resetRate: 0.02, truncateRate: 0.1 },
    });
    expect(parseFaultSpec("unreachable")).toEqual({ unreachable: true });
  });

  it("parses the faults that make a collector poll: cut long requests, no watch, HTTP/1.1 only", () => {
    expect(parseFaultSpec("cut:30,nowatch,http1only")).toEqual({ cutAfterSeconds: 30, noWatch: "405", http1Only: true });
    expect(parseFaultSpec("nowatch:empty")).toEqual({ noWatch: "empty" });
    expect(parseFaultSpec("nowatch:403")).toEqual({ noWatch: "403" });
    expect(() => parseFaultSpec("nowatch:sometimes")).toThrow(/405, 403 or empty/);
    expect(faultSpecFromJson({ cutAfterSeconds: 60, noWatch: "empty", http1Only: false })).toEqual({
      cutAfterSeconds: 60,
      noWatch: "empty",
      http1Only: false,
    });
    expect(() => faultSpecFromJson({ noWatch: 405 })).toThrow(/noWatch/);
  });

  it("rejects unknown faults and shares outside 0..1", () => {
    expect(() => parseFaultSpec("explode:1")).toThrow(/unknown fault/);
    expect(() => parseFaultSpec("5xx:2")).toThrow(/between 0 and 1/);
    expect(() => parseFaultArgument("latency:100")).toThrow(/NAME=SPEC/);
    expect(() => faultSpecFromJson({ errorRate: "lots" })).toThrow(/errorRate/);
  });

  it("draws faults in proportion and repeats for the same seed", () => {
    const spec = { errorRate: 0.25, throttleRate: 0.25 };
    const draw = (seed: number) =>
      Array.from(
        { length: 4000 },
        (
          (random) => () =>
            decideFault(spec, random)
        )(seededRandom(seed)),
      );
    const decisions = draw(42);
    expect(decisions).toEqual(draw(42));
    const share = (kind: string) => decisions.filter((decision) => decision === kind).length / decisions.length;
    expect(share("error")).toBeGreaterThan(0.2);
    expect(share("error")).toBeLessThan(0.3);
    expect(share("throttle")).toBeGreaterThan(0.2);
    expect(share("none")).toBeGreaterThan(0.45);
    expect(decideFault({}, seededRandom(1))).toBe("none");
  });
});
