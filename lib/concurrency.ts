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

/**
 * Jobs run in the order given, at most `limit` at a time. While held, queued jobs wait (the collector holds
 * its facts reads while a cold start lists the fleet, so objects come first). `pending` counts queued and
 * running jobs.
 */
export class JobQueue {
  private running = 0;
  private held = false;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  run<T>(job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push(() => {
        this.running++;
        job()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            this.next();
          });
      });
      this.next();
    });
  }

  hold(): void {
    this.held = true;
  }

  release(): void {
    this.held = false;
    this.next();
  }

  get pending(): number {
    return this.running + this.waiting.length;
  }

  private next(): void {
    while (!this.held && this.running < this.limit && this.waiting.length) this.waiting.shift()!();
  }
}
