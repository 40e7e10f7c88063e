/**
 * Wires one profile's sync: its database, the rate limiter of its key, the API client and the
 * engine. The CLI, demo mode and benchmarks use it; the app's core will too.
 */
import { TrackingApiClient, type RequestEvent } from '../api/client';
import { RateLimiter, rateLimiterFor } from '../api/rate-limiter';
import { openDatabase, type Db } from '../store/database';
import { SyncEngine } from './engine';
import { RequestMeter } from './meter';
import type { SyncProgress } from './types';

export interface OpenSyncOptions {
  dbPath: string;
  baseUrl: string;
  apiKey: string;
  rateLimit?: { limit: number; windowSeconds: number };
  /** A private limiter instead of the process-wide one for this key (benchmarks, tests). */
  isolatedLimiter?: boolean;
  onProgress?: (progress: SyncProgress) => void;
  /** Every request attempt's outcome (connectivity, logs); never carries the key. */
  onRequest?: (event: RequestEvent) => void;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface OpenSync {
  db: Db;
  client: TrackingApiClient;
  limiter: RateLimiter;
  meter: RequestMeter;
  engine: SyncEngine;
  close(): void;
}

export function openSync(options: OpenSyncOptions): OpenSync {
  const rate = options.rateLimit ?? { limit: 100, windowSeconds: 60 };
  const limiterOptions = { limit: rate.limit, windowMs: rate.windowSeconds * 1000 };
  const limiter = options.isolatedLimiter
    ? new RateLimiter(limiterOptions)
    : rateLimiterFor(options.apiKey, limiterOptions);
  const meter = new RequestMeter();
  const client = new TrackingApiClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    limiter,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
    onRequest: (event) => {
      meter.record(event);
      options.onRequest?.(event);
    },
  });
  const db = openDatabase(options.dbPath);
  const engine = new SyncEngine({
    db,
    client,
    meter,
    rateLimit: { limit: limiter.limit, windowMs: limiter.windowMs },
    availableRequests: () => limiter.snapshot().available,
    onProgress: options.onProgress,
  });
  return { db, client, limiter, meter, engine, close: () => db.close() };
}
