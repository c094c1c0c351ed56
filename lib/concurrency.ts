// Bounded concurrency, the one helper for it: the collector's poll loop, discovery and the upstream
// chart reads all use it.

/**
 * Runs `fn` over `items`, started in order, with at most `limit` calls in flight. Rejects with the first
 * error; the other workers still finish the items they hold and the rest of the list.
 */
export async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
