// Token buckets per key (client address: lib/http/forwarded.ts). In memory, per web replica: enough to stop a
// single client hammering sign-in or the webhook; a fleet-wide limit belongs to the ingress.

export interface RateLimit {
  /** Requests allowed in a burst. */
  capacity: number;
  /** Tokens added back per second. */
  refillPerSecond: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
  ) {}

  /** Takes one token; returns 0 when allowed, else the seconds to wait before retrying. */
  take(key: string): number {
    const t = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.capacity, updatedAt: t };
    bucket.tokens = Math.min(this.limit.capacity, bucket.tokens + ((t - bucket.updatedAt) / 1000) * this.limit.refillPerSecond);
    bucket.updatedAt = t;
    this.buckets.delete(key); // re-insert: Map order then tracks recency for eviction
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.buckets.set(key, bucket);
      this.evict();
      return 0;
    }
    this.buckets.set(key, bucket);
    this.evict();
    return Math.ceil((1 - bucket.tokens) / this.limit.refillPerSecond);
  }

  private evict(): void {
    while (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value;
      if (oldest === undefined) break;
      this.buckets.delete(oldest);
    }
  }
}
