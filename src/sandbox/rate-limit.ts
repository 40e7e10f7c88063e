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

/** Parses "100/60" (requests per seconds). */
export function parseRateLimit(spec: string): { limit: number; windowSeconds: number } {
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(spec);
  if (!match || Number(match[1]) < 1 || Number(match[2]) <= 0) {
    throw new Error(`rate limit "${spec}" must look like 100/60 (requests per seconds)`);
  }
  return { limit: Number(match[1]), windowSeconds: Number(match[2]) };
}
