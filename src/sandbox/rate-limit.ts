import { liveRateLimits, rateBucketOf, rateBuckets, type RateBucket, type RateLimitSpec } from '../shared/rate-buckets';

/**
 * The service's limit: at most `limit` requests per key in any rolling window. Only admitted
 * requests count; a refused one says how long until the oldest admitted request leaves it.
 */
export class RollingWindowLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly #hits = new Map<string, number[]>();

  constructor(limit: number, windowMs: number) {
    if (!(limit >= 1) || !(windowMs > 0)) throw new Error('rate limit needs a positive count and window');
    this.limit = limit;
    this.windowMs = windowMs;
  }

  /** Admits a request now, or says after how many whole seconds one would be admitted. */
  take(key: string, now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    let hits = this.#hits.get(key);
    if (!hits) {
      hits = [];
      this.#hits.set(key, hits);
    }
    const windowStart = now - this.windowMs;
    let expired = 0;
    while (expired < hits.length && hits[expired]! <= windowStart) expired++;
    if (expired > 0) hits.splice(0, expired);
    if (hits.length >= this.limit) {
      const waitMs = hits[0]! + this.windowMs - now;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    hits.push(now);
    return { ok: true };
  }
}

export type RateRefusal = { ok: false; retryAfterSeconds: number; bucket: RateBucket; limit: number; windowMs: number };

/**
 * The service's buckets (`shared/rate-buckets.ts`): one rolling window per (key, bucket). A
 * request counts in its own bucket only, so creating tracking requests or refreshing containers
 * never uses up the overall budget a sync reads with, nor the reverse.
 */
export class BucketedRateLimits {
  readonly #buckets: Record<RateBucket, RollingWindowLimiter>;

  /** `overall` is the sandbox's rate limit option; the others default to the live service's. */
  constructor(specs: Partial<Record<RateBucket, RateLimitSpec>> = {}) {
    const make = (bucket: RateBucket) => {
      const spec = specs[bucket] ?? liveRateLimits[bucket];
      return new RollingWindowLimiter(spec.limit, spec.windowSeconds * 1000);
    };
    this.#buckets = Object.fromEntries(rateBuckets.map((b) => [b, make(b)])) as Record<
      RateBucket,
      RollingWindowLimiter
    >;
  }

  bucket(name: RateBucket): RollingWindowLimiter {
    return this.#buckets[name];
  }

  /** Admits the request in its bucket now, or says which bucket is full and for how long. */
  take(key: string, method: string, pathname: string, now: number): { ok: true } | RateRefusal {
    const bucket = rateBucketOf(method, pathname);
    const limiter = this.#buckets[bucket];
    const taken = limiter.take(key, now);
    if (taken.ok) return taken;
    return { ...taken, bucket, limit: limiter.limit, windowMs: limiter.windowMs };
  }
}

/** Parses "100/60" (requests per seconds). */
export function parseRateLimit(spec: string): { limit: number; windowSeconds: number } {
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(spec);
  if (!match || Number(match[1]) < 1 || Number(match[2]) <= 0) {
    throw new Error(`rate limit "${spec}" must look like 100/60 (requests per seconds)`);
  }
  return { limit: Number(match[1]), windowSeconds: Number(match[2]) };
}
