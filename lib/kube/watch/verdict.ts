// When does a cluster's watching "keep failing", so that the collector should poll it instead, and why?
// Pure: fed the outcomes of one resource's watch attempts since its last good one.
//
// An attempt is good when the server ended it at the timeout we asked for (or we closed it ourselves:
// stop, periodic relist). A 410 is not a failure (a relist follows) unless it comes on the first watch after
// the list that gave the resourceVersion (a loop). Failures that also stop lists (connection refused, TLS, DNS, 401/403)
// mean the cluster is unreachable: polling would not help either, so they never make a verdict and do
// not count towards one. What remains are failures of watching itself:
//
// | rule | after | reason |
// |---|---|---|
// | the server answers a watch with 405 or 501 while its list works | 1 attempt | watch-unsupported |
// | 403 on a watch while the list of the same resource works (RBAC without the watch verb) | 1 attempt | watch-forbidden |
// | the stream ends cleanly within 1 s, nothing delivered | 3 in a row | watch-unsupported |
// | the stream is cut (clean end or reset) before its timeout, at about the same age (±25 %) | 3 in a row | cut-long-requests |
// | no response headers within the request deadline | 3 in a row | no-response |
// | 410 on the first watch after the list that gave the resourceVersion | 3 in a row | expire-loop |
// | any mix of the above or other watch errors (5xx, ERROR events, idle streams) | 5 in a row | keeps-failing |

export type FallbackReason =
  "watch-unsupported" | "watch-forbidden" | "cut-long-requests" | "no-response" | "expire-loop" | "keeps-failing";

export type AttemptOutcome =
  /** non-200 answer to the watch request itself */
  | { kind: "rejected"; status: number; message: string }
  /** the stream ended cleanly (chunked terminator / END_STREAM) before the timeout we asked for */
  | { kind: "ended-early"; ageMs: number; delivered: number }
  /** the connection or stream broke after the headers */
  | { kind: "broken"; ageMs: number; message: string }
  /** no response headers within the request deadline */
  | { kind: "no-headers"; timeoutMs: number }
  /** 410 right after a list */
  | { kind: "expired-at-once"; message: string }
  /** nothing arrived for longer than the stream may stay silent */
  | { kind: "idle"; silentMs: number }
  /** an ERROR event other than 410 */
  | { kind: "error-event"; message: string };

export interface Verdict {
  reason: FallbackReason;
  /** One line for the cluster page and /metrics. */
  detail: string;
}

export const VERDICT_RULES = {
  endsAtOnceMs: 1000,
  endsAtOnceAttempts: 3,
  cutAttempts: 3,
  cutAgeTolerance: 0.25,
  noHeadersAttempts: 3,
  expireLoopAttempts: 3,
  anyFailureAttempts: 5,
} as const;

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Failed attempts in a row (oldest first) → a verdict, or null while watching should go on. */
export function watchVerdict(failures: readonly AttemptOutcome[]): Verdict | null {
  const last = failures.at(-1);
  if (!last) return null;
  if (last.kind === "rejected" && (last.status === 405 || last.status === 501)) {
    return { reason: "watch-unsupported", detail: `the server does not support watch (HTTP ${last.status}: ${last.message})` };
  }
  if (last.kind === "rejected" && last.status === 403) {
    return { reason: "watch-forbidden", detail: `the credentials may list but not watch (${last.message})` };
  }
  const tail = (n: number) => (failures.length >= n ? failures.slice(-n) : null);

  const endsAtOnce = tail(VERDICT_RULES.endsAtOnceAttempts);
  if (endsAtOnce?.every((f) => f.kind === "ended-early" && f.ageMs < VERDICT_RULES.endsAtOnceMs && f.delivered === 0)) {
    return { reason: "watch-unsupported", detail: "the server ends every watch at once without an event (no watch support)" };
  }

  const cut = tail(VERDICT_RULES.cutAttempts);
  if (cut?.every((f) => (f.kind === "ended-early" || f.kind === "broken") && f.ageMs >= VERDICT_RULES.endsAtOnceMs)) {
    const ages = cut.map((f) => (f as { ageMs: number }).ageMs);
    const typical = median(ages);
    if (ages.every((age) => Math.abs(age - typical) <= typical * VERDICT_RULES.cutAgeTolerance)) {
      return {
        reason: "cut-long-requests",
        detail: `something between us and the server cuts long requests after about ${seconds(typical)}`,
      };
    }
  }

  const noHeaders = tail(VERDICT_RULES.noHeadersAttempts);
  if (noHeaders?.every((f) => f.kind === "no-headers")) {
    return {
      reason: "no-response",
      detail: `watch responses never start within ${seconds(last.kind === "no-headers" ? last.timeoutMs : 0)} (a proxy buffering responses?)`,
    };
  }

  const expiring = tail(VERDICT_RULES.expireLoopAttempts);
  if (expiring?.every((f) => f.kind === "expired-at-once")) {
    return {
      reason: "expire-loop",
      detail: `every watch expires right after its list (${last.kind === "expired-at-once" ? last.message : ""})`,
    };
  }

  if (failures.length >= VERDICT_RULES.anyFailureAttempts) {
    return { reason: "keeps-failing", detail: `${failures.length} watch attempts in a row failed; last: ${describeOutcome(last)}` };
  }
  return null;
}

export function describeOutcome(outcome: AttemptOutcome): string {
  switch (outcome.kind) {
    case "rejected":
      return `HTTP ${outcome.status}: ${outcome.message}`;
    case "ended-early":
      return `the server ended the watch after ${seconds(outcome.ageMs)}, before its timeout`;
    case "broken":
      return `${outcome.message} after ${seconds(outcome.ageMs)}`;
    case "no-headers":
      return `no response within ${seconds(outcome.timeoutMs)}`;
    case "expired-at-once":
      return `expired right after the list: ${outcome.message}`;
    case "idle":
      return `nothing received for ${seconds(outcome.silentMs)}`;
    case "error-event":
      return `ERROR event: ${outcome.message}`;
  }
}
