import type { JsonApiDocument } from '../api/document';

export type Priority = 'user' | 'background';
export type Query = Record<string, string | number | boolean | undefined>;

/** What the sync needs of the API client (TrackingApiClient implements it). */
export interface SyncClient {
  get(path: string, options?: { query?: Query; priority?: Priority; signal?: AbortSignal }): Promise<JsonApiDocument>;
  getUrl(url: string, options?: { priority?: Priority; signal?: AbortSignal }): Promise<JsonApiDocument>;
}

export type SyncMode = 'full' | 'incremental' | 'auto';

export interface SyncProgress {
  runId: number;
  mode: 'full' | 'incremental';
  /** The walk in progress, in words ("Shipments still tracking"). */
  step: string;
  pagesDone: number;
  /** Estimated pages in all, from the service's meta.total where known. */
  pagesTotal: number;
  requests: number;
  rateLimited: number;
  /** Seconds left at the rate limit, roughly. */
  etaSeconds: number | null;
}

export interface SyncSummary {
  runId: number;
  mode: 'full' | 'incremental';
  status: 'ok' | 'failed' | 'cancelled';
  requests: number;
  rateLimited: number;
  durationMs: number;
  counts: Record<string, number>;
  error: { code: string; message: string } | null;
}
