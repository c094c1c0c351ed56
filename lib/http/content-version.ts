// A version of what a page shows, so an open page can ask "has anything changed?" cheaply: the JSON route
// answers 304 Not Modified while the version is the same, and the page re-renders every section when it
// is not (one version per page, so the status, conditions, timeline and events can never disagree).
import { createHash } from "node:crypto";

/**
 * Keys that change on every read without anything a person would call a change: the time of the answer
 * and durations counted from now. The page shows those from the browser's clock instead.
 */
const VOLATILE_KEYS = ["generatedAt", "failingForSeconds", "waitingForSeconds"] as const;

/**
 * An object page does not show when its cluster was last polled (only whether it is reachable), so a
 * poll that changes nothing else does not re-render it.
 */
export const OBJECT_VOLATILE_KEYS = [...VOLATILE_KEYS, "lastSuccessAt", "lastErrorAt"] as const;

/**
 * A weak ETag of `value` without `ignore`d keys (at any depth). Two reads of unchanged data give the
 * same version; any other difference (a condition, a timeline entry, an Event count) gives another.
 */
export function contentVersion(value: unknown, ignore: readonly string[] = VOLATILE_KEYS): string {
  const skip = new Set(ignore);
  const text = JSON.stringify(value, (key, v: unknown) => (skip.has(key) ? undefined : v));
  return `W/"${createHash("sha256")
    .update(text ?? "")
    .digest("base64url")
    .slice(0, 27)}"`;
}

/** True when the request already holds `version` (If-None-Match, weak comparison as RFC 9110 says). */
export function holdsVersion(request: Request, version: string): boolean {
  const header = request.headers.get("if-none-match");
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(version));
}

/** `data` as JSON with its version as ETag, or 304 without a body when the caller has that version. */
export function versionedJson(request: Request, data: unknown, ignore: readonly string[] = VOLATILE_KEYS): Response {
  const version = contentVersion(data, ignore);
  const headers = { etag: version, "cache-control": "no-cache" };
  if (holdsVersion(request, version)) return new Response(null, { status: 304, headers });
  return Response.json(data, { headers });
}
