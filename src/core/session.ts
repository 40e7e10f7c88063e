/**
 * The account the app is showing: a profile (its database, its key's client, the sync engine and
 * its schedule) or the demo account (the same, against the demo service core was given: main and
 * the CLI inject the sandbox running in-process on loopback). Views read its database; actions go
 * through its client. A team hub account's sync pulls from the hub instead (`team/hub-sync.ts`),
 * on the same schedule and with the same status; its client is this computer's own key, if any.
 */
import type { RequestEvent } from './api/client';
import type { TrackingApiClient } from './api/client';
import type { Db } from './store/database';
import { readState } from './store/sync-state';
import type { SyncEngine } from './sync/engine';
import { openSync } from './sync/open-sync';
import { nextAttemptSentence, SyncScheduler } from './sync/scheduler';
import { readSyncLog } from './sync/sync-log';
import type { SyncMode, SyncProgress, SyncSummary } from './sync/types';
import type { SyncProgressInfo, SyncRun, SyncStatus } from '../shared/types';
import { documentsDirOf } from './sync/document-files';
import { NO_DEMO_SERVICE, type DemoServer, type DemoService } from './demo-service';
import type { DesktopNotification, NotificationSettings } from '../shared/alerts';
import { notificationForRun } from './alerts/raise-alerts';
import { ReadsAside, type ReadsAsideMode } from './reads/reads-aside';
import type { PagesAside } from './sync/pages-aside';
import type { HubAddress } from './team/address';
import { HubSync } from './team/hub-sync';

/**
 * SQLite's page cache on the core's own connection, in MB. The lists, counts and searches are read
 * by the reads' worker through its own connection (and cache), and the sync's pages are written by
 * the pages' worker through another. What this one reads is mostly a sync's plan, scanned once per
 * run, so the default (32 MB) only filled with pages it never read again: most of the process's
 * growth from a 2k to a 10k account. Pages it misses come from the OS's file cache.
 */
const CORE_CACHE_MB = 8;

export interface SessionOptions {
  /** null: the demo account. */
  profileId: string | null;
  dbPath: string;
  baseUrl: string;
  /** null when no key is stored for the profile on this machine, or none will be sent. */
  apiKey: string | null;
  /** Why no key is sent although one may be stored (a base URL the rule refuses): said instead. */
  keyProblem?: string;
  /**
   * A team hub account: its sync pulls from the hub (`team/hub-sync.ts`), never walks the API;
   * the key, when there is one, serves the actions that write to the service. The address is
   * read at each pull (it throws a sentence for one that cannot be used).
   */
  hub?: { address: () => HubAddress };
  syncIntervalMinutes: number;
  /** The document file size setting, read at each sync. */
  documentFileLimits?: () => { maxFileMb: number; maxTotalMb: number };
  /** Days the change history keeps, read after each sync (older changes are pruned then). */
  changeRetentionDays?: () => number | undefined;
  /** The alert rules, read after each sync (Settings). */
  alertRules?: () => NotificationSettings | undefined;
  /** Shows a sync's alerts as one desktop notification (core decides whether Settings want it). */
  notify?: (notification: DesktopNotification) => void;
  /** The clock alerts are raised by (tests move it); default Date.now. */
  now?: () => number;
  autoSync: boolean;
  fetch?: typeof fetch;
  /** Where the demo account (profileId null) syncs from; without it, its sync says none is available. */
  demo?: DemoService;
  onProgress: (progress: SyncProgressInfo) => void;
  onStatus: (status: SyncStatus) => void;
  /** Something in the database changed (views refetch). */
  onDataChanged: () => void;
  onConnectivity: (online: boolean) => void;
  log: (message: string, error?: unknown) => void;
  /** Where the long reads run (core/reads): 'auto' by default (a worker once the database is large). */
  readsAside?: ReadsAsideMode;
  /** The wait before a failed request is tried again (tests: one that does not wait on the clock). */
  retryWait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const DATA_CHANGED_EVERY_MS = 1500;

export class Session {
  readonly profileId: string | null;
  readonly db: Db;
  readonly client: TrackingApiClient | null;
  readonly engine: SyncEngine | null;
  /** The lists' pages and counts and Ctrl+K's search: in a worker thread over a large account. */
  readonly reads: ReadsAside;
  readonly #o: SessionOptions;
  readonly #demoServer: DemoServer | null;
  readonly #scheduler: SyncScheduler | null;
  readonly #closeSync: () => void;
  readonly #pages: PagesAside | null;
  /** What a sync runs: the hub's pull for a team hub account, else the API engine. */
  readonly #runner: Pick<SyncEngine, 'run'> | null;
  #online = true;
  #progress: SyncProgressInfo | null = null;
  #error: string | null = null;
  /** When the service said the next request may go, after a run it stopped for that (ms since the epoch). */
  #retryAt: number | null = null;
  /** Set when the last run found another process syncing this database (the CLI, a cron job). */
  #busy: string | null = null;
  #controller: AbortController | null = null;
  #running: Promise<SyncSummary> | null = null;
  #lastDataChanged = 0;
  #trailingDataChanged: ReturnType<typeof setTimeout> | null = null;

