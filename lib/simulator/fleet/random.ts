// Deterministic randomness for the fleet model: everything derives from (seed, label), never Math.random.

/** 32-bit FNV-1a of a string: cheap, stable, good enough to pick from lists. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A float in [0, 1) for a label. */
export function unit(label: string): number {
  // Mix once more so neighbouring labels do not give neighbouring values.
  let h = hash32(label);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * Lower-case hex of the given length, e.g. a Git SHA-1 (40) or a sha256 digest (64). Not cryptographic:
 * a small xorshift stream seeded from the label, because the model draws hundreds of thousands of these.
 */
export function hex(label: string, length: number): string {
  let a = hash32(label) | 1;
  let b = (a ^ 0x9e3779b9) + label.length;
  const parts: string[] = [];
  for (let produced = 0; produced < length; produced += 8) {
    a ^= a << 13;
    a ^= a >>> 17;
    a ^= a << 5;
    b = (Math.imul(b, 1664525) + 1013904223) | 0;
    const x = (a ^ Math.imul(b ^ (b >>> 15), 0x2c1b3c6d)) >>> 0;
    parts.push(HEX_BYTE[x >>> 24] + HEX_BYTE[(x >>> 16) & 255] + HEX_BYTE[(x >>> 8) & 255] + HEX_BYTE[x & 255]);
  }
  const out = parts.join("");
  return out.length === length ? out : out.slice(0, length);
}

/** Stable RFC 4122-looking UUID (v4 layout) for a label. */
export function uuid(label: string): string {
  const h = hex(label, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${"89ab"[parseInt(h[16], 16) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Lower-case alphanumerics as Kubernetes uses for generated name suffixes (no vowels). */
export function podSuffix(label: string, length: number): string {
  const alphabet = "bcdfghjklmnpqrstvwxz2456789";
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(unit(`${label}:${i}`) * alphabet.length)];
  return out;
}

const durationCache = new Map<number, string>();

/** Go's metav1.Duration formatting for a few seconds, e.g. "2.818583s" or "1m4.25s". */
export function goDuration(ms: number): string {
  let text = durationCache.get(ms);
  if (text !== undefined) return text;
  if (ms < 1000) {
    text = `${+ms.toFixed(6)}ms`;
  } else {
    const totalSeconds = ms / 1000;
    const minutes = Math.floor(totalSeconds / 60);
    const seconds = +(totalSeconds - minutes * 60).toFixed(6);
    text = minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
  }
  if (durationCache.size > 10_000) durationCache.clear();
  durationCache.set(ms, text);
  return text;
}

const isoCache = new Map<number, string>();

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function iso(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  let text = isoCache.get(seconds);
  if (text === undefined) {
    text = new Date(seconds * 1000).toISOString().slice(0, 19) + "Z";
    if (isoCache.size > 50_000) isoCache.clear();
    isoCache.set(seconds, text);
  }
  return text;
}
