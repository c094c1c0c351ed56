// What a change event on the live stream says and which pages it concerns (pure: the server formats it, the
// browser reads it). A change names the clusters whose stored data moved; "*" means anything may have
// changed (fleet-wide data, a list too long for one notification, or a LISTEN connection that came back).

export const ANY_CLUSTER = "*";

/** The clusters a collector notification names ("a,b", "*"); an empty payload is read as "anything". */
export function clustersOfPayload(payload: string): string[] {
  const names = [...new Set(payload.split(",").map((n) => n.trim()))].filter(Boolean);
  return names.length && !names.includes(ANY_CLUSTER) ? names : [ANY_CLUSTER];
}

/** One Server-Sent Event: `event:` line, one `data:` line of JSON, a blank line. */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Reads the data of a `change` or `reconnect` event; anything unreadable counts as "anything changed". */
export function clustersOfEvent(data: string): string[] {
  try {
    const parsed: unknown = JSON.parse(data);
    const clusters = (parsed as { clusters?: unknown }).clusters;
    if (Array.isArray(clusters) && clusters.length && clusters.every((c) => typeof c === "string")) return clusters as string[];
  } catch {
    // fall through
  }
  return [ANY_CLUSTER];
}

/** A page about one cluster cares about its own changes and fleet-wide ones; the fleet and /failures about any. */
export function concernsCluster(changed: readonly string[], cluster: string): boolean {
  return changed.includes(ANY_CLUSTER) || changed.includes(cluster);
}

/**
 * /failures filtered by cluster (`cluster=` matches names containing it, any case) cares about changes to the
 * clusters it matches and fleet-wide ones: an object's root causes are in its own cluster, and the
 * cluster-level facts another cluster holds (Crossplane's) are notified as fleet-wide. Unfiltered: any change.
 */
export function concernsClusterFilter(changed: readonly string[], filter: string | undefined): boolean {
  if (!filter || changed.includes(ANY_CLUSTER)) return true;
  const text = filter.toLowerCase();
  return changed.some((name) => name.toLowerCase().includes(text));
}
