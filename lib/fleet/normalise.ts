// Failure messages normalised so that the same error in many clusters reads the same: Git revisions,
// digests, hashes, UIDs, durations, temporary paths, pod name suffixes, versions and numbers become
// placeholders. The order matters: the wider patterns go first so a revision is not eaten digit by digit.
// Health-check resource lists, whose order changes on every retry, are sorted.

const RULES: Array<[RegExp, string]> = [
  // RFC 3339 timestamps
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, "<time>"],
  // UIDs
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uid>"],
  // Flux revisions: main@sha1:<hex>, v1.2.3@sha256:<hex>, sha256:<hex>, and the pre-2.0 main/<40 hex>
  [/[\w.\/+-]*@(?:sha1|sha256|sha384|sha512|blake3):[0-9a-f]+/gi, "<revision>"],
  [/\b(?:sha1|sha256|sha384|sha512|blake3):[0-9a-f]{7,}\b/gi, "<digest>"],
  [/[\w.-]+\/[0-9a-f]{40}\b/g, "<revision>"],
  // IPv4 addresses with optional port
  [/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, "<ip>"],
  // Semantic versions, with pre-release and build metadata ("3.20.0+5c938ddd1547", "v1.33.4-eks-1")
  [/\bv?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?\b/g, "<version>"],
  // Helm release versions in release names: monitoring/kube-prometheus-stack.v12
  [/\.v\d+\b/g, ".v<n>"],
  // Go durations: 5m0.04s, 176.163666ms, 10m0s, 30s, 1h
  [/\b(?:\d+(?:\.\d+)?(?:h|ms|m|s|µs|us|ns))+\b/g, "<duration>"],
  // Pod names: <deployment>-<replicaset hash>-<5 chars> and <name>-<5 chars with a digit>
  [/-(?=[a-z]*\d)[a-z0-9]{8,10}-[a-z0-9]{5}\b/g, "-<pod>"],
  [/-(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{5}\b/g, "-<pod>"],
  // Bare hashes: 7+ hex characters with at least one digit and one letter (so plain words and numbers stay)
  [/\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi, "<hash>"],
  // Remaining numbers (temporary folders, line numbers, counts)
  [/\b\d+\b/g, "<n>"],
];

/**
 * The resource lists of kustomize-controller's and helm-controller's health checks (fluxcd/pkg ssa): `timeout
 * waiting for: [<Kind>/<ns>/<name> status: '<status>', …]` and `failed early due to stalled resources: […]`.
 * The list is built from a Go map, so each retry orders it anew.
 */
const RESOURCE_LIST_RE = /(timeout waiting for|failed early due to stalled resources): \[/g;

/** `<Kind>/<namespace>/<name> status: '<status>'` (cluster-scoped: `<Kind>/<name>`). */
const RESOURCE_ENTRY_RE = /^([^/\s]+)\/\S+ status: '([^']*)'$/;

/**
 * Each resource list as its entries sorted, repeats (entries that read the same once normalised) once. A
 * list cut off by Flux's 32 KiB trimming (the message ends in "...", the list has no closing "]") is a
 * different sample of the same list on each retry, so it reads as the kinds and statuses it holds, then
 * "…"; its last entry may be cut in half and is left out.
 */
function canonicalResourceLists(text: string): string {
  let out = "";
  let from = 0;
  for (const m of text.matchAll(RESOURCE_LIST_RE)) {
    const start = m.index + m[0].length;
    if (start < from) continue;
    const close = text.indexOf("]", start);
    const trimmed = close < 0;
    let entries = text.slice(start, trimmed ? text.length : close).split(", ");
    if (trimmed) {
      entries = entries.slice(0, -1).map((e) => {
        const parsed = RESOURCE_ENTRY_RE.exec(e);
        return parsed ? `${parsed[1]} status: '${parsed[2]}'` : e;
      });
      if (!entries.length) continue;
    }
    const sorted = [...new Set(entries)].sort();
    out += text.slice(from, start) + sorted.join(", ") + (trimmed ? ", …]" : "]");
    from = trimmed ? text.length : close + 1;
  }
  return out + text.slice(from);
}

export function normaliseMessage(message: string | null | undefined): string {
  if (!message) return "";
  let text = message;
  for (const [pattern, replacement] of RULES) text = text.replace(pattern, replacement);
  text = text.replace(/\s+/g, " ").trim();
  return text.includes(": [") ? canonicalResourceLists(text) : text;
}
