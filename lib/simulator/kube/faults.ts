// Fault injection per simulated cluster: what a flaky network or an overloaded API server looks like.

export interface FaultSpec {
  /** Added to every response, in real milliseconds. */
  latencyMs?: number;
  /** Share of requests answered 500 InternalError (0..1). */
  errorRate?: number;
  /** Share of requests answered 429 TooManyRequests with Retry-After. */
  throttleRate?: number;
  retryAfterSeconds?: number;
  /** Share of requests whose connection is reset before any response. */
  resetRate?: number;
  /** Share of responses cut off half-way (sent chunked; the connection closes mid-body). */
  truncateRate?: number;
  /** Connections are refused: the server stops listening. */
  unreachable?: boolean;
  /** A proxy with a maximum request duration: any request still open after this many seconds is cut off. */
  cutAfterSeconds?: number;
  /** A server without watch: `405` answers MethodNotAllowed, `empty` answers 200 and ends at once; `403`: RBAC grants list but not watch. */
  noWatch?: "405" | "empty" | "403";
  /** A proxy in front that speaks HTTP/1.1 only: ALPN offers no h2 (new connections only). */
  http1Only?: boolean;
}

export type FaultDecision = "none" | "error" | "throttle" | "reset" | "truncate";

const KEYS: Record<string, keyof FaultSpec> = {
  latency: "latencyMs",
  latencyms: "latencyMs",
  "5xx": "errorRate",
  error: "errorRate",
  errors: "errorRate",
  "429": "throttleRate",
  throttle: "throttleRate",
  retryafter: "retryAfterSeconds",
  reset: "resetRate",
  truncate: "truncateRate",
  unreachable: "unreachable",
  cut: "cutAfterSeconds",
  cutafter: "cutAfterSeconds",
  nowatch: "noWatch",
  http1only: "http1Only",
};

/**
 * Parses `latency:200,5xx:0.1,429:0.05,retryAfter:2,reset:0.02,truncate:0.1,unreachable,cut:30,nowatch,http1only`
 * (`=` also works; `nowatch` alone means `nowatch:405`, `nowatch:empty` ends watches at once).
 */
export function parseFaultSpec(text: string): FaultSpec {
  const spec: FaultSpec = {};
  for (const part of text
    .split(",")
    .map((piece) => piece.trim())
    .filter(Boolean)) {
    const [rawKey, rawValue] = part.split(/[:=]/, 2);
    const key = KEYS[rawKey.trim().toLowerCase()];
    if (!key) throw new Error(`unknown fault "${rawKey}" (known: ${Object.keys(KEYS).join(", ")})`);
    if (key === "unreachable" || key === "http1Only") {
      spec[key] = rawValue === undefined ? true : rawValue.trim() !== "false";
      continue;
    }
    if (key === "noWatch") {
      const mode = (rawValue ?? "405").trim();
      if (mode !== "405" && mode !== "empty" && mode !== "403") throw new Error(`fault "nowatch" is 405, 403 or empty, got "${mode}"`);
      spec.noWatch = mode;
      continue;
    }
    const value = Number(rawValue);
    if (rawValue === undefined || !Number.isFinite(value) || value < 0) throw new Error(`fault "${rawKey}" needs a non-negative number`);
    if (key.endsWith("Rate") && value > 1) throw new Error(`fault "${rawKey}" is a share between 0 and 1`);
    (spec as Record<string, number>)[key] = value;
  }
  return spec;
}

/** `--fault NAME=SPEC`: the cluster name ends at the first `=`. */
export function parseFaultArgument(argument: string): { cluster: string; spec: FaultSpec } {
  const at = argument.indexOf("=");
  if (at <= 0) throw new Error(`--fault expects NAME=SPEC, got "${argument}"`);
  return { cluster: argument.slice(0, at), spec: parseFaultSpec(argument.slice(at + 1)) };
}

/** Validates a fault spec from JSON (control API). */
export function faultSpecFromJson(input: Record<string, unknown>): FaultSpec {
  const spec: FaultSpec = {};
  for (const key of [
    "latencyMs",
    "errorRate",
    "throttleRate",
    "retryAfterSeconds",
    "resetRate",
    "truncateRate",
    "cutAfterSeconds",
  ] as const) {
    const value = input[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (key.endsWith("Rate") && value > 1)) {
      throw new Error(`${key} must be a number${key.endsWith("Rate") ? " between 0 and 1" : " >= 0"}`);
    }
    spec[key] = value;
  }
  for (const key of ["unreachable", "http1Only"] as const) {
    if (input[key] === undefined) continue;
    if (typeof input[key] !== "boolean") throw new Error(`${key} must be a boolean`);
    spec[key] = input[key];
  }
  if (input.noWatch !== undefined) {
    if (input.noWatch !== "405" && input.noWatch !== "empty" && input.noWatch !== "403")
      throw new Error('noWatch must be "405", "403" or "empty"');
    spec.noWatch = input.noWatch;
  }
  return spec;
}

/** mulberry32: small, fast and deterministic for a seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashSeed(text: string, seed: number): number {
  let hash = seed >>> 0 || 1;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash;
}

/** One draw decides at most one fault per request, in a fixed order. */
export function decideFault(spec: FaultSpec, random: () => number): FaultDecision {
  const draw = random();
  let threshold = 0;
  for (const [rate, decision] of [
    [spec.resetRate, "reset"],
    [spec.errorRate, "error"],
    [spec.throttleRate, "throttle"],
    [spec.truncateRate, "truncate"],
  ] as const) {
    threshold += rate ?? 0;
    if (draw < threshold) return decision;
  }
  return "none";
}
