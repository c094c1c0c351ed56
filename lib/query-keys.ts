// Query keys for live islands, from one factory so invalidation and polling agree.
export const queryKeys = {
  freshness: () => ["freshness"] as const,
  fleet: (queryString: string) => ["fleet", queryString] as const,
  failures: (queryString: string) => ["failures", queryString] as const,
  /** The version (ETag) of what a server-rendered page shows, polled by its live island. */
  pageVersion: (apiPath: string) => ["page-version", apiPath] as const,
};