  private constructor(
    options: SessionOptions,
    demoServer: DemoServer | null,
    parts: ReturnType<typeof openSync> | null,
    db: Db,
    closeDb: () => void,
  ) {
    this.#o = options;
    this.profileId = options.profileId;
    this.#demoServer = demoServer;
    this.db = db;
    this.client = parts?.client ?? null;
    this.engine = parts?.engine ?? null;
    this.#pages = parts?.pages ?? null;
    this.#closeSync = closeDb;
    this.reads = new ReadsAside(db, { mode: options.readsAside, log: options.log });
    this.#runner = options.hub
      ? new HubSync({
          db,
          dbPath: options.dbPath,
          address: options.hub.address,
          onProgress: (p) => this.#noteProgress(p),
          alertRules: options.alertRules,
          changeRetentionDays: options.changeRetentionDays,
          now: options.now,
        })
      : (parts?.engine ?? null);
    this.#scheduler = this.#runner
      ? new SyncScheduler({
          run: () => this.#runSync('auto'),
          intervalMs: options.syncIntervalMinutes * 60_000,
          onError: (error) => options.log('scheduled sync failed', error),
          // The status names the next run (and, after a refusal to wait for, says when it is).
          onNextRun: () => this.#o.onStatus(this.status()),
        })
      : null;
  }

  static async open(options: SessionOptions): Promise<Session> {
    let demoServer: DemoServer | null = null;
    let baseUrl = options.baseUrl;
    let apiKey = options.apiKey;
    if (options.profileId === null) {
      // Demo: the injected service (main and the CLI: the sandbox in this process, on loopback).
      if (options.demo) {
        demoServer = await options.demo.start();
        baseUrl = demoServer.url;
        apiKey = demoServer.apiKey;
      } else {
        apiKey = null;
        options = { ...options, keyProblem: NO_DEMO_SERVICE };
      }
    }
    let session: Session;
    const onRequest = (event: RequestEvent) => session.#noteRequest(event);
    try {
      if (apiKey) {
        const parts = openSync({
          dbPath: options.dbPath,
          cacheMb: CORE_CACHE_MB,
          baseUrl,
          apiKey,
          fetch: options.fetch,
          documentFiles: { limits: options.documentFileLimits, fetch: options.fetch },
          changeRetentionDays: options.changeRetentionDays,
          alertRules: options.alertRules,
          now: options.now,
          onRequest,
          onProgress: (p) => session.#noteProgress(p),
          // The window's loop is this process's: pages are parsed and written by a worker thread
          // (a team hub account's pages come from the hub: its engine only fetches on demand).
          pagesAside: !options.hub,
          log: options.log,
          retryWait: options.retryWait,
        });
        session = new Session(options, demoServer, parts, parts.db, () => parts.close());
      } else {
        const { openDatabase } = await import('./store/database');
        const db = openDatabase(options.dbPath, { cacheMb: CORE_CACHE_MB });
        session = new Session(options, demoServer, null, db, () => {
          db.close();
        });
      }
    } catch (error) {
      await demoServer?.close();
      throw error;
    }
    if (options.autoSync && session.#scheduler) {
      const neverSynced = readState<string>(session.db, 'sync:completed_at') === null;
      session.#scheduler.start(neverSynced ? 500 : 5_000);
    }
    return session;
  }

  get online(): boolean {
    return this.#online;
  }

