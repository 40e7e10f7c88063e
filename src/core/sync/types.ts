import type { SyncProgressInfo } from '../../shared/types';
import type { JsonApiDocument } from '../api/document';

export type Priority = 'user' | 'background';
export type Query = Record<string, string | number | boolean | undefined>;

/** What the sync needs of the API client (TrackingApiClient implements it). */
export interface SyncClient {
  get(path: string, options?: { query?: Query; priority?: Priority; signal?: AbortSignal }): Promise<JsonApiDocument>;
  getUrl(url: string, options?: { priority?: Priority; signal?: AbortSignal }): Promise<JsonApiDocument>;
  /**
   * A list page read by `read` from its bytes (TrackingApiClient's `getPage`): the walks' pages
   * decoded and parsed off the core's loop. A client without it has its pages parsed in place.
   */
  getPage?<T>(
    target: { path: string; query?: Query } | { url: string },
    read: (body: Uint8Array) => Promise<T>,
    options?: { priority?: Priority; signal?: AbortSignal },
  ): Promise<T>;
  /** A plain JSON answer (the route map); a client without it skips the route step. */
  getJson?(path: string, options?: { priority?: Priority; signal?: AbortSignal }): Promise<unknown>;
}

export type SyncMode = 'full' | 'incremental' | 'auto';

/** What the renderer is shown of a running sync, and the run it belongs to. */
export interface SyncProgress extends SyncProgressInfo {
  runId: number;
}

export interface SyncSummary {
  runId: number;
  mode: 'full' | 'incremental';
  status: 'ok' | 'failed' | 'cancelled';
  requests: number;
  rateLimited: number;
  durationMs: number;
  /**
   * Records the run wrote, by JSON:API type, each distinct record once however many walks,
   * includes or pages brought it (`countOncePerRun`); besides them `document_file` and
   * `document_file_bytes` (files kept), `container_route` and `vessel_future_positions`.
   */
  counts: Record<string, number>;
  /**
   * Why the run did not finish; `retryAt` (ISO 8601) when the service asked Quayside to wait
   * longer than it waits in place, and no request should go before that instant.
   */
  error: { code: string; message: string; retryAt?: string } | null;
  /** Sentences a run says once, besides its outcome (a list the service could not give, read another way). */
  notices?: string[];
}
