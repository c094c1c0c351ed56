// JSON merge patch (RFC 7386) and JSON patch (RFC 6902): what kubectl, the flux CLI and client-node send.
import { badRequest, KubeError } from "./status";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (value: unknown): value is Record<string, Json> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Applies a merge patch; returns a new value and never mutates its inputs. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

/** One merge patch with the effect of applying `first` and then `second`. */
export function composeMergePatches(first: unknown, second: unknown): unknown {
  if (!isObject(second)) return structuredClone(second);
  // (A scalar `first` followed by an object `second` is approximated by `second`; overlays never do that.)
  if (!isObject(first)) return structuredClone(second);
  const result: Record<string, unknown> = { ...first };
  for (const [key, value] of Object.entries(second)) {
    result[key] = isObject(value) && isObject(first[key]) ? composeMergePatches(first[key], value) : structuredClone(value);
  }
  return result;
}

/** The merge patch that turns `from` into `to` (undefined when they are equal). */
export function diffAsMergePatch(from: unknown, to: unknown): unknown {
  if (isObject(from) && isObject(to)) {
    const patch: Record<string, unknown> = {};
    for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
    for (const [key, value] of Object.entries(to)) {
      const delta = key in from ? diffAsMergePatch(from[key], value) : structuredClone(value);
      if (delta !== undefined) patch[key] = delta;
    }
    return Object.keys(patch).length ? patch : undefined;
  }
  return JSON.stringify(from) === JSON.stringify(to) ? undefined : structuredClone(to);
}

// --- RFC 6902 ---------------------------------------------------------------------------------------

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

function pointer(path: string): string[] {
  if (path === "") return [];
  if (!path.startsWith("/")) throw badRequest(`the server rejected our request due to an error in our request`);
  return path
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function resolveParent(document: unknown, tokens: string[], path: string): { parent: Record<string, unknown> | unknown[]; key: string } {
  let node = document;
  for (const token of tokens.slice(0, -1)) {
    node = Array.isArray(node) ? node[Number(token)] : isObject(node) ? node[token] : undefined;
    if (node === undefined) throw unprocessable(`doc is missing path: "${path}": missing value`);
  }
  if (!Array.isArray(node) && !isObject(node)) throw unprocessable(`doc is missing path: "${path}": missing value`);
  return { parent: node, key: tokens[tokens.length - 1] };
}

const unprocessable = (message: string) => new KubeError(422, "Invalid", message);

function getAt(document: unknown, path: string): unknown {
  let node = document;
  for (const token of pointer(path)) {
    node = Array.isArray(node) ? node[Number(token)] : isObject(node) ? node[token] : undefined;
    if (node === undefined) throw unprocessable(`doc is missing path: "${path}": missing value`);
  }
  return node;
}

function removeAt(document: unknown, path: string): unknown {
  const { parent, key } = resolveParent(document, pointer(path), path);
  if (Array.isArray(parent)) {
    const index = Number(key);
    if (!(index >= 0 && index < parent.length)) throw unprocessable(`doc is missing path: "${path}": missing value`);
    return parent.splice(index, 1)[0];
  }
  if (!(key in parent)) throw unprocessable(`doc is missing path: "${path}": missing value`);
  const value = parent[key];
  delete parent[key];
  return value;
}

function addAt(document: unknown, path: string, value: unknown, replace: boolean): unknown {
  const tokens = pointer(path);
  if (tokens.length === 0) return structuredClone(value);
  const { parent, key } = resolveParent(document, tokens, path);
  if (Array.isArray(parent)) {
    const index = key === "-" ? parent.length : Number(key);
    if (!(index >= 0 && index <= parent.length)) throw unprocessable(`add operation does not apply: doc is missing path: "${path}"`);
    if (replace) parent[index] = structuredClone(value);
    else parent.splice(index, 0, structuredClone(value));
  } else {
    if (replace && !(key in parent)) throw unprocessable(`replace operation does not apply: doc is missing key: ${path}: missing value`);
    parent[key] = structuredClone(value);
  }
  return document;
}

export function applyJsonPatch(target: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw badRequest("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
  let document = structuredClone(target);
  for (const raw of operations as Operation[]) {
    if (!isObject(raw) || typeof raw.op !== "string" || typeof raw.path !== "string") {
      throw badRequest("the server rejected our request due to an error in our request");
    }
    switch (raw.op) {
      case "add":
        document = addAt(document, raw.path, raw.value, false);
        break;
      case "replace":
        document = addAt(document, raw.path, raw.value, true);
        break;
      case "remove":
        removeAt(document, raw.path);
        break;
      case "move": {
        const value = removeAt(document, raw.from ?? "");
        document = addAt(document, raw.path, value, false);
        break;
      }
      case "copy":
        document = addAt(document, raw.path, getAt(document, raw.from ?? ""), false);
        break;
      case "test":
        if (JSON.stringify(getAt(document, raw.path)) !== JSON.stringify(raw.value)) {
          throw unprocessable(`testing value ${raw.path} failed: test failed`);
        }
        break;
      default:
        throw badRequest(`Unexpected kind: ${raw.op}`);
    }
  }
  return document;
}