  /** The sentence for a sync or an action asked for without a key. */
  /** The folder this account's document files are kept in (beside its database). */
  get documentsDir(): string {
    return documentsDirOf(this.#o.dbPath);
  }

  get noKeyMessage(): string {
    return this.#o.keyProblem ?? 'No API key is stored for this profile on this machine. Enter it again in Settings.';
  }

  get syncing(): boolean {
    return this.#running !== null;
  }

  /** Starts a sync unless one is running; resolves when it ends. */
  startSync(mode: SyncMode): { started: boolean; done: Promise<SyncSummary | null> } {
    if (!this.#runner) {
      this.#error = this.noKeyMessage;
      this.#o.onStatus(this.status());
      return { started: false, done: Promise.resolve(null) };
    }
    if (this.#running) return { started: false, done: this.#running };
    return { started: true, done: this.#runSync(mode) };
  }

  cancelSync(): boolean {
    if (!this.#controller) return false;
    this.#controller.abort();
    return true;
  }

  setSyncInterval(minutes: number): void {
    this.#scheduler?.setInterval(minutes * 60_000);
  }

  status(): SyncStatus {
    const lastRun = readSyncLog(this.db, 1)[0] ?? null;
    const completed = readState<string>(this.db, 'sync:completed_at');
    const nextRunAt = this.#scheduler?.nextRunAt ?? null;
    return {
      state: this.#running ? 'syncing' : this.#busy ? 'busy' : this.#error ? 'failed' : 'idle',
      progress: this.#running ? this.#progress : null,
      lastRun,
      lastSyncedAt: completed,
      nextSyncAt: nextRunAt !== null && !this.#running ? new Date(nextRunAt).toISOString() : null,
      online: this.#online,
      error: this.#busy ?? this.#errorSentence(nextRunAt),
    };
  }

  /** The last run's failure; after the service asked to wait, with when the schedule really tries again. */
  #errorSentence(nextRunAt: number | null): string | null {
    if (this.#error === null || this.#retryAt === null || nextRunAt === null) return this.#error;
    return `${this.#error} ${nextAttemptSentence(this.#retryAt, nextRunAt, Date.now())}`;
  }

  history(limit: number): SyncRun[] {
    return readSyncLog(this.db, limit);
  }

  async close(): Promise<void> {
    this.#scheduler?.stop();
    if (this.#trailingDataChanged) clearTimeout(this.#trailingDataChanged);
    this.#trailingDataChanged = null;
    this.#controller?.abort();
    await this.#running?.catch(() => null);
    await this.reads.close();
    await this.#pages?.close();
    this.#closeSync();
    await this.#demoServer?.close();
  }

  #runSync(mode: SyncMode): Promise<SyncSummary> {
    if (this.#running) return this.#running;
    const controller = new AbortController();
    this.#controller = controller;
    this.#progress = null;
    this.#error = null;
    this.#retryAt = null;
    this.#busy = null;
    this.#running = this.#runner!.run({ mode, signal: controller.signal })
      .then((summary) => {
        if (summary.error?.code === 'busy') {
          // Another process is syncing this database: not a failure of ours; the schedule retries.
          this.#busy = summary.error.message;
          this.#o.log(`sync ${summary.mode} not started: ${summary.error.message}`);
          return summary;
        }
        this.#error = summary.status === 'failed' ? (summary.error?.message ?? 'The sync failed.') : null;
        if (summary.error?.retryAt) {
          // No run, scheduled or already due, goes before the instant the service named.
          this.#retryAt = Date.parse(summary.error.retryAt);
          this.#scheduler?.holdUntil(this.#retryAt);
        }
        const line = `sync #${summary.runId} ${summary.mode} ${summary.status}: ${summary.requests} requests, ${summary.rateLimited} rate limited, ${summary.durationMs} ms`;
        if (summary.status === 'failed') {
          this.#o.log(
            line,
            new Error(`${summary.error?.code ?? 'failed'}: ${summary.error?.message ?? 'no reason given'}`),
          );
        } else this.#o.log(line);
        for (const notice of summary.notices ?? []) this.#o.log(`sync #${summary.runId}: ${notice}`);
        this.#notify(summary.runId);
        return summary;
      })
      .finally(() => {
        this.#running = null;
        this.#controller = null;
        this.#dataChanged(Date.now());
        this.#o.onStatus(this.status());
      });
    this.#o.onStatus(this.status());
    return this.#running;
  }

  /** The run's new alerts as one desktop notification, when there are any and someone shows them. */
  #notify(runId: number): void {
    if (!this.#o.notify || runId <= 0) return;
    try {
      const notification = notificationForRun(this.db, runId);
      if (notification) this.#o.notify(notification);
    } catch (error) {
      this.#o.log(`sync #${runId}: its alerts could not be shown`, error);
    }
  }

  #noteProgress({ runId: _runId, ...progress }: SyncProgress): void {
    this.#progress = progress;
    this.#o.onProgress(this.#progress);
    // Views refetch while a long sync lands, but not on every page; a page held back is told at
    // the end of the interval, so the last pages before a pause (the urgent walks done, the rest
    // waiting for the limiter or the network) are on screen without waiting for the next page.
    const now = Date.now();
    if (now - this.#lastDataChanged >= DATA_CHANGED_EVERY_MS) {
      this.#dataChanged(now);
    } else {
      this.#trailingDataChanged ??= setTimeout(
        () => this.#dataChanged(Date.now()),
        this.#lastDataChanged + DATA_CHANGED_EVERY_MS - now,
      );
      this.#trailingDataChanged.unref?.();
    }
  }

  #dataChanged(now: number): void {
    if (this.#trailingDataChanged) clearTimeout(this.#trailingDataChanged);
    this.#trailingDataChanged = null;
    this.#lastDataChanged = now;
    this.#o.onDataChanged();
  }

  #noteRequest(event: RequestEvent): void {
    const unreachable = event.status === null && /network|timeout/.test(event.error ?? '');
    const online = !unreachable;
    if (online !== this.#online) {
      this.#online = online;
      this.#o.onConnectivity(online);
    }
  }
}
