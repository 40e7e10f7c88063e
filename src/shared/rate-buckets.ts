/**
 * The service's rate limits per API key: one overall bucket, and a few requests that are counted
 * in a bucket of their own instead (creating tracking requests, inferring a number's carrier,
 * refreshing a container). Each bucket is its own rolling window; a request in a special bucket
 * does not count against the overall one. The sandbox enforces these and the client's limiter
 * models them, both from this table.
 */

export const rateBuckets = ['overall', 'create_tracking_request', 'infer_number', 'refresh_container'] as const;
export type RateBucket = (typeof rateBuckets)[number];
export type SpecialRateBucket = Exclude<RateBucket, 'overall'>;

export interface RateLimitSpec {
  limit: number;
  windowSeconds: number;
}

/** The live service's limits, per key. */
export const liveRateLimits: Readonly<Record<RateBucket, RateLimitSpec>> = {
  overall: { limit: 100, windowSeconds: 60 },
  create_tracking_request: { limit: 100, windowSeconds: 60 },
  infer_number: { limit: 200, windowSeconds: 60 },
  refresh_container: { limit: 10, windowSeconds: 60 },
};

/**
 * The bucket a request is counted in, from its method and path (with or without the base URL's
 * path, such as `/v2`, in front; a trailing slash is the same path).
 */
export function rateBucketOf(method: string, pathname: string): RateBucket {
  const path = pathname.replace(/\/+$/, '');
  const verb = method.toUpperCase();
  if (verb === 'POST' && /(?:^|\/)tracking_requests\/infer_number$/.test(path)) return 'infer_number';
  if (verb === 'POST' && /(?:^|\/)tracking_requests$/.test(path)) return 'create_tracking_request';
  if (verb === 'PATCH' && /(?:^|\/)containers\/[^/]+\/refresh$/.test(path)) return 'refresh_container';
  return 'overall';
}
