/**
 * Wires one profile's sync: its database, the rate limiter of its key, the API client and the
 * engine. The CLI, demo mode, the app's session and benchmarks use it. Every run of the engine
 * it returns holds the database's sync lock (`lock.ts`), so the app and a CLI cron job on the
 * same file never sync it at once: the second one ends at once as busy, before any request.
 */
import { TrackingApiClient, type RequestEvent } from '../api/client';
import type { RateLimitSpec, SpecialRateBucket } from '../../shared/rate-buckets';
import { RateLimiter, rateLimiterFor, type RateLimiterOptions } from '../api/rate-limiter';
import type { NotificationSettings } from '../../shared/alerts';
import { alertBaseline, raiseAlerts, type AlertBaseline } from '../alerts/raise-alerts';
import { pruneChangeHistory } from '../history/change-history';
import { openDatabase, type Db } from '../store/database';
import { readState } from '../store/sync-state';
import { SyncEngine, type RunOptions, type SyncEngineOptions } from './engine';
import { documentsDirOf, type DocumentFilesOptions } from './document-files';
import { acquireSyncLock, busyMessage, type SyncLockOptions } from './lock';
import { RequestMeter } from './meter';
import type { Logger } from '../dispatch';
import { PagesAside } from './pages-aside';
import type { SyncProgress, SyncSummary } from './types';
import { boundHeapGrowth } from '../heap-growth';

export interface OpenSyncOptions {
  dbPath: string;
  baseUrl: string;
  apiKey: string;
  /** The overall bucket (default 100 per 60 s). */
  rateLimit?: RateLimitSpec;
  /** The buckets counted apart (creates, infer_number, refresh); default: the live service's. */
  rateBuckets?: Partial<Record<SpecialRateBucket, RateLimitSpec>>;
  /** A private limiter instead of the process-wide one for this key (benchmarks, tests). */
  isolatedLimiter?: boolean;
  onProgress?: (progress: SyncProgress) => void;
  /** Every request attempt's outcome (connectivity, logs); never carries the key. */
  onRequest?: (event: RequestEvent) => void;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Document files kept beside the database: the size setting (default 25 MB a file, 2 GB in all). */
  documentFiles?: Partial<Omit<DocumentFilesOptions, 'client'>>;
  /** Timing of the cross-process sync lock (tests). */
  lock?: SyncLockOptions;
  /** SQLite's page cache in MB (`openDatabase`'s `cacheMb`; default 32). */
  cacheMb?: number;
  /** Days the change history keeps, read after each run (Settings; default 180): older changes are pruned then. */
  changeRetentionDays?: () => number | undefined;
  /** The alert rules (Settings; default: every rule on), read after each run: the alerts it raises. */
  alertRules?: () => NotificationSettings | undefined;
  /** The clock the alerts are raised by (a last free day "within N days" of it); tests move it. Default: Date.now. */
  now?: () => number;
  /**
   * The walks' pages parsed and written by a worker thread (`pages-aside.ts`): the app's session,
   * whose loop serves the window. The CLI writes them in place.
   */
  pagesAside?: boolean;
  /**
   * WAL checkpoints on the sync's own connection: the CLI, whose loop serves no window, so a
   * checkpoint's wait costs nothing and the checkpoint thread's own V8 heap is spared.
   */
  checkpointHere?: boolean;
  /** Where the pages' worker says it could not start or stopped (the app's log). */
  log?: Logger;
  /** The wait before a failed request is tried again (the client's backoff); tests pass one that does not wait on the clock. */
  retryWait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface OpenSync {
  db: Db;
  client: TrackingApiClient;
  limiter: RateLimiter;
  meter: RequestMeter;
  engine: SyncEngine;
  /** The pages' worker, when `pagesAside`: close it (awaited) before `close`. */
  pages: PagesAside | null;
  close(): void;
}

export function openSync(options: OpenSyncOptions): OpenSync {
  boundHeapGrowth();
  const rate = options.rateLimit ?? { limit: 100, windowSeconds: 60 };
  const buckets: RateLimiterOptions['buckets'] = {};
  for (const [name, spec] of Object.entries(options.rateBuckets ?? {}) as [SpecialRateBucket, RateLimitSpec][]) {
    buckets[name] = { limit: spec.limit, windowMs: spec.windowSeconds * 1000 };
  }
  const limiterOptions = { limit: rate.limit, windowMs: rate.windowSeconds * 1000, buckets };
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
    sleep: options.retryWait,
    onRequest: (event) => {
      meter.record(event);
      options.onRequest?.(event);
    },
  });
  const db = openDatabase(options.dbPath, { cacheMb: options.cacheMb });
  const pages = options.pagesAside ? new PagesAside(db, { log: options.log }) : null;
  let baseline: AlertBaseline | null = null;
  const engine = new LockedSyncEngine(options.dbPath, options.lock ?? {}, {
    db,
    client,
    baseUrl: options.baseUrl,
    meter,
    pages,
    checkpointHere: options.checkpointHere,
    rateLimit: { limit: limiter.limit, windowMs: limiter.windowMs },
    availableRequests: () => limiter.snapshot().available,
    onProgress: options.onProgress,
    documentFiles: {
      client,
      dir: options.documentFiles?.dir ?? documentsDirOf(options.dbPath),
      limits: options.documentFiles?.limits ?? (() => ({ maxFileMb: 25, maxTotalMb: 2048 })),
      fetch: options.documentFiles?.fetch,
      now: options.documentFiles?.now,
    },
    // Before each run, holding the lock: what the alert rules compare the run's end with.
    beforeRun: () => {
      baseline = alertBaseline(db);
    },
    // After each run, still holding the lock: the alerts it calls for are raised, and the change
    // history and the alerts are kept to their retention.
    afterRun: (summary) => {
      const now = new Date(options.now?.() ?? Date.now());
      pruneChangeHistory(db, options.changeRetentionDays?.(), now);
      if (baseline) raiseAlerts(db, baseline, { runId: summary.runId, rules: options.alertRules?.(), now });
      baseline = null;
    },
  });
  return {
    db,
    client,
    limiter,
    meter,
    engine,
    pages,
    close: () => {
      void pages?.close();
      db.close();
    },
  };
}

