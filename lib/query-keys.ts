// Query keys for live islands, from one factory so invalidation and polling agree.
export const queryKeys = {
  freshness: () => ["freshness"] as const,
  fleet: (queryString: string) => ["fleet", queryString] as const,
  failures: (queryString: string) => ["failures", queryString] as const,
  cluster: (cluster: string) => ["cluster", cluster] as const,
  object: (cluster: string, kind: string, namespace: string, name: string) => ["object", cluster, kind, namespace, name] as const,
};
