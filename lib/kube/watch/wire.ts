// What a watch stream and a list page look like on the wire, checked at the boundary. A watch answers
// `200` and then one JSON object per line: {"type":"ADDED|MODIFIED|DELETED|BOOKMARK|ERROR","object":{…}}.
// A too-old resourceVersion is, on kube-apiserver 1.26 and later, `200` followed by one ERROR line whose
// object is a Status with code 410 and one of two messages: "too old resource version: 5 (294)" when the
// watch cache answers, "The resourceVersion for the provided watch is too old." when etcd does (Events,
// which have no watch cache). Older servers and some proxies answer an HTTP 410 instead; both mean "list
// again".
import { isRaw, type Raw, str } from "../raw";

// Checked by hand, not with a schema: a schema's record parse copies every object it checks, and a watch
// session reads thousands of lines a minute (bookmarks, mostly) and every list item at start.
const WATCH_TYPES = new Set(["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"]);

export type ChangeType = "ADDED" | "MODIFIED" | "DELETED";

export type DecodedLine =
  | { kind: "change"; type: ChangeType; object: Raw; key: string; resourceVersion: string; uid: string | null }
  | { kind: "bookmark"; resourceVersion: string }
  /** The resourceVersion we resumed from is gone: list again. */
  | { kind: "expired"; message: string }
  /** Any other ERROR event (e.g. 500 from etcd): the stream ends, resume from the last resourceVersion. */
  | { kind: "error"; code: number | null; message: string }
  | { kind: "invalid"; detail: string };

/** `namespace/name`, or `name` for cluster-scoped objects. */
export function objectKeyOf(object: Raw): string | null {
  const metadata = isRaw(object.metadata) ? object.metadata : {};
  const name = str(metadata.name);
  if (!name) return null;
  const namespace = str(metadata.namespace);
  // join: one flat string, not a concatenation tree (the engine keeps a key per object).
  return namespace ? [namespace, name].join("/") : name;
}

/** A Status (or a status-like body) that says the resourceVersion is too old. */
export function isTooOldStatus(status: unknown): boolean {
  if (!isRaw(status)) return false;
  return status.code === 410 || status.reason === "Expired" || status.reason === "Gone";
}

/** Drops `metadata.managedFields` (large, never used) in place. */
export function stripManagedFields(object: Raw): Raw {
  if (isRaw(object.metadata) && "managedFields" in object.metadata) delete object.metadata.managedFields;
  return object;
}

/**
 * A custom resource's bookmark exactly as kube-apiserver writes it (an unstructured object, keys sorted,
 * nothing but the resourceVersion). Most lines a watching collector reads are these, a hundred a second at
 * 1,000 clusters; JSON.parse of each (its keys internalized, its objects built) showed in idle profiles only
 * to read one field. The whole line is matched, so anything else (a built-in kind's typed bookmark,
 * annotations, a line cut short) is parsed and checked as below.
 */
const CUSTOM_RESOURCE_BOOKMARK =
  /^\{"type":"BOOKMARK","object":\{"apiVersion":"[\w./-]+","kind":"\w+","metadata":\{"resourceVersion":"(\d{1,20})"\}\}\}$/;

export function decodeWatchLine(line: string): DecodedLine {
  const bookmark = CUSTOM_RESOURCE_BOOKMARK.exec(line);
  if (bookmark) return { kind: "bookmark", resourceVersion: bookmark[1] };
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { kind: "invalid", detail: `a watch line is not JSON (${line.length} bytes)` };
  }
  if (!isRaw(json) || typeof json.type !== "string" || !WATCH_TYPES.has(json.type) || !isRaw(json.object))
    return { kind: "invalid", detail: "a watch line is not a watch event" };
  const type = json.type as ChangeType | "BOOKMARK" | "ERROR";
  const object = json.object;
  if (type === "ERROR") {
    const message = str(object.message) ?? "watch error";
    if (isTooOldStatus(object)) return { kind: "expired", message };
    return { kind: "error", code: typeof object.code === "number" ? object.code : null, message };
  }
  const metadata = isRaw(object.metadata) ? object.metadata : {};
  const resourceVersion = str(metadata.resourceVersion);
  if (!resourceVersion) return { kind: "invalid", detail: `a ${type} event without metadata.resourceVersion` };
  if (type === "BOOKMARK") return { kind: "bookmark", resourceVersion };
  const key = objectKeyOf(object);
  if (!key) return { kind: "invalid", detail: `a ${type} event without metadata.name` };
  return { kind: "change", type, object: stripManagedFields(object), key, resourceVersion, uid: str(metadata.uid) };
}

/**
 * Splits a stream of UTF-8 bytes into lines; a partial last line waits for the next chunk. It works on bytes
 * rather than on a stream set to decode (which runs every chunk through a StringDecoder, a call per watch
 * frame): a newline byte never occurs inside a multi-byte character, so whole lines are decoded, once each.
 */
export class LineSplitter {
  private rest: Buffer[] = [];

  push(chunk: Buffer, onLine: (line: string) => void): void {
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE); at >= 0; at = chunk.indexOf(NEWLINE, start)) {
      let line: string;
      if (this.rest.length) {
        this.rest.push(chunk.subarray(start, at));
        line = Buffer.concat(this.rest).toString("utf8");
        this.rest = [];
      } else {
        line = chunk.toString("utf8", start, at);
      }
      start = at + 1;
      line = line.trim();
      if (line) onLine(line);
    }
    if (start < chunk.length) this.rest.push(start ? chunk.subarray(start) : chunk);
  }

  /** Characters (besides white space) of an unfinished line: a stream that ends with some is truncated. */
  get pending(): number {
    return this.rest.length ? Buffer.concat(this.rest).toString("utf8").trim().length : 0;
  }
}

const NEWLINE = 0x0a;

export interface ListPage {
  resourceVersion: string | null;
  continueToken: string | null;
  items: Raw[];
}

export function decodeListPage(body: unknown): ListPage {
  const metadata = isRaw(body) ? body.metadata : undefined;
  const items = isRaw(body) ? (body.items ?? []) : undefined;
  if (
    !isRaw(body) ||
    (metadata !== undefined && !isRaw(metadata)) ||
    !Array.isArray(items) ||
    !items.every(isRaw) ||
    !optionalString(body.apiVersion) ||
    !optionalString(body.kind) ||
    !optionalString(metadata?.resourceVersion) ||
    !optionalString(metadata?.continue)
  )
    throw new Error("the list response is not a Kubernetes list");
  const apiVersion = str(body.apiVersion);
  const kind = str(body.kind);
  // Items of core lists carry no apiVersion/kind on the wire; watch events do. Give both the same shape.
  const itemKind = kind?.endsWith("List") ? kind.slice(0, -4) : undefined;
  for (const item of items) {
    if (item.apiVersion === undefined && apiVersion) item.apiVersion = apiVersion;
    if (item.kind === undefined && itemKind) item.kind = itemKind;
    stripManagedFields(item);
  }
  return { resourceVersion: str(metadata?.resourceVersion), continueToken: str(metadata?.continue), items };
}

const optionalString = (v: unknown) => v === undefined || typeof v === "string";
