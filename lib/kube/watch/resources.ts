// What one cluster's session watches by default: each Flux kind at its served version, nodes (kubelet
// upgrades, NotReady) and Warning Events (one `type=Warning` watch filtered on our side: a field selector
// cannot say "involvedObject.kind is one of …"). Eight streams on one connection.
import { FLUX_KINDS } from "../flux";
import type { FluxKind } from "../types";
import type { WatchResource } from "./resource-watch";

/** `servedVersions` picks a version per kind (from discovery); unlisted kinds get the newest we understand. */
export function clusterWatchResources(servedVersions: Partial<Record<FluxKind, string>> = {}): WatchResource[] {
  return [
    ...FLUX_KINDS.map(({ kind, group, plural, versions }) => ({ group, version: servedVersions[kind] ?? versions[0], plural, kind })),
    { group: "", version: "v1", plural: "nodes", kind: "Node" },
    { group: "", version: "v1", plural: "events", kind: "Event", fieldSelector: "type=Warning" },
  ];
}
