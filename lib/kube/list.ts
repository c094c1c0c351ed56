// LIST with pagination (limit + continue). A continue token that expired mid-list (410 Expired) restarts
// the list from the beginning, as the API server asks; a second expiry in a row is reported.
import { ClusterRequestError } from "./errors";
import type { KubeReader } from "./client";

export interface ListOptions {
  /** Page size. */
  limit?: number;
  fieldSelector?: string;
  labelSelector?: string;
  /** Restarts allowed after 410 Expired. */
  restarts?: number;
}

interface ListPage {
  metadata?: { continue?: string; resourceVersion?: string };
  items?: Record<string, unknown>[];
}

/** Every item of a list endpoint, e.g. `/apis/kustomize.toolkit.fluxcd.io/v1/kustomizations`. */
export async function listAll(client: KubeReader, path: string, options: ListOptions = {}): Promise<Record<string, unknown>[]> {
  const limit = options.limit ?? 500;
  let restarts = options.restarts ?? 2;
  for (;;) {
    const items: Record<string, unknown>[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await client.getJson<ListPage>(path, {
          limit,
          continue: token,
          fieldSelector: options.fieldSelector,
          labelSelector: options.labelSelector,
        });
        for (const item of page?.items ?? []) items.push(item);
        token = page?.metadata?.continue || undefined;
      } while (token);
      return items;
    } catch (err) {
      if (err instanceof ClusterRequestError && err.status === 410 && restarts-- > 0) continue;
      throw err;
    }
  }
}
