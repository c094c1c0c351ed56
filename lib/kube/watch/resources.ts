// What one cluster's session watches by default: each Flux kind at its served version, the Argo CD kinds
// where discovery says they are served (most spokes run no Argo CD), nodes (kubelet upgrades, NotReady)
// and Warning Events (one `type=Warning` watch filtered on our side: a field selector cannot say
// "involvedObject.kind is one of …"). Eight streams on one connection, ten where Argo CD runs.
import { COLLECTED_KINDS } from "../kinds";
import type { CollectedKind } from "../types";
import type { WatchResource } from "./resource-watch";

/**
 * `servedVersions` picks a version per kind (from discovery); unlisted Flux kinds get the newest we
 * understand, unlisted Argo CD kinds are not watched.
 */
export function clusterWatchResources(servedVersions: Partial<Record<CollectedKind, string>> = {}): WatchResource[] {
  return [
    ...COLLECTED_KINDS.filter((k) => k.engine === "flux" || servedVersions[k.kind]).map(({ kind, group, plural, versions }) => ({
      group,
      version: servedVersions[kind] ?? versions[0],
      plural,
      kind,
    })),
    { group: "", version: "v1", plural: "nodes", kind: "Node" },
    { group: "", version: "v1", plural: "events", kind: "Event", fieldSelector: "type=Warning" },
  ];
}
