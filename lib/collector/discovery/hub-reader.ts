// What discovery reads from the hub: whole lists and single objects. In poll mode every list is a
// paginated LIST each cycle; in watch mode (watched-hub.ts) a watch keeps a copy of each list.
import type { KubeReader } from "../../kube/client";
import { listAll, type ListOptions } from "../../kube/list";
import type { Raw } from "../../kube/raw";

export interface HubReader extends KubeReader {
  /** Every item of a list endpoint, e.g. `/api/v1/namespaces/crossplane-system/secrets`. */
  list(path: string, options?: Pick<ListOptions, "labelSelector">): Promise<Raw[]>;
  /**
   * Moves whenever what `list` answers may have changed since it was last read. Undefined when lists are
   * read afresh every time: then no answer computed from them can be reused.
   */
  readonly generation?: number;
}

/** Lists read afresh, page by page, every time. */
export function listingHub(client: KubeReader): HubReader {
  return {
    get server() {
      return client.server;
    },
    get requests() {
      return client.requests;
    },
    getJson<T>(path: string, query?: Record<string, string | number | undefined>) {
      return client.getJson<T>(path, query);
    },
    list: (path, options) => listAll(client, path, options),
  };
}

/**
 * Secrets with a label, in every namespace or only in `namespaces` (where RBAC lets the collector read
 * Secrets). A namespace that cannot be listed is reported through `failed` and the others still count.
 */
export async function labelledSecrets(
  hub: HubReader,
  labelSelector: string,
  namespaces: readonly string[],
  failed: (where: string, err: unknown) => void,
): Promise<Raw[]> {
  if (!namespaces.length) {
    try {
      return await hub.list(`/api/v1/secrets`, { labelSelector });
    } catch (err) {
      failed("every namespace", err);
      return [];
    }
  }
  const items: Raw[] = [];
  for (const namespace of namespaces) {
    try {
      items.push(...(await hub.list(`/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`, { labelSelector })));
    } catch (err) {
      failed(namespace, err);
    }
  }
  return items;
}