/**
 * The engine with the database's sync lock around each run. A run that finds the lock held
 * ends at once with a `busy` failure naming the holder (no request, no log row, the database
 * untouched); one that loses the lock to a takeover stops where it is, its checkpoint kept.
 */
export class LockedSyncEngine extends SyncEngine {
  readonly #dbPath: string;
  readonly #lockOptions: SyncLockOptions;
  readonly #db: Db;
  readonly #beforeRun: (() => void) | undefined;
  readonly #afterRun: ((summary: SyncSummary) => void) | undefined;

  /**
   * `beforeRun`: work done once the lock is taken, before the run (the alerts' baseline);
   * `afterRun`: work done when a run that held the lock ends, before the lock goes (alerts, the
   * history's prune).
   */
  constructor(
    dbPath: string,
    lockOptions: SyncLockOptions,
    options: SyncEngineOptions & { beforeRun?: () => void; afterRun?: (summary: SyncSummary) => void },
  ) {
    super(options);
    this.#dbPath = dbPath;
    this.#lockOptions = lockOptions;
    this.#db = options.db;
    this.#beforeRun = options.beforeRun;
    this.#afterRun = options.afterRun;
  }

  override run(options: RunOptions = {}): Promise<SyncSummary> {
    // A run of this engine is going: join it; it holds the lock already.
    if (this.running) return super.run(options);
    const taken = acquireSyncLock(this.#dbPath, this.#lockOptions);
    if (!taken.ok) return Promise.resolve(this.#busy(options, busyMessage(taken.holder)));
    const { lock } = taken;
    const signal = options.signal ? AbortSignal.any([options.signal, lock.lost]) : lock.lost;
    let run: Promise<SyncSummary>;
    try {
      try {
        this.#beforeRun?.();
      } catch {
        // A database that refuses the read fails the run itself; alerts wait for the next run.
      }
      run = super.run({ ...options, signal });
    } catch (error) {
      lock.release();
      throw error;
    }
    return run
      .then((summary) => {
        if (!lock.lost.aborted) {
          try {
            this.#afterRun?.(summary);
          } catch {
            // A database that refuses it (full, read-only) failed the run already; the next run tries again.
          }
        }
        return summary;
      })
      .then((summary) =>
        lock.lost.aborted && !options.signal?.aborted
          ? {
              ...summary,
              status: 'failed' as const,
              error: {
                code: 'busy',
                message:
                  'This sync stopped because another Quayside took over the database after this one stopped answering; its progress is kept.',
              },
            }
          : summary,
      )
      .finally(() => lock.release());
  }

  #busy(options: RunOptions, message: string): SyncSummary {
    let mode: SyncSummary['mode'] = options.mode === 'incremental' ? 'incremental' : 'full';
    if (options.mode === 'auto' || options.mode === undefined) {
      try {
        mode = readState<string>(this.#db, 'full:completed_at') ? 'incremental' : 'full';
      } catch {
        // The holder may be migrating the file; the mode only labels this summary.
      }
    }
    return {
      runId: 0,
      mode,
      status: 'failed',
      requests: 0,
      rateLimited: 0,
      durationMs: 0,
      counts: {},
      error: { code: 'busy', message },
    };
  }
}
