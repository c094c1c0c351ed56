// What the engine remembers of each object (its resourceVersion and uid, never the object: a thousand
// clusters of full objects would not fit the memory budget) and how a fresh list is reconciled against it.
// An object is reported only when its resourceVersion moved, so a relist after a 410 or a periodic relist
// reports exactly what changed while nobody was watching, and nothing twice.
import { isRaw, type Raw, str } from "../raw";
import { objectKeyOf } from "./wire";

export interface KnownObject {
  resourceVersion: string;
  uid: string | null;
}

/**
 * Per key, the resourceVersion, a space and the uid (empty when unknown; a uid never holds a space), as one
 * flat string: an object holding two strings cost three heap objects per Kubernetes object (150,000 at 1,000
 * clusters), each one more for the garbage collector to trace.
 */
export type KnownObjects = Map<string, string>;

export function packKnown(resourceVersion: string, uid: string | null): string {
  return [resourceVersion, uid ?? ""].join(" ");
}

export function unpackKnown(packed: string): KnownObject {
  const space = packed.lastIndexOf(" ");
  return { resourceVersion: packed.slice(0, space), uid: packed.slice(space + 1) || null };
}

/** Whether a packed entry holds this resourceVersion (without unpacking it: this runs for every watch event). */
export function holdsResourceVersion(packed: string | undefined, resourceVersion: string): boolean {
  return packed !== undefined && packed.lastIndexOf(" ") === resourceVersion.length && packed.startsWith(resourceVersion);
}

export type ReconciledChange =
  | { type: "added" | "modified"; key: string; object: Raw; known: KnownObject }
  /** Gone from the list: `object` is a stub with what we still know (apiVersion, kind, name, namespace, uid). */
  | { type: "deleted"; key: string; object: Raw };

export function knownOf(object: Raw): KnownObject {
  const metadata = isRaw(object.metadata) ? object.metadata : {};
  return { resourceVersion: str(metadata.resourceVersion) ?? "", uid: str(metadata.uid) };
}

/** What is left of a deleted object we only know by key: enough for the consumer to find its row. */
export function deletedStub(key: string, known: KnownObject, typeMeta: { apiVersion: string; kind: string }): Raw {
  const slash = key.indexOf("/");
  const metadata: Raw = slash >= 0 ? { namespace: key.slice(0, slash), name: key.slice(slash + 1) } : { name: key };
  if (known.uid) metadata.uid = known.uid;
  metadata.resourceVersion = known.resourceVersion;
  return { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind, metadata };
}

/**
 * The changes that turn `known` into the listed `items`: new keys are added, a moved resourceVersion is
 * modified, a new uid under the same name is a deletion and an addition (the object was recreated), and
 * keys missing from the list are deleted. `known` is updated in place to match the list.
 */
export function reconcileList(known: KnownObjects, items: Raw[], typeMeta: { apiVersion: string; kind: string }): ReconciledChange[] {
  const changes: ReconciledChange[] = [];
  const seen = new Set<string>();
  for (const object of items) {
    const key = objectKeyOf(object);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    const next = knownOf(object);
    const packed = known.get(key);
    if (holdsResourceVersion(packed, next.resourceVersion)) {
      if (next.uid && unpackKnown(packed!).uid === null) known.set(key, packKnown(next.resourceVersion, next.uid)); // seeded from the consumer without one
      continue;
    }
    const before = packed === undefined ? undefined : unpackKnown(packed);
    if (before && before.uid && next.uid && before.uid !== next.uid) {
      changes.push({ type: "deleted", key, object: deletedStub(key, before, typeMeta) });
      changes.push({ type: "added", key, object, known: next });
    } else {
      changes.push({ type: before ? "modified" : "added", key, object, known: next });
    }
    known.set(key, packKnown(next.resourceVersion, next.uid));
  }
  for (const [key, packed] of known) {
    if (seen.has(key)) continue;
    changes.push({ type: "deleted", key, object: deletedStub(key, unpackKnown(packed), typeMeta) });
    known.delete(key);
  }
  return changes;
}
