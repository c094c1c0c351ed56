// Query keys for live islands, from one factory so invalidation and polling agree.
export const queryKeys = {
  freshness: () => ["freshness"] as const,
};
